"""/mma ratings, history and replays through the real command tree: the rating a finished match between members
writes, the change on its final board, the leaderboard by rating, /mma stats with its chart, /mma history and
/mma replay with their buttons."""

from __future__ import annotations

import copy
import random

import pytest

from offline_discord.harness import CHANNEL_ID, GUILD_ID, OTHER_GUILD_CHANNEL_ID, OTHER_GUILD_ID, Message, User
from rules.mma.ai import choose_action
from rules.mma.engine import apply_in_place, replay_rng
from rules.mma.replay import replay_match
from rules.mma.state import OVER
from rules.rating import Rating, Result, rate_match
from storage.times import stored_time
from tests.cogs.test_mma import (
    CAROL,
    fix_deals,
    h,
    match_row,
    not_pings,
    play_first_card,
    save_unshown,
    saved_state,
    snapshot,
    start_pvp,
)

__all__ = ["h"]  # the fixture that fixes the deal

# Both start at a new player's rating; Alice (slot 0) wins when Bob concedes.
ALICE_WINS = rate_match(Rating(), Rating(), Result.WIN)


async def concede(h, match, user) -> None:
    (confirm,) = await h.click(match, "Concede", user)
    assert not_pings(await h.click(confirm, "Yes, concede", user)) == []


async def ratings(h) -> list[tuple]:
    rows = await h.bot.db.fetch_all("SELECT user_id, mu, sigma, games FROM mma_ratings ORDER BY games, mu DESC")
    return [tuple(r) for r in rows]


async def test_a_match_between_members_is_rated_once_by_the_librarys_numbers(h):
    match = await start_pvp(h)
    (confirm,) = await h.click(match, "Concede", h.bob)
    again = snapshot(confirm)
    assert not_pings(await h.click(confirm, "Yes, concede", h.bob)) == []
    won, lost = ALICE_WINS.first.after, ALICE_WINS.second.after
    expected = [(h.alice.id, won.mu, won.sigma, 1), (h.bob.id, lost.mu, lost.sigma, 1)]
    assert await ratings(h) == expected
    assert won.shown > 1500 > lost.shown
    # The final board shows each member's change: 📈 for the winner, 📉 for the loser.
    assert match.description.endswith(
        f"\n📈 {h.alice.mention}: 1500? → 1575? (+75)\n📉 {h.bob.mention}: 1500? → 1425? (-75)"
    )
    assert ALICE_WINS.first.text() == f"1500? → {won.shown}? (+{won.shown - 1500})"

    # A second click on the concession, after a restart, rates nothing again.
    await h.restart()
    (refusal,) = await h.click(again, "Yes, concede", h.bob)
    assert refusal.ephemeral and refusal.content == "❌ This match is over."
    assert await ratings(h) == expected
    changes = await h.bot.db.fetch_all("SELECT user_id, result, reason FROM mma_rating_changes ORDER BY user_id")
    assert sorted(tuple(r) for r in changes) == sorted(
        [(h.alice.id, "win", "conceded"), (h.bob.id, "loss", "conceded")]
    )


async def test_a_board_redrawn_after_a_restart_shows_the_rating_changes(h):
    match = await start_pvp(h)
    shown = snapshot(match)
    await save_unshown(h, "concede")  # Alice's concession (and its rating) saved, the board not edited
    await h.restart()
    (note,) = await h.click(shown, "Draw", h.alice)
    assert note.content.startswith("⌛ These buttons were from an earlier moment of this match")
    bob_wins = rate_match(Rating(), Rating(), Result.LOSS)
    assert match.embed.title == "🏆 Bob wins! 🏆"
    assert f"📉 {h.alice.mention}: {bob_wins.first.text()}" in match.description
    assert f"📈 {h.bob.mention}: {bob_wins.second.text()}" in match.description


async def test_a_match_against_the_ai_leaves_ratings_alone(h):
    (match,) = await h.run("mma ai", h.alice)
    await concede(h, match, h.alice)
    assert match.embed.title == "💀 DEFEAT 💀" and "📈" not in match.description and "📉" not in match.description
    assert match.description.endswith("\n🤖 Not rated: matches against the AI never are.")
    assert await ratings(h) == []
    assert await h.bot.db.fetch_all("SELECT * FROM mma_rating_changes") == []


async def test_leaderboard_after_one_match_ranks_both_provisional_players(h):
    (board,) = await h.run("mma leaderboard", h.alice)
    assert board.description == (
        "No rated matches in this server yet: ratings come from matches between members (`/mma challenge`)."
    )
    assert board.components == []
    match = await start_pvp(h)
    await concede(h, match, h.bob)
    (board,) = await h.run("mma leaderboard", h.bob)
    won, lost = ALICE_WINS.first.after, ALICE_WINS.second.after  # 1575? ±212 and 1425? ±212
    assert board.description == (
        "No established ratings yet: a rating is provisional (`?`) until its deviation is 130 or less, after about "
        "12 rated games.\n\n"
        "**Provisional** (`?`, ranked apart until the deviation is 130 or less)\n"
        f"🥇 **#1** {h.alice.mention}: **{won.shown}?** ±212 · 1 game\n"
        f"🥈 **#2** {h.bob.mention}: **{lost.shown}?** ±212 · 1 game"
    )
    assert board.field("📍 Bob") == f"**#2** of 2 provisional · **{lost.shown}?** ±212 · 1 game"
    assert board.components == []  # one page


def member(number: int) -> User:
    return User(1300000000000000000 + number, f"Member {number}")


async def test_leaderboard_reaches_everyone_on_pages_with_ties_and_the_askers_standing_on_each(h):
    # 18 established members (deviation at most 130), from 2000 down by 10, Member 2 and Member 3 tied at 1990
    # (1990.4 and 1989.6 both show 1990), Alice (in Member 17's place) tied with Member 18 at 1830; and 3
    # provisional ones, Bob among them. The GM is not rated.
    rows = [(member(n).id, 2010.0 - 10 * n, 80.0, 30, float(n)) for n in range(1, 19)]
    rows[1] = (member(2).id, 1990.4, 80.0, 30, 2.0)
    rows[2] = (member(3).id, 1989.6, 80.0, 30, 3.0)
    rows[16] = (h.alice.id, 1830.0, 130.0, 14, 17.0)
    rows += [(h.bob.id, 1700.2, 131.0, 9, 20.0), (CAROL.id, 1550.0, 212.18, 1, 21.0)]
    rows += [(member(19).id, 1400.0, 190.0, 2, 22.0)]
    async with h.bot.db.transaction() as conn:
        await conn.execute_many(
            "INSERT INTO mma_ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            [(GUILD_ID, *row[:4], stored_time(row[4])) for row in rows],
        )

    (board,) = await h.run("mma leaderboard", h.alice)

    lines = board.description.split("\n")
    assert len(lines) == 15
    assert lines[:5] == [
        f"🥇 **#1** {member(1).mention}: **2000** ±80 · 30 games",
        f"🥈 **#2** {member(2).mention}: **1990** ±80 · 30 games",  # a tie: the same rank
        f"🥈 **#2** {member(3).mention}: **1990** ±80 · 30 games",
        f"**#4** {member(4).mention}: **1970** ±80 · 30 games",
        f"**#5** {member(5).mention}: **1960** ±80 · 30 games",
    ]
    assert lines[-1] == f"**#15** {member(15).mention}: **1860** ±80 · 30 games"
    assert board.field("📍 Alice") == "**#17** of 18 established · **1830** ±130 · 14 games"  # on page 2
    assert board.embed.footer.text == (
        "page 1 of 2 · 21 rated members · rated by matches between members (not against the AI) · "
        "? marks a provisional rating"
    )
    assert [(c["label"], c["disabled"]) for c in board.components] == [("◀ Higher", True), ("Lower ▶", False)]
    assert board.component("Lower ▶")["custom_id"] == "mma:0:0:leaderboard-1"

    # Anyone may turn the page; it shows their own standing.
    assert await h.click(board, "Lower ▶", h.bob) == []
    assert board.description.split("\n") == [
        f"**#16** {member(16).mention}: **1850** ±80 · 30 games",
        f"**#17** {member(18).mention}: **1830** ±80 · 30 games",  # tied: the one with more games listed first
        f"**#17** {h.alice.mention}: **1830** ±130 · 14 games",
        "",
        "**Provisional** (`?`, ranked apart until the deviation is 130 or less)",
        f"🥇 **#1** {h.bob.mention}: **1700?** ±131 · 9 games",
        f"🥈 **#2** {CAROL.mention}: **1550?** ±212 · 1 game",
        f"🥉 **#3** {member(19).mention}: **1400?** ±190 · 2 games",
    ]
    assert board.field("📍 Bob") == "**#1** of 3 provisional · **1700?** ±131 · 9 games"
    assert board.embed.footer.text.startswith("page 2 of 2 · 21 rated members")
    assert [(c["label"], c["disabled"]) for c in board.components] == [("◀ Higher", False), ("Lower ▶", True)]
    await h.click(board, "◀ Higher", h.gm)
    assert board.field("📍 GameMaster") == (
        "No rated matches here yet: matches between members (`/mma challenge`) are rated."
    )
    assert board.description.startswith(f"🥇 **#1** {member(1).mention}")
    # Each server ranks its own members.
    (elsewhere,) = await h.run("mma leaderboard", h.alice, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID)
    assert elsewhere.description.startswith("No rated matches in this server yet")


async def test_stats_show_the_rating_its_chart_and_the_record_against_each_opponent(h):
    (stats,) = await h.run("mma stats", h.alice)
    assert stats.field("Rating") == "**1500? ±225**: no rated matches yet (matches between members are rated)"
    assert stats.files == {}  # no history, no chart
    match = await start_pvp(h)
    await concede(h, match, h.bob)
    (ai,) = await h.run("mma ai", h.alice)
    await concede(h, ai, h.alice)

    (stats,) = await h.run("mma stats", h.bob, member=h.alice)
    assert not stats.ephemeral and stats.embed.title == "📊 Alice: MMA Warriors record in this server"
    assert stats.description.startswith("**1** win · **1** loss · **0** draws (50% won)")
    assert "against players 1–0, against the AI 0–1" in stats.description
    assert stats.field("Rating") == (
        "**1575? ±212** · #1 of 2 provisional · 1 rated game\n"
        "provisional until its deviation is 130 or less (about 12 rated games)"
    )
    assert stats.field("Peak") == "none yet: the highest rating once established"
    assert stats.field("Win streak") == "**1** now · best **1**"
    assert stats.field("Last 1 rated, newest first") == "**W**"  # the match against the AI is not rated
    assert stats.field("Against members (rated)") == f"{h.bob.mention}: 1 W · 0 L · 0 D"
    assert stats.field("Favourite fighters")
    assert stats.embed.image.url == "attachment://rating.png"
    assert stats.files["rating.png"].startswith(b"\x89PNG\r\n\x1a\n")
    (bob,) = await h.run("mma stats", h.bob)
    assert bob.field("Against members (rated)") == f"{h.alice.mention}: 0 W · 1 L · 0 D"
    assert bob.field("Win streak") == "**0** now · best **0**"
    assert bob.field("Rating").startswith("**1425? ±212** · #2 of 2 provisional")


async def test_stats_read_like_a_chess_profile_rank_peak_streaks_and_the_last_ten(h):
    # Alice's rated season against Bob, oldest first: six wins, a loss, a draw, a win, a loss, five wins. The ratings
    # are the model's own: 1575, 1629, ... 1742 after six wins; established after the 14th game (deviation 128.8,
    # at most 130), at 1667; 1681 ±125 after the 15th, her peak as an established player.
    results = "WWWWWWLDWLWWWWW"
    alice, bob, shown = Rating(), Rating(), []
    for game, letter in enumerate(results):
        rated = rate_match(alice, bob, {"W": Result.WIN, "L": Result.LOSS, "D": Result.DRAW}[letter])
        alice, bob = rated.first.after, rated.second.after
        shown.append((alice, rated.first.established_now))
        await rated_game(h, h.alice, h.bob, rated, letter, 1_780_000_000.0 + 86400 * game)
    assert [established for _, established in shown].index(True) == 13  # the 14th game
    assert [rating.shown for rating, _ in shown][5:] == [1742, 1646, 1619, 1648, 1573, 1606, 1631, 1651, 1667, 1681]

    (stats,) = await h.run("mma stats", h.bob, member=h.alice)

    assert stats.field("Rating") == "**1681 ±125** · #1 of 2 established · 15 rated games"
    # 1742 came while provisional: the peak is the highest established rating, on the 15th day.
    assert stats.field("Peak") == f"**1681** on <t:{1_780_000_000 + 86400 * 14}:d>"
    assert stats.field("Win streak") == "**5** now · best **6**"
    assert stats.field("Last 10 rated, newest first") == "**W** **W** **W** **W** **W** L **W** D L **W**"
    assert stats.field("Against members (rated)") == f"{h.bob.mention}: 12 W · 2 L · 1 D"
    (bob_stats,) = await h.run("mma stats", h.alice, member=h.bob)
    assert bob_stats.field("Rating") == "**1319 ±125** · #2 of 2 established · 15 rated games"
    assert bob_stats.field("Win streak") == "**0** now · best **1**"


async def rated_game(h, winner_side: User, other: User, rated, letter: str, at: float) -> None:
    """One rated match between two members as the bot stores it, with the model's changes (`rated`)."""
    async with h.bot.db.transaction() as conn:
        row = await conn.fetch_required(
            "INSERT INTO mma_matches (guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
            "status, seed, last_move_at) VALUES (?, ?, ?, 'a', ?, 'b', 'over', 1, ?) RETURNING id",
            (GUILD_ID, CHANNEL_ID, winner_side.id, other.id, stored_time(0)),
        )
        result = {"W": "win", "L": "loss", "D": "draw"}[letter]
        opposite = {"W": "loss", "L": "win", "D": "draw"}[letter]
        for user, opponent, outcome, change in (
            (winner_side, other, result, rated.first),
            (other, winner_side, opposite, rated.second),
        ):
            await conn.execute(
                "INSERT INTO mma_rating_changes (match_id, user_id, guild_id, opponent_id, result, reason, mu_before, "
                "sigma_before, mu_after, sigma_after, games_after, rated_at) "
                "VALUES (?, ?, ?, ?, ?, 'health_depleted', ?, ?, ?, ?, ?, ?)",
                (row["id"], user.id, GUILD_ID, opponent.id, outcome, change.before.mu, change.before.sigma,
                 change.after.mu, change.after.sigma, change.after.games, stored_time(at)),
            )  # fmt: skip
            await conn.execute(
                "INSERT INTO mma_ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, "
                "games = excluded.games, updated_at = excluded.updated_at",
                (GUILD_ID, user.id, change.after.mu, change.after.sigma, change.after.games, stored_time(at)),
            )


async def test_stats_of_a_member_whose_name_looks_like_a_formula_show_the_chart(h):
    cash = User(800000000000000005, "$_$ cash")  # matplotlib would read $_$ as mathematics, and fail
    (challenge,) = await h.run("mma challenge", cash, opponent=h.bob)
    assert not_pings(await h.click(challenge, "Accept", h.bob)) == []
    await concede(h, challenge, h.bob)
    (stats,) = await h.run("mma stats", h.alice, member=cash)
    assert not stats.ephemeral and stats.embed.title == r"📊 $\_$ cash: MMA Warriors record in this server"
    assert stats.embed.image.url == "attachment://rating.png"
    assert stats.files["rating.png"].startswith(b"\x89PNG\r\n\x1a\n")


async def test_history_lists_finished_matches_newest_first_paged_with_buttons(h):
    (empty,) = await h.run("mma history", h.alice)
    assert empty.description == f"{h.alice.mention} has no finished matches in this server yet."
    assert empty.components == []
    match = await start_pvp(h)
    await concede(h, match, h.bob)  # match 1: rated
    for _ in range(10):  # matches 2 to 11: against the AI, not rated
        (ai,) = await h.run("mma ai", h.alice)
        await concede(h, ai, h.alice)

    (history,) = await h.run("mma history", CAROL, member=h.alice)
    assert not history.ephemeral and history.embed.title == "📜 MMA Warriors match history"
    lines = history.description.splitlines()
    assert lines[0] == f"{h.alice.mention}: 11 finished matches, newest first"
    assert lines[2].startswith("`#11` <t:") and lines[2].endswith(":d> vs the AI: **Loss** (Conceded) · not rated")
    assert len(lines) == 2 + 10 and lines[-1].startswith("`#2` ")
    assert history.embed.footer.text == "page 1 of 2 · rating change where rated (members only)"
    assert [(c["label"], c["disabled"]) for c in history.components[:2]] == [("◀ Newer", True), ("Older ▶", False)]
    assert history.component("Older ▶")["custom_id"] == f"mma:{h.alice.id}:0:history-1"

    # Anyone may turn the pages of a public history.
    assert await h.click(history, "Older ▶", CAROL) == []
    (line,) = history.description.splitlines()[2:]
    assert line.startswith("`#1` <t:")
    assert line.endswith(f":d> vs {h.bob.mention}: **Win** (Conceded) · {ALICE_WINS.first.text()}")
    assert [(c["label"], c["disabled"]) for c in history.components[:2]] == [("◀ Newer", False), ("Older ▶", True)]
    await h.restart()
    assert await h.click(history, "◀ Newer", h.bob) == []
    assert history.description.splitlines()[2].startswith("`#11` ")


async def play_and_record_boards(h, match, steps: int) -> dict[int, tuple[str, str]]:
    """Play `steps` clicks of a match between Alice and Bob; the board's corners after each, by move count."""
    boards = {}
    for _ in range(steps):
        state = await saved_state(h)
        user = (h.alice, h.bob)[state.to_move]
        if state.phase == "draw":
            await h.click(match, "Draw", user)
        elif state.phase == "main" and state.players[state.to_move].energy >= 3:
            try:
                await play_first_card(h, user, match)
            except AssertionError:
                await h.click(match, "End turn", user)
        else:
            await h.click(match, "End turn", user)
        moves = (await saved_state(h)).moves
        boards[moves] = (match.field("🔴 Alice"), match.field("🔵 Bob"))
    return boards


async def test_a_replay_shows_every_step_as_the_live_match_showed_it(h):
    match = await start_pvp(h)
    boards = {0: (match.field("🔴 Alice"), match.field("🔵 Bob"))}
    boards |= await play_and_record_boards(h, match, 12)
    await concede(h, match, h.alice)
    row = await match_row(h)
    moves = await h.bot.get_cog("MMA").matches.repo.moves(row["id"])
    steps = replay_match(row["seed"], moves)
    assert steps[-1].state.to_dict() == (await saved_state(h)).to_dict()
    last = len(steps) - 1

    (replay,) = await h.run("mma replay", CAROL, match=row["id"])
    assert replay.ephemeral
    assert replay.embed.title == "📼 Replay of match #1: Alice vs Bob"
    assert replay.description.startswith(f"**Turn 1 of 3** · step 0 of {last}: the deal\n")
    assert replay.description.endswith("🂠 The match is over, so both players' hands are shown to everyone.")
    assert [(c.get("label"), c["disabled"]) for c in replay.components][:4] == [
        ("⏮ Start", True),
        ("◀ Back", True),
        ("Forward ▶", False),
        ("End ⏭", False),
    ]
    compared = 0
    for number in range(last + 1):
        if number:
            assert await h.click(replay, "Forward ▶", CAROL) == []
        assert replay.embed.footer.text == f"seed {row['seed']}"
        assert f"· step {number} of {last}" in replay.description.splitlines()[0]
        hand = ", ".join(
            __import__("rules.mma.cards").mma.cards.CARDS[c].name for c in steps[number].state.players[0].hand
        )
        assert replay.field("🔴 Alice").endswith(f"🂠 Hand: {hand or 'empty'}")
        if number in boards:  # a moment the live board showed
            live = boards[number]
            assert replay.field("🔴 Alice").startswith(live[0] + "\n🂠 Hand: ")
            assert replay.field("🔵 Bob").startswith(live[1] + "\n🂠 Hand: ")
            compared += 1
    assert compared == len(boards) >= 10
    assert replay.description.splitlines()[:2] == [
        f"**Turn 3 of 3** · step {last} of {last}",
        f"{h.alice.mention} was defeated! Conceded.",
    ]
    assert replay.component("Forward ▶")["disabled"] is True
    await h.click(replay, "⏮ Start", CAROL)
    assert replay.description.startswith(f"**Turn 1 of 3** · step 0 of {last}: the deal")
    await h.click(replay, "End ⏭", CAROL)
    assert replay.description.startswith(f"**Turn 3 of 3** · step {last} of {last}\n")


async def test_replay_refuses_unknown_unfinished_and_foreign_matches_privately(h):
    (refusal,) = await h.run("mma replay", h.alice, match=7)
    assert refusal.ephemeral and refusal.content == "❌ There is no match #7."
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    (refusal,) = await h.run("mma replay", h.alice, match=1)
    assert refusal.content == "❌ Match #1 is a challenge not yet answered: there is nothing to replay."
    await h.click(challenge, "Accept", h.bob)
    (refusal,) = await h.run("mma replay", h.alice, match=1)
    assert refusal.content == "❌ Match #1 is still being played: its replay opens once it is over."
    await concede(h, challenge, h.bob)
    (refusal,) = await h.run("mma replay", h.alice, match=1, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID)
    assert refusal.ephemeral
    assert refusal.content == "❌ Match #1 was played in another server: it can only be replayed there."
    (replay,) = await h.run("mma replay", h.alice, match=1)
    (refusal,) = await h.click(replay, "End ⏭", h.alice, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID)
    assert refusal.content == "❌ Match #1 was played in another server: it can only be replayed there."
    assert replay.description.startswith("**Turn 1 of 1** · step 0 of 1: the deal")


@pytest.mark.one_backend
async def test_an_idle_claim_replays_as_its_last_step(h):
    match = await start_pvp(h)
    await h.click(match, "Skip draw", h.alice)
    await h.click(match, "End turn", h.alice)
    cog = h.bot.get_cog("MMA")
    start = cog.clock()
    cog.clock = lambda: start + 15 * 60 + 1
    await h.click(match, "Claim win (opponent idle)", h.alice)
    (replay,) = await h.run("mma replay", h.bob, match=1)
    await h.click(replay, "End ⏭", h.bob)
    assert replay.description.startswith(
        f"**Turn 2 of 2** · step 3 of 3\n{h.bob.mention} was defeated! Opponent idle.\n"
    )


# Discord's ids have 19 digits since 2022, up to the largest 64-bit integer.
NINETEEN = User(1234567890123456789, "Nineteen")
LARGEST = User(2**63 - 1, "Largest")


async def test_members_with_ids_of_todays_size_play_page_their_history_and_replay(h):
    (challenge,) = await h.run("mma challenge", NINETEEN, opponent=LARGEST)
    assert not_pings(await h.click(challenge, "Accept", LARGEST)) == []
    assert challenge.embed.title == "🥊 Nineteen vs Largest"
    await h.click(challenge, "Draw", NINETEEN)
    await concede(h, challenge, LARGEST)
    for _ in range(10):
        (ai,) = await h.run("mma ai", NINETEEN)
        await concede(h, ai, NINETEEN)

    (history,) = await h.run("mma history", LARGEST, member=NINETEEN)
    assert history.description.splitlines()[0] == f"{NINETEEN.mention}: 11 finished matches, newest first"
    assert history.component("Older ▶")["custom_id"] == f"mma:{NINETEEN.id}:0:history-1"
    assert await h.click(history, "Older ▶", LARGEST) == []
    (line,) = history.description.splitlines()[2:]
    assert line.startswith("`#1` ") and f":d> vs {LARGEST.mention}: **Win** (Conceded) · " in line
    (theirs,) = await h.run("mma history", LARGEST)
    assert theirs.description.splitlines()[0] == f"{LARGEST.mention}: 1 finished match, newest first"

    (replay,) = await h.run("mma replay", LARGEST, match=1)
    assert replay.embed.title == "📼 Replay of match #1: Nineteen vs Largest"
    assert await h.click(replay, "End ⏭", LARGEST) == []
    assert f"{LARGEST.mention} was defeated! Conceded." in replay.description


# A long match: seed 3 played out by the AI's choices for both members (as clicks would make them) lasts 269
# steps and 89 turns (counted across both players), with 8 knockouts before the last step's.
LONG_SEED, LONG_STEPS, LONG_TURNS = 3, 269, 89


async def long_match(h) -> None:
    """Match #1: Alice vs Bob from LONG_SEED, played to its end and saved as the moves of members."""
    fix_deals(h, LONG_SEED)
    await start_pvp(h)
    cog = h.bot.get_cog("MMA")
    record = await cog.matches.repo.get(1)
    state, moves = record.game, []
    while state.phase != OVER:
        action = choose_action(state, state.to_move, random.Random(len(moves)))  # a member's choice
        apply_in_place(state, action, replay_rng(state))
        moves.append(action)
    await cog.matches.repo.save_moves(record, state, list(record.feed), moves, cog.clock())


def headline(replay) -> str:
    return replay.description.splitlines()[0]


def options(replay, placeholder: str) -> list[tuple[str, str, str]]:
    return [(o["label"], o.get("description", ""), o["value"]) for o in replay.component(placeholder)["options"]]


@pytest.mark.one_backend
async def test_a_replay_is_its_viewers_own_and_says_each_fact_once(h):
    await long_match(h)
    (alices,) = await h.run("mma replay", h.alice, match=1)
    (bobs,) = await h.run("mma replay", h.bob, match=1)
    assert alices.ephemeral and bobs.ephemeral
    assert alices.embed.footer.text == "seed 3"  # the match's number is in the title, the step in the headline
    assert alices.description == (
        f"**Turn 1 of {LONG_TURNS}** · step 0 of {LONG_STEPS}: the deal\n"
        f"{h.alice.mention} sends in **Tom Aspinall** (38 stamina)\n"
        f"{h.bob.mention} sends in **Tom Aspinall** (38 stamina)\n\n"
        "🂠 The match is over, so both players' hands are shown to everyone."
    )
    # The draw is told once (not "Step 1: Alice draws", then "Alice draws (69 left in deck)").
    assert await h.click(alices, "Forward ▶", h.alice) == []
    assert alices.description.splitlines()[:2] == [
        f"**Turn 1 of {LONG_TURNS}** · step 1 of {LONG_STEPS}",
        f"{h.alice.mention} draws (69 left in deck)",
    ]
    # An end of turn has no feed line of its own: the step says it. The next turn's line is left out (the
    # headline has the turn, the ▶ whose it is, the board the energy).
    await h.click(alices, "Forward ▶", h.alice)
    await h.click(alices, "Forward ▶", h.alice)
    assert alices.description.splitlines()[:2] == [
        f"**Turn 2 of {LONG_TURNS}** · step 3 of {LONG_STEPS}",
        f"{h.alice.mention} ends the turn",
    ]
    assert "turn 2:" not in alices.description and alices.embed.fields[1].name == "🔵 Bob ▶"
    # Bob's replay did not move.
    assert headline(bobs) == f"**Turn 1 of {LONG_TURNS}** · step 0 of {LONG_STEPS}: the deal"
    # The end: the knockout that ended it, the end once (not the feed's "🏆 Alice wins" as well), the ratings.
    await h.click(bobs, "End ⏭", h.bob)
    lines = bobs.description.splitlines()
    assert lines[0] == f"**Turn {LONG_TURNS} of {LONG_TURNS}** · step {LONG_STEPS} of {LONG_STEPS}"
    assert lines[2] == f"💥 **KO!** Ilia Topuria is out; {h.bob.mention} loses 20 health (0 left)"
    assert lines[3:5] == [
        f"{h.bob.mention} was defeated! Health depleted.",
        f"📈 {h.alice.mention}: 1500? → 1575? (+75)",
    ]
    assert "🏆" not in bobs.description
    assert headline(alices) == f"**Turn 2 of {LONG_TURNS}** · step 3 of {LONG_STEPS}"


@pytest.mark.one_backend
async def test_another_member_cannot_move_a_replay_shown_to_everyone(h):
    """A replay posted publicly (before replays were private) is not moved by a click: the clicker gets their own."""
    await long_match(h)
    (private,) = await h.run("mma replay", h.alice, match=1)
    public = Message(private.id, private.channel_id, copy.deepcopy(private.data) | {"flags": 0}, ephemeral=False)
    (own,) = await h.click(public, "End ⏭", CAROL)
    assert own.ephemeral and headline(own).endswith(f"step {LONG_STEPS} of {LONG_STEPS}")
    assert headline(public).endswith(f"step 0 of {LONG_STEPS}: the deal")
    assert headline(private).endswith(f"step 0 of {LONG_STEPS}: the deal")


@pytest.mark.one_backend
async def test_any_turn_is_two_clicks_away_and_any_knockout_or_the_end_one(h):
    await long_match(h)
    (replay,) = await h.run("mma replay", h.alice, match=1)
    assert len(replay.components) == 4 + 3  # the buttons, then one select a row: ranges, turns, moments
    # 89 turns do not fit one select (25 options at most): ranges of 25 turns, then the turns of one.
    assert options(replay, "Jump to a range of turns") == [
        ("Turns 1–25", "from step 0", "1"),
        ("Turns 26–50", "from step 75", "26"),
        ("Turns 51–75", "from step 155", "51"),
        ("Turns 76–89", "from step 232", "76"),
    ]
    turns = options(replay, "Jump to a turn")
    assert turns[:3] == [
        ("Turn 1 · Alice", "step 0", "1"),
        ("Turn 2 · Bob", "step 3", "2"),
        ("Turn 3 · Alice", "step 7", "3"),
    ]
    assert len(turns) == 25
    assert options(replay, "Jump to a knockout or the end") == [
        ("💥 KO: Tom Aspinall (Alice)", "turn 8 · step 26", "26"),
        ("💥 KO: Tom Aspinall (Bob)", "turn 15 · step 48", "48"),
        ("💥 KO: Islam Makhachev (Alice)", "turn 30 · step 90", "90"),
        ("💥 KO: Max Holloway (Bob)", "turn 33 · step 101", "101"),
        ("💥 KO: Dricus Du Plessis (Alice)", "turn 50 · step 153", "153"),
        ("💥 KO: Islam Makhachev (Bob)", "turn 51 · step 159", "159"),
        ("💥 KO: Ilia Topuria (Alice)", "turn 75 · step 230", "230"),
        ("💥 KO: Jack Della Maddalena (Bob)", "turn 83 · step 250", "250"),
        ("🏁 The end: Health depleted", f"turn 89 · step {LONG_STEPS}", str(LONG_STEPS)),
    ]
    # A knockout in one click.
    assert await h.click(replay, "Jump to a knockout or the end", h.alice, values=["101"]) == []
    assert headline(replay) == f"**Turn 33 of {LONG_TURNS}** · step 101 of {LONG_STEPS}"
    assert f"💥 **KO!** Max Holloway is out; {h.bob.mention} loses 20 health" in replay.description
    # Every turn in two clicks: its range, then the turn; each range lists the turns it names.
    listed = []
    for first in ("1", "26", "51", "76"):
        await h.click(replay, "Jump to a range of turns", h.alice, values=[first])
        assert headline(replay).startswith(f"**Turn {first} of {LONG_TURNS}**")
        listed += [int(value) for _, _, value in options(replay, "Jump to a turn")]
    assert listed == list(range(1, LONG_TURNS + 1))
    await h.click(replay, "Jump to a range of turns", h.alice, values=["51"])
    await h.click(replay, "Jump to a turn", h.alice, values=["60"])
    assert headline(replay).startswith(f"**Turn 60 of {LONG_TURNS}** · step ")
    await h.click(replay, "Jump to a knockout or the end", h.alice, values=[str(LONG_STEPS)])
    assert replay.component("End ⏭")["disabled"] and replay.component("Forward ▶")["disabled"]
    # A value no option carries changes nothing.
    (refusal,) = await h.click(replay, "Jump to a turn", h.alice, values=["90"])
    assert refusal.content == "❌ Match #1 has 89 turns: there is no turn 90."


@pytest.mark.one_backend
async def test_the_turn_option_opens_a_replay_at_that_turn(h):
    await long_match(h)
    (replay,) = await h.run("mma replay", h.bob, match=1, turn=60)
    assert replay.ephemeral and headline(replay) == f"**Turn 60 of {LONG_TURNS}** · step 183 of {LONG_STEPS}"
    turns = options(replay, "Jump to a turn")  # the turns of its range, where the select would have led
    assert turns[0][0] == "Turn 51 · Alice" and turns[9] == ("Turn 60 · Bob", "step 183", "60")
    (refusal,) = await h.run("mma replay", h.bob, match=1, turn=90)
    assert refusal.ephemeral and refusal.content == "❌ Match #1 has 89 turns: there is no turn 90."
    # A short match: its turns fit one select, without ranges.
    match = await start_pvp(h)
    await concede(h, match, h.bob)
    (short,) = await h.run("mma replay", h.bob, match=2)
    assert [c.get("placeholder") for c in short.components[4:]] == ["Jump to a turn", "Jump to a knockout or the end"]
    assert options(short, "Jump to a turn") == [("Turn 1 · Alice", "step 0", "1")]


async def test_match_autocomplete_offers_the_members_recent_matches_newest_first(h):
    cash = User(800000000000000005, "$_$ cash")
    (challenge,) = await h.run("mma challenge", h.alice, opponent=cash)
    assert not_pings(await h.click(challenge, "Accept", cash)) == []
    await concede(h, challenge, cash)  # match 1: Alice beats "$_$ cash"
    match = await start_pvp(h)
    await concede(h, match, h.alice)  # match 2: Alice loses to Bob
    (choices,) = [await h.autocomplete("mma replay", "match", "")]
    assert [c["value"] for c in choices] == [2, 1]
    day = choices[0]["name"].split(" · ")[2]
    assert choices == [
        {"name": f"#2 · Loss vs Bob · {day} · Conceded", "value": 2},
        {"name": f"#1 · Win vs $_$ cash · {day} · Conceded", "value": 1},  # as written: a choice shows no markdown
    ]
    assert [c["value"] for c in await h.autocomplete("mma replay", "match", "cash")] == [1]
    assert [c["value"] for c in await h.autocomplete("mma replay", "match", "#2")] == [2]
    assert await h.autocomplete("mma replay", "match", "", user=CAROL) == []  # Carol played none
    for _ in range(25):  # matches 3 to 27: more than a list of choices holds
        (ai,) = await h.run("mma ai", h.alice)
        await concede(h, ai, h.alice)
    choices = await h.autocomplete("mma replay", "match", "")
    assert [c["value"] for c in choices] == list(range(27, 2, -1))
    assert choices[0]["name"] == f"#27 · Loss vs AI · {day} · Conceded"


async def test_each_history_line_opens_as_the_clickers_own_replay(h):
    match = await start_pvp(h)
    await concede(h, match, h.bob)  # match 1
    for _ in range(10):  # matches 2 to 11
        (ai,) = await h.run("mma ai", h.alice)
        await concede(h, ai, h.alice)
    (history,) = await h.run("mma history", CAROL, member=h.alice)
    assert not history.ephemeral
    select = history.component("Open a match of this page as your own replay")
    assert select["custom_id"] == f"mma:{h.alice.id}:0:history-replay"
    assert [o["value"] for o in select["options"]] == [str(n) for n in range(11, 1, -1)]
    assert (
        select["options"][0]["label"].startswith("#11 · Loss · ") and select["options"][0]["description"] == "Conceded"
    )
    shown = copy.deepcopy(history.data)
    (replay,) = await h.click(history, "Open a match of this page as your own replay", CAROL, values=["5"])
    assert replay.ephemeral and replay.embed.title == "📼 Replay of match #5: Alice vs AI"
    assert history.data == shown  # the public history is as it was
    await h.click(history, "Older ▶", CAROL)
    select = history.component("Open a match of this page as your own replay")
    assert [o["value"] for o in select["options"]] == ["1"]
    (replay,) = await h.click(history, "Open a match of this page as your own replay", h.bob, values=["1"])
    assert replay.ephemeral and replay.embed.title == "📼 Replay of match #1: Alice vs Bob"


@pytest.mark.one_backend
async def test_stats_chart_is_drawn_for_discord_from_the_members_rated_games(h, monkeypatch):
    """The chart /mma stats attaches, read off its Figure: the rated games (not the AI's) on the x axis ending at
    the last, each marked by its result, the peak, Discord's dark theme; the PNG is 1200 x 660."""
    import struct

    import rules.rating_chart as chart

    drawn = []

    def figure_kept(games, title):
        drawn.append(figure := real(games, title))
        return figure

    real = chart.rating_figure
    monkeypatch.setattr(chart, "rating_figure", figure_kept)
    match = await start_pvp(h)
    await concede(h, match, h.bob)  # Alice wins: rated
    (ai,) = await h.run("mma ai", h.alice)
    await concede(h, ai, h.alice)  # not rated: not charted
    match = await start_pvp(h)
    await concede(h, match, h.alice)  # Alice loses: rated
    (stats,) = await h.run("mma stats", h.bob, member=h.alice)
    png = stats.files["rating.png"]
    assert struct.unpack(">II", png[16:24]) == (1200, 660)
    (figure,) = drawn
    axes = figure.axes[0]
    assert axes.get_xlim() == (0, 2)
    marks = {line.get_marker(): list(line.get_xdata()) for line in axes.get_lines() if line.get_marker() in "^v*"}
    assert marks == {"^": [1], "v": [2], "*": [1]}
    peak = ALICE_WINS.first.after
    now = rate_match(peak, ALICE_WINS.second.after, Result.LOSS).first.after
    assert [t.get_text() for t in axes.texts] == [f"peak {peak.text()}", now.text()]
    assert axes.get_xlabel().startswith("rated games (") and axes.title.get_text() == "Alice: MMA Warriors rating"
    assert figure.get_facecolor()[:3] != (1.0, 1.0, 1.0)


async def test_ratings_of_an_earlier_scale_are_recomputed_at_start_up_and_the_history_agrees(h):
    match = await start_pvp(h)
    await concede(h, match, h.bob)
    expected = await ratings(h)
    # As the earlier scale (OpenSkill's defaults times 60) left them: Alice 1658? after her win, Bob 1342?.
    async with h.bot.db.transaction() as conn:
        await conn.execute("UPDATE mma_ratings SET mu = 3000 - mu - 184, sigma = 483.9541")
        await conn.execute("UPDATE mma_rating_changes SET mu_before = 1500, sigma_before = 500, sigma_after = 483.9541")
        await conn.execute("UPDATE mma_rating_changes SET mu_after = 1658.1234 WHERE result = 'win'")
        await conn.execute("UPDATE mma_rating_changes SET mu_after = 1341.8766 WHERE result = 'loss'")
        await conn.execute("DELETE FROM mma_rating_models")

    await h.restart()

    assert await ratings(h) == expected
    (models,) = await h.bot.db.fetch_all("SELECT model, matches FROM mma_rating_models")
    assert tuple(models) == ("openskill-plackett-luce mu=1500 sigma=225 beta=80 tau=4 gamma=1", 1)
    (history,) = await h.run("mma history", h.alice)
    assert f"**Win** (Conceded) · {ALICE_WINS.first.text()}" in history.embed.description
    assert ALICE_WINS.first.text() == "1500? → 1575? (+75)"


async def test_the_final_board_says_when_a_member_becomes_established(h):
    # Alice at 1600? ±131 and Bob at 1500? ±140, both just provisional: Alice's win narrows hers to 125.5 (at most
    # 130: established), Bob's to 133.3 (still provisional).
    async with h.bot.db.transaction() as conn:
        await conn.execute_many(
            "INSERT INTO mma_ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, 13, ?)",
            [
                (GUILD_ID, h.alice.id, 1600.0, 131.0, stored_time(0)),
                (GUILD_ID, h.bob.id, 1500.0, 140.0, stored_time(0)),
            ],
        )
    rated = rate_match(Rating(1600.0, 131.0, 13), Rating(1500.0, 140.0, 13), Result.WIN)
    assert rated.first.established_now and not rated.second.established_now
    alice, bob = rated.first.after, rated.second.after
    assert (alice.text_with_deviation(), bob.text_with_deviation()) == ("1630 ±126", "1466? ±133")
    match = await start_pvp(h)
    await concede(h, match, h.bob)
    assert match.description.endswith(
        f"\n📈 {h.alice.mention}: 1600? → 1630 (+30)"
        f"\n🎖️ {h.alice.mention} is now established: 1630 ±126, no longer provisional."
        f"\n📉 {h.bob.mention}: 1500? → 1466? (-34)"
    )
    assert await ratings(h) == [(h.alice.id, alice.mu, alice.sigma, 14), (h.bob.id, bob.mu, bob.sigma, 14)]


async def test_the_rules_say_what_a_rating_means(h):
    (rules,) = await h.run("mma rules", h.alice)
    assert rules.field("Ratings") == (
        "Matches between members are rated on the Elo scale, as on chess sites: everyone starts at 1500, and 200 "
        "points ahead means winning about 3 games in 4 (400 points: about 10 in 11). A `?` marks a provisional "
        "rating, for about the first 12 rated games; matches against the AI are not rated."
    )
