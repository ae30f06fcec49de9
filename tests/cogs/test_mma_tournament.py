"""/mma tournament through the bot's real dispatch: the worked example of docs/rules/tournament.md (eight players,
three rounds) played from sign-up to podium as member matches, on both backends, with a restart mid-round and
a round whose boards Discord refused, then posted when the bot came back."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import re
import time

import discord
import pytest

from offline_discord.harness import CHANNEL_ID, GUILD_ID, OTHER_GUILD_CHANNEL_ID, OTHER_GUILD_ID, Message, User
from rules.mma.engine import MAX_TURNS
from rules.mma.state import MAIN_PHASE, GameState
from rules.tournament import Player, Result, TournamentState, new_tournament, record_result, standings, with_next_round
from storage.tournament import TOURNAMENT_STATE

# The worked example's field: name -> rating at entry.
FIELD = {
    "Ana": 1800,
    "Ben": 1750,
    "Cleo": 1700,
    "Dev": 1650,
    "Eli": 1600,
    "Fay": 1550,
    "Gus": 1500,
    "Hana": 1450,
}
PLAYERS = {name: User(1300000000000000101 + n, name) for n, name in enumerate(FIELD)}
BY_ID = {user.id: name for name, user in PLAYERS.items()}

# The worked example's rounds: (challenger, opponent, result), board by board.
ROUNDS = [
    [("Ana", "Eli", "1-0"), ("Fay", "Ben", "1-0"), ("Cleo", "Gus", "1/2-1/2"), ("Hana", "Dev", "0-1")],
    [("Dev", "Ana", "1-0"), ("Gus", "Fay", "1-0"), ("Ben", "Cleo", "1-0"), ("Eli", "Hana", "0-1")],
    [("Dev", "Gus", "0-1"), ("Fay", "Ana", "1-0"), ("Hana", "Ben", "0-1"), ("Cleo", "Eli", "1-0")],
]
BOARD_CALL = re.compile(r"🏆 Tournament #(\d+), round (\d+), board (\d+): <@(\d+)> \(moves first\) vs <@(\d+)>")


async def seed_ratings(h) -> None:
    """The worked example's ratings, as if each player had earned them here."""
    async with h.bot.db.transaction() as conn:
        for name, rating in FIELD.items():
            await conn.execute(
                "INSERT INTO mma_ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                (GUILD_ID, PLAYERS[name].id, float(rating), 90.0, 30, "2026-11-01T00:00:00.000Z"),
            )


def boards_of(h, round_number: int) -> dict[int, Message]:
    """The round's board messages, by board."""
    found: dict[int, Message] = {}
    for message in h.messages:
        call = BOARD_CALL.match(message.content)
        if call and int(call[2]) == round_number:
            found[int(call[3])] = message
    return found


def seated(message: Message) -> tuple[str, str]:
    call = BOARD_CALL.match(message.content)
    assert call is not None
    return BY_ID[int(call[4])], BY_ID[int(call[5])]


async def state_of(h, match_id: int) -> GameState:
    row = await h.bot.db.fetch_one("SELECT state_json FROM mma_matches WHERE id = ?", (match_id,))
    return GameState.from_dict(json.loads(row["state_json"]))


async def match_id_of(h, board: Message) -> int:
    return (await h.bot.db.fetch_one("SELECT id FROM mma_matches WHERE message_id = ?", (board.id,)))["id"]


async def play(h, board: Message, challenger: str, opponent: str, result: str) -> None:
    """Play a board to `result`: the challenger makes a move (so it is a game, not a forfeit), then the loser
    concedes; a draw goes to the judges with equal health after the last turn."""
    first, second = PLAYERS[challenger], PLAYERS[opponent]
    await h.click(board, "Skip draw", first)
    if result == "1/2-1/2":
        match_id = await match_id_of(h, board)
        state = await state_of(h, match_id)
        assert state.phase == MAIN_PHASE and state.current == 0
        for player in state.players:
            player.turns, player.health = MAX_TURNS, 20
        async with h.bot.db.transaction() as conn:
            await conn.execute(
                "UPDATE mma_matches SET state_json = ? WHERE id = ?", (json.dumps(state.to_dict()), match_id)
            )
        await h.click(board, "End turn", first)
        return
    loser = second if result == "1-0" else first
    (confirm,) = await h.click(board, "Concede", loser)
    await h.click(confirm, "Yes, concede", loser)


async def forfeit_idle(h, board: Message, challenger: str, opponent: str) -> None:
    """The challenger never moves; after 15 minutes the opponent claims the win: a forfeit."""
    cog = h.bot.get_cog("MMA")
    cog.clock = lambda: time.time() + 16 * 60
    try:
        await h.click(board, "Claim win (opponent idle)", PLAYERS[opponent])
    finally:
        cog.clock = time.time


def mentioned(request) -> list[int]:
    return sorted(int(u) for u in (request.payload.get("allowed_mentions") or {}).get("users", []))


async def test_an_eight_player_swiss_tournament_runs_from_sign_up_to_podium(harness):
    h = harness
    await seed_ratings(h)
    (signup,) = await h.run("mma tournament create", h.gm)
    assert signup.embed.title == "🏆 MMA Warriors Swiss tournament #1"
    assert signup.field("Players (0)") == "Nobody yet."
    assert [c["label"] for c in signup.components] == ["Join", "Leave"]

    # Sign-up: everyone joins; a second click and a leave by someone not in change nothing.
    for user in PLAYERS.values():
        await h.click(signup, "Join", user)
    (again,) = await h.click(signup, "Join", PLAYERS["Ana"])
    assert again.ephemeral and again.content == "❌ You are already in tournament #1; **Leave** takes your name off."
    (not_in,) = await h.click(signup, "Leave", h.alice)
    assert not_in.content == "❌ You are not signed up for tournament #1; **Join** puts your name down."
    assert signup.field("Players (8)").splitlines()[0] == f"1. {PLAYERS['Ana'].mention} · 1800"
    assert signup.field("Rounds").startswith("3 (set by the field")

    # Only a game master starts it.
    (refused,) = await h.run("mma tournament start", PLAYERS["Ana"])
    assert refused.ephemeral and refused.content.startswith("❌ Only a game master can do that")

    before = len(h.fake.requests)
    await h.run("mma tournament start", h.gm)
    posted = [r for r in h.fake.requests[before:] if r.method == "POST" and r.path == "/channels/{channel_id}/messages"]
    assert len(posted) == 4  # one message per board, each pinging exactly its two players
    for request in posted:
        call = BOARD_CALL.match(request.payload["content"])
        assert call is not None and mentioned(request) == sorted([int(call[4]), int(call[5])])
    assert signup.components[0]["label"] == "Crosstable"  # the sign-up became the live standings

    for number, expected in enumerate(ROUNDS, start=1):
        boards = boards_of(h, number)
        assert [seated(boards[b]) for b in sorted(boards)] == [(c, o) for c, o, _ in expected], f"round {number}"
        for board, (challenger, opponent, result) in enumerate(expected, start=1):
            if number == 1 and board == 3:
                h = await h.restart()  # mid-round: the round goes on after a restart
                signup = h.fake.messages[signup.id]
            if number == 3 and board == 1:
                await forfeit_idle(h, boards[board], challenger, opponent)  # Dev never moves: Gus wins by forfeit
            else:
                await play(h, boards[board], challenger, opponent, result)
        if number < 3:
            assert f"Round {number + 1} of 3" in signup.description

    table = signup.field("Standings").splitlines()
    assert table == [
        f"1. {PLAYERS['Gus'].mention} **2½** · Bh 5½ · SB 4.75 · 1500",
        f"2. {PLAYERS['Fay'].mention} **2** · Bh 5½ · SB 3 · 1550",
        f"3. {PLAYERS['Ben'].mention} **2** · Bh 4½ · SB 2.5 · 1750",
        f"4. {PLAYERS['Dev'].mention} **2** · Bh 4½ · SB 2 · 1650",
        f"5. {PLAYERS['Cleo'].mention} **1½** · Bh 4½ · SB 1.25 · 1700",
        f"6. {PLAYERS['Ana'].mention} **1** · Bh 4 · SB 0 · 1800",
        f"7. {PLAYERS['Hana'].mention} **1** · Bh 4 · SB 0 · 1450",
        f"8. {PLAYERS['Eli'].mention} **0** · Bh 3½ · SB 0 · 1600",
    ]
    assert signup.description == "🏁 Final standings after 3 rounds."
    (podium,) = [m for m in h.messages if m.embeds and (m.embed.title or "").endswith(": the podium")]
    assert podium.description.splitlines() == [
        f"🥇 {PLAYERS['Gus'].mention}: 2½ points",
        f"🥈 {PLAYERS['Fay'].mention}: 2 points",
        f"🥉 {PLAYERS['Ben'].mention}: 2 points",
    ]
    changes = dict(line.split(": ", 1) for line in podium.field("Rating change over the tournament").splitlines())
    # Every player played rated games; the forfeit (Dev–Gus) was not rated: Dev's last game is round 2's win.
    assert all("→" in change for change in changes.values())
    dev_changes = await h.bot.db.fetch_all(
        "SELECT match_id FROM mma_rating_changes WHERE user_id = ? ORDER BY match_id", (PLAYERS["Dev"].id,)
    )
    assert len(dev_changes) == 2

    # Finished: listed in the history; its crosstable can be shown again.
    (history,) = await h.run("mma tournament history", h.alice)
    assert history.description.startswith("**#1** ")
    assert f"8 players, 3 rounds; won by {PLAYERS['Gus'].mention}" in history.description
    (table_again,) = await h.run("mma tournament crosstable", h.alice, tournament_number=1)
    assert list(table_again.files) == ["tournament-1.png"] and not table_again.ephemeral
    assert table_again.files["tournament-1.png"].startswith(b"\x89PNG")
    assert table_again.embed.image.url == "attachment://tournament-1.png"
    assert table_again.field("Standings") == signup.field("Standings")

    # Nothing the tournament posted pinged anyone but the players a board called, or the player a match waited
    # for: every message's allowed mentions are the members its own words name, and the standings, the podium
    # and the replies name no one it may ping.
    for request in h.fake.requests:
        if request.method == "POST" and request.path == "/channels/{channel_id}/messages":
            named = {int(user) for user in re.findall(r"<@(\d+)>", request.payload.get("content") or "")}
            assert set(mentioned(request)) <= named and len(named) <= 2
            assert not (request.payload.get("allowed_mentions") or {}).get("parse")


async def test_a_round_stored_but_not_posted_is_posted_when_the_bot_comes_back(harness):
    h = harness
    await seed_ratings(h)
    signup = await joined(h, ["Ana", "Ben", "Cleo", "Dev"])
    h.fake.overwrite(CHANNEL_ID, "bot", deny=discord.Permissions(send_messages=True))
    (refused,) = await h.run("mma tournament start", h.gm)
    assert refused.ephemeral and refused.content == (
        "❌ Tournament #1 did not start: the bot posts each round's boards here itself and needs Send Messages in "
        "this channel. Give it that, then start again."
    )
    h.fake.channel(CHANNEL_ID).overwrites.clear()
    await h.run("mma tournament start", h.gm)
    boards = boards_of(h, 1)
    # Send Messages taken away mid-round: round 2 is paired and stored as round 1 ends, but its boards cannot be
    # posted (as if the bot had been killed between the two); they are posted when the bot comes back.
    h.fake.overwrite(CHANNEL_ID, "bot", deny=discord.Permissions(send_messages=True))
    for board in sorted(boards):
        challenger, opponent = seated(boards[board])
        await play(h, boards[board], challenger, opponent, "1-0")
    assert boards_of(h, 2) == {} and "Round 2 of 3" in signup.description
    h.fake.channel(CHANNEL_ID).overwrites.clear()
    h = await h.restart()
    assert sorted(boards_of(h, 2)) == [1, 2]
    rows = await h.bot.db.fetch_all(
        "SELECT m.message_id FROM mma_matches m JOIN mma_tournament_games g ON g.match_id = m.id WHERE g.round = 2"
    )
    assert sorted(row["message_id"] for row in rows) == sorted(m.id for m in boards_of(h, 2).values())


@pytest.mark.parametrize("user", [PLAYERS["Ana"]])
async def test_a_second_tournament_in_the_channel_is_refused(harness, user):
    h = harness
    await h.run("mma tournament create", h.gm)
    (refused,) = await h.run("mma tournament create", h.gm)
    assert refused.ephemeral
    assert refused.content.startswith(
        "❌ This channel already has tournament #1 signing up: one at a time per channel."
    )
    (not_gm,) = await h.run("mma tournament cancel", user)
    assert not_gm.content.startswith("❌ Only a game master can do that")
    (cancelled,) = await h.run("mma tournament cancel", h.gm)
    assert cancelled.content.startswith("❌ Tournament #1 was cancelled by")
    assert len(await h.run("mma tournament create", h.gm)) == 1


async def joined(h, names: list[str]) -> Message:
    """A tournament opened by the GM with these players signed up; its sign-up message."""
    (signup,) = await h.run("mma tournament create", h.gm)
    for name in names:
        await h.click(signup, "Join", PLAYERS[name])
    return signup


async def test_byes_withdrawals_a_member_who_left_and_a_removed_no_show(harness):
    h = harness
    await seed_ratings(h)
    signup = await joined(h, ["Ana", "Ben", "Cleo", "Dev", "Eli"])
    await h.run("mma tournament start", h.gm)
    # Five players: the lowest-ranked, Eli, sits out round 1 with the bye.
    assert signup.field("Round 1").splitlines()[-1] == f"Bye (one point): {PLAYERS['Eli'].mention}"
    boards = boards_of(h, 1)
    assert [seated(boards[b]) for b in sorted(boards)] == [("Ana", "Cleo"), ("Dev", "Ben")]

    # Ana withdraws before any move: her game is a forfeit, not rated, and she is not paired again.
    (said,) = await h.run("mma tournament withdraw", PLAYERS["Ana"])
    assert said.content == (
        f"{PLAYERS['Ana'].mention} has withdrawn from tournament #1: their points stand and they are not paired again."
    )
    assert signup.field("Round 1").splitlines()[0] == (
        f"1. {PLAYERS['Ana'].mention} vs {PLAYERS['Cleo'].mention}: −/+ (forfeit)"
    )
    assert f"{PLAYERS['Ana'].mention} **0** · Bh 1 · SB 0 · 1800 · withdrawn" in signup.field("Standings")
    assert await h.bot.db.fetch_all("SELECT * FROM mma_rating_changes") == []
    assert boards[1].description.endswith("🏳️ Not rated: a tournament board that ends before any move is a forfeit.")
    (again,) = await h.run("mma tournament withdraw", PLAYERS["Ana"])
    assert again.content == f"❌ {PLAYERS['Ana'].mention} has already withdrawn from tournament #1."

    # Ben leaves the server before the round ends: he is withdrawn before round 2 is paired.
    h.fake.departed.add((GUILD_ID, PLAYERS["Ben"].id))
    await play(h, boards[2], "Dev", "Ben", "1-0")
    assert "Round 2 of 3" in signup.description
    assert f"{PLAYERS['Ben'].mention} **0** · " in signup.field("Standings")
    assert signup.field("Standings").count("withdrawn") == 2
    boards = boards_of(h, 2)
    # Cleo, Dev and Eli are on one point; Eli has had the bye, so the lowest-ranked without one, Dev, sits out.
    assert [seated(boards[b]) for b in sorted(boards)] == [("Cleo", "Eli")]
    assert signup.field("Round 2").splitlines()[-1] == f"Bye (one point): {PLAYERS['Dev'].mention}"

    # A game master removes a no-show: Cleo, who was to move first and never did, forfeits.
    (not_gm,) = await h.run("mma tournament remove", PLAYERS["Eli"], member=PLAYERS["Cleo"])
    assert not_gm.content.startswith("❌ Only a game master can do that")
    (removed,) = [
        m
        for m in await h.run("mma tournament remove", h.gm, member=PLAYERS["Cleo"])
        if m.ephemeral is False and "withdrawn" in m.content
    ]
    assert removed.content.endswith(f", removed by {h.gm.mention}: their points stand and they are not paired again.")
    assert boards[1].description.count("Conceded") == 1  # the board shows the match ended
    # Two players are left, Dev and Eli, who have not met: round 3 pairs them, and a move makes it a game.
    (last,) = boards_of(h, 3).values()
    challenger, opponent = seated(last)
    assert {challenger, opponent} == {"Dev", "Eli"}
    await play(h, last, challenger, opponent, "1-0")
    assert signup.description == "🏁 Final standings after 3 rounds."
    (podium,) = [m for m in h.messages if m.embeds and (m.embed.title or "").endswith(": the podium")]
    assert podium.description.splitlines()[0] == f"🥇 {PLAYERS[challenger].mention}: 3 points"
    changes = podium.field("Rating change over the tournament")
    assert f"{PLAYERS['Ana'].mention}: not rated (byes and forfeits only)" in changes
    assert f"{PLAYERS['Cleo'].mention}: not rated (byes and forfeits only)" in changes
    rated = await h.bot.db.fetch_all("SELECT DISTINCT match_id FROM mma_rating_changes")
    assert len(rated) == 2  # Dev–Ben and the last round; the two forfeits were not rated

    # The crosstable button answers privately with the picture.
    (table,) = await h.click(signup, "Crosstable", h.alice)
    assert table.ephemeral and list(table.files) == ["tournament-1.png"]


async def back_after_its_start_time(h, names: list[str]) -> tuple:
    """A tournament set to start in 30 minutes with these players; the bot was down when the time came and is
    back: (the harness of the bot now, the sign-up message)."""
    (signup,) = await h.run("mma tournament create", h.gm, starts_in=30)
    assert "on its own <t:" in signup.description
    for name in names:
        await h.click(signup, "Join", PLAYERS[name])
    async with h.bot.db.transaction() as conn:
        await conn.execute("UPDATE mma_tournaments SET starts_at = '2026-01-01T00:00:00.000Z'")
    h = await h.restart()
    await asyncio.sleep(0.05)  # the start time is past: its timer fires at once
    await h.settle()
    return h, signup


async def test_a_tournament_starts_at_its_time_even_across_a_restart(harness):
    # Short of players at its time: it says so, and waits for its game master.
    h, signup = await back_after_its_start_time(harness, ["Ana", "Ben", "Cleo"])
    (said,) = [m for m in h.messages if m.content.startswith("🏆 Tournament #1 could not start at its time")]
    assert "needs at least 4 players to start; 3 joined." in said.content
    assert (await h.bot.db.fetch_one("SELECT starts_at FROM mma_tournaments"))["starts_at"] is None
    # A fourth player, and the game master starts it.
    await h.click(h.fake.messages[signup.id], "Join", PLAYERS["Dev"])
    await h.run("mma tournament start", h.gm)
    assert len(boards_of(h, 1)) == 2


async def test_sign_up_refusals(harness):
    h = harness
    (signup,) = await h.run("mma tournament create", h.gm, rounds=5)
    (early,) = await h.run("mma tournament start", h.gm)
    assert early.content == "❌ Tournament #1 needs at least 4 players to start; 0 joined."
    for name in ["Ana", "Ben", "Cleo", "Dev"]:
        await h.click(signup, "Join", PLAYERS[name])
    (too_many,) = await h.run("mma tournament start", h.gm)
    assert too_many.content == "❌ 4 players can play 1 to 3 rounds without a rematch; 5 asked for"
    (elsewhere,) = await h.click(signup, "Join", PLAYERS["Eli"], channel_id=CHANNEL_ID + 1)
    assert elsewhere.content == "❌ This tournament belongs to another channel, so nothing was changed."
    before_cancel = copy.deepcopy(signup)  # as a member's client still shows it
    await h.run("mma tournament cancel", h.gm)
    (late,) = await h.click(before_cancel, "Join", PLAYERS["Eli"])
    assert late.content == "❌ Sign-up is closed: tournament #1 was cancelled, so nothing was changed."
    assert signup.description == "❌ This tournament was cancelled." and signup.components == []


def standings_messages(h, number: int = 1) -> list[Message]:
    """The live standings messages of tournament `number` posted so far."""
    return [
        m
        for m in h.messages
        if m.embeds and m.embed.title == f"🏆 MMA Warriors Swiss tournament #{number}" and m.field("Standings")
    ]


async def stored_tournament(h) -> dict:
    return await h.bot.db.fetch_one("SELECT status, ended_at, message_id, podium_message_id FROM mma_tournaments")


async def test_history_and_crosstable_when_there_is_no_table(harness):
    h = harness
    (history,) = await h.run("mma tournament history", h.alice)
    assert history.ephemeral and history.embed.title == "🏆 Finished MMA Warriors tournaments here"
    assert history.description == (
        "No tournament has finished here yet; a game master opens one with `/mma tournament create`."
    )
    (nothing,) = await h.run("mma tournament crosstable", h.alice)
    assert nothing.ephemeral and nothing.content == (
        "❌ No tournament has been played here yet; a game master opens one with `/mma tournament create`."
    )
    (unknown,) = await h.run("mma tournament crosstable", h.alice, tournament_number=7)
    assert unknown.content == "❌ This server has no tournament #7; `/mma tournament history` lists them."
    # Tournament #1 is another server's: this one has no #1.
    await h.run("mma tournament create", h.gm, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID)
    (elsewhere,) = await h.run("mma tournament crosstable", h.alice, tournament_number=1)
    assert elsewhere.content == "❌ This server has no tournament #1; `/mma tournament history` lists them."
    (not_yet,) = await h.run(
        "mma tournament crosstable", h.alice, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID
    )
    assert not_yet.content == "❌ Tournament #1 has not started: there is no table yet."
    await joined(h, ["Ana", "Ben"])  # tournament #2, signing up here
    (here,) = await h.run("mma tournament crosstable", h.alice)
    assert here.content == "❌ Tournament #2 has not started: there is no table yet."
    (by_number,) = await h.run("mma tournament crosstable", h.alice, tournament_number=2)
    assert by_number.content == here.content


def finished_state() -> str:
    """A four-player, two-round tournament played to its end, Ana winning both her games, as stored."""
    players = [Player(id=PLAYERS[n].id, name=n, rating=float(FIELD[n])) for n in ["Ana", "Ben", "Cleo", "Dev"]]
    state = new_tournament(players, 2)
    for number in (1, 2):
        state = with_next_round(state)
        for board, pairing in enumerate(state.rounds[-1].pairings, start=1):
            won = Result.OPPONENT_WINS if pairing.opponent == PLAYERS["Ana"].id else Result.CHALLENGER_WINS
            state = record_result(state, number, board, won)
    return TOURNAMENT_STATE.to_text(state)


async def test_history_lists_the_newest_ten_of_more_and_the_crosstable_defaults_to_the_latest(harness):
    h = harness
    state_json = finished_state()
    async with h.bot.db.transaction() as conn:
        for day in range(1, 12):  # tournaments #1 to #11 finished here, one a day
            await conn.execute(
                "INSERT INTO mma_tournaments (guild_id, channel_id, created_by, status, state_json, created_at, "
                "ended_at) VALUES (?, ?, ?, 'finished', ?, ?, ?)",
                (
                    GUILD_ID,
                    CHANNEL_ID + day,
                    h.gm.id,
                    state_json,
                    "2026-11-01T00:00:00.000Z",
                    f"2026-11-{day:02}T20:00:00.000Z",
                ),
            )
        # Neither a cancelled tournament nor another server's is listed.
        await conn.execute(
            "INSERT INTO mma_tournaments (guild_id, channel_id, created_by, status, created_at, ended_at) "
            "VALUES (?, ?, ?, 'cancelled', ?, ?)",
            (GUILD_ID, CHANNEL_ID, h.gm.id, "2026-11-20T00:00:00.000Z", "2026-11-20T20:00:00.000Z"),
        )
        await conn.execute(
            "INSERT INTO mma_tournaments (guild_id, channel_id, created_by, status, state_json, created_at, "
            "ended_at) VALUES (?, ?, ?, 'finished', ?, ?, ?)",
            (
                OTHER_GUILD_ID,
                OTHER_GUILD_CHANNEL_ID,
                h.gm.id,
                state_json,
                "2026-11-01T00:00:00.000Z",
                "2026-11-21T20:00:00.000Z",
            ),
        )
    (history,) = await h.run("mma tournament history", h.alice)
    lines = history.description.splitlines()
    assert [line.split()[0] for line in lines] == [f"**#{n}**" for n in range(11, 1, -1)]  # newest first
    assert all(line.endswith(f": 4 players, 2 rounds; won by {PLAYERS['Ana'].mention}") for line in lines)
    assert history.embed.footer.text == "the newest 10 of 11 · /mma tournament crosstable shows one's table again"
    # No tournament open in this channel: the crosstable is the server's latest finished one's, shown publicly.
    (table,) = await h.run("mma tournament crosstable", h.alice)
    assert not table.ephemeral and list(table.files) == ["tournament-11.png"]
    assert table.embed.title == "🏆 MMA Warriors Swiss tournament #11"
    assert table.field("Standings").splitlines()[0].startswith(f"1. {PLAYERS['Ana'].mention} **2** · ")


async def test_withdraw_and_remove_during_sign_up_and_their_refusals(harness):
    h = harness
    (none,) = await h.run("mma tournament withdraw", PLAYERS["Ana"])
    assert none.ephemeral and none.content == (
        "❌ No tournament is open in this channel; a game master opens one with `/mma tournament create`."
    )
    (none,) = await h.run("mma tournament remove", h.gm, member=PLAYERS["Ana"])
    assert none.content.startswith("❌ No tournament is open in this channel")
    signup = await joined(h, ["Ana", "Ben", "Cleo", "Dev", "Eli"])
    (outsider,) = await h.run("mma tournament withdraw", PLAYERS["Fay"])
    assert outsider.ephemeral and outsider.content == f"❌ {PLAYERS['Fay'].mention} is not signed up for tournament #1."
    (outsider,) = await h.run("mma tournament remove", h.gm, member=PLAYERS["Fay"])
    assert outsider.content == f"❌ {PLAYERS['Fay'].mention} is not signed up for tournament #1."

    # Before the start, a withdrawal takes the name off the list, and the sign-up message is redrawn.
    (said,) = await h.run("mma tournament withdraw", PLAYERS["Ana"])
    assert not said.ephemeral and said.content == f"{PLAYERS['Ana'].mention} is off tournament #1's list."
    (said,) = await h.run("mma tournament remove", h.gm, member=PLAYERS["Cleo"])
    assert said.content == f"{PLAYERS['Cleo'].mention} is off tournament #1's list."
    assert [line.split(" · ")[0] for line in signup.field("Players (3)").splitlines()] == [
        f"{n}. {PLAYERS[name].mention}" for n, name in enumerate(["Ben", "Dev", "Eli"], start=1)
    ]
    rows = await h.bot.db.fetch_all("SELECT user_id FROM mma_tournament_entrants ORDER BY joined_at, user_id")
    assert [row["user_id"] for row in rows] == [PLAYERS[n].id for n in ["Ben", "Dev", "Eli"]]

    # Once it runs, a second start is refused, and so is someone who is not playing.
    await h.click(signup, "Join", PLAYERS["Fay"])
    before_start = copy.deepcopy(signup)
    await h.run("mma tournament start", h.gm)
    (again,) = await h.run("mma tournament start", h.gm)
    assert again.ephemeral and again.content == "❌ Tournament #1 is already running."
    (outsider,) = await h.run("mma tournament remove", h.gm, member=PLAYERS["Ana"])
    assert outsider.content == f"❌ {PLAYERS['Ana'].mention} is not playing in tournament #1."
    (late,) = await h.click(before_start, "Leave", PLAYERS["Ben"])
    assert late.content == "❌ Sign-up is closed: tournament #1 has started, so nothing was changed."
    assert "Ben" in {BY_ID[p] for p in (await tournament_players(h))}


async def tournament_players(h) -> list[int]:
    row = await h.bot.db.fetch_one("SELECT id, state_json FROM mma_tournaments")
    return [p.id for p in TOURNAMENT_STATE.from_text(row["state_json"], row["id"]).players if not p.withdrawn]


async def test_join_is_refused_to_a_full_field_to_a_bot_and_on_a_tournament_that_is_gone(harness):
    h = harness
    (signup,) = await h.run("mma tournament create", h.gm)
    async with h.bot.db.transaction() as conn:
        for n in range(64):  # MAX_PLAYERS signed up
            await conn.execute(
                "INSERT INTO mma_tournament_entrants (tournament_id, user_id, name, joined_at) VALUES (1, ?, ?, ?)",
                (1400000000000000000 + n, f"Player {n}", "2026-11-01T00:00:00.000Z"),
            )
    (full,) = await h.click(signup, "Join", PLAYERS["Ana"])
    assert full.ephemeral and full.content == "❌ Tournament #1 is full: 64 players at most."
    robot = User(1300000000000000999, "Robo", bot=True)
    async with h.bot.db.transaction() as conn:
        await conn.execute("DELETE FROM mma_tournament_entrants WHERE user_id = ?", (1400000000000000000,))
    (no_bots,) = await h.click(signup, "Join", robot)
    assert no_bots.ephemeral and no_bots.content == "❌ Bots cannot play in tournaments."
    rows = await h.bot.db.fetch_all(
        "SELECT user_id FROM mma_tournament_entrants WHERE user_id IN (?, ?)", (PLAYERS["Ana"].id, robot.id)
    )
    assert rows == []
    async with h.bot.db.transaction() as conn:
        await conn.execute("DELETE FROM mma_tournaments")
    (gone,) = await h.click(signup, "Join", PLAYERS["Ana"])
    assert gone.ephemeral and gone.content == "❌ This tournament no longer exists."


async def test_a_tournament_with_no_pairing_left_without_a_rematch_ends_early(harness):
    h = harness
    await seed_ratings(h)
    signup = await joined(h, ["Ana", "Ben", "Cleo", "Dev"])
    await h.run("mma tournament start", h.gm)
    first = {seated(board) for board in boards_of(h, 1).values()}
    for board in boards_of(h, 1).values():
        await play(h, board, *seated(board), "1-0")
    (one, two) = (seated(board) for _, board in sorted(boards_of(h, 2).items()))
    # Board 1's second player withdraws, and of board 2 the one who has not met board 1's first player: the two
    # left met in round 1, so round 3 cannot be paired without a rematch.
    met = next(b for a, b in [*first, *((b, a) for a, b in first)] if a == one[0])
    leaving = [one[1], next(name for name in two if name != met)]
    for name in leaving:
        said = [m for m in await h.run("mma tournament withdraw", PLAYERS[name]) if not m.embeds]
        assert [m.content for m in said] == [
            f"{PLAYERS[name].mention} has withdrawn from tournament #1: their points stand and they are not paired "
            "again."
        ]
    assert boards_of(h, 3) == {}
    assert signup.description == (
        "🏁 Final standings after 2 rounds. No pairing without a rematch was left for the rounds after."
    )
    assert [line.split(" · ")[0] for line in signup.field("Round 2").splitlines()] == [
        f"1. {PLAYERS[one[0]].mention} vs {PLAYERS[one[1]].mention}: +/− (forfeit)",
        f"2. {PLAYERS[two[0]].mention} vs {PLAYERS[two[1]].mention}: "
        + ("−/+ (forfeit)" if two[0] in leaving else "+/− (forfeit)"),
    ]
    stored = await stored_tournament(h)
    assert stored["status"] == "finished" and stored["ended_at"] is not None
    (podium,) = [m for m in h.messages if m.embeds and (m.embed.title or "").endswith(": the podium")]
    assert stored["podium_message_id"] == podium.id
    (history,) = await h.run("mma tournament history", h.alice)
    assert "4 players, 2 rounds; won by" in history.description


async def test_the_standings_deleted_by_someone_are_posted_again_at_the_next_result(harness):
    h = harness
    signup = await joined(h, ["Ana", "Ben", "Cleo", "Dev"])
    await h.run("mma tournament start", h.gm)
    boards = boards_of(h, 1)
    del h.fake.messages[signup.id]  # someone deleted the standings
    await play(h, boards[1], *seated(boards[1]), "1-0")
    (again,) = standings_messages(h)
    assert again.id != signup.id
    assert again.description.startswith("Round 1 of 3: 1 of 2 boards finished.")
    assert [c["label"] for c in again.components] == ["Crosstable"]
    assert (await stored_tournament(h))["message_id"] == again.id
    await play(h, boards[2], *seated(boards[2]), "1-0")
    assert standings_messages(h) == [again]  # redrawn in place from then on
    assert again.description.startswith("Round 2 of 3: 0 of 2 boards finished.")


async def test_a_running_tournament_cancelled_leaves_its_matches_live_and_rated(harness):
    h = harness
    signup = await joined(h, ["Ana", "Ben", "Cleo", "Dev"])
    await h.run("mma tournament start", h.gm)
    boards = boards_of(h, 1)
    (said,) = await h.run("mma tournament cancel", h.gm)
    assert said.content == (
        f"❌ Tournament #1 was cancelled by {h.gm.mention}. Matches going on stay ordinary rated matches."
    )
    assert signup.description == "❌ Cancelled by its game master; the games already played keep their ratings."
    assert (await stored_tournament(h))["status"] == "cancelled"
    match_id, seats = await match_id_of(h, boards[1]), [seated(boards[b]) for b in (1, 2)]
    await play(h, boards[1], *seats[0], "1-0")
    row = await h.bot.db.fetch_one("SELECT status FROM mma_matches WHERE id = ?", (match_id,))
    assert row["status"] == "over"
    rated = await h.bot.db.fetch_all("SELECT user_id FROM mma_rating_changes WHERE match_id = ?", (match_id,))
    assert sorted(r["user_id"] for r in rated) == sorted(PLAYERS[n].id for n in seats[0])
    # The cancelled tournament records no result and pairs nothing more.
    await play(h, boards[2], *seats[1], "1-0")
    assert boards_of(h, 2) == {}
    assert all(": playing, match #" in line for line in signup.field("Round 1").splitlines())
    assert not [m for m in h.messages if m.embeds and (m.embed.title or "").endswith(": the podium")]


async def test_members_who_left_the_server_before_the_start_are_dropped(harness):
    h = harness
    signup = await joined(h, ["Ana", "Ben", "Cleo", "Dev"])
    h.fake.departed.add((GUILD_ID, PLAYERS["Ben"].id))
    (refused,) = await h.run("mma tournament start", h.gm)
    assert refused.content == (
        "❌ Tournament #1 needs at least 4 players to start; 3 joined (1 of those who joined have left the server)."
    )
    assert (await stored_tournament(h))["status"] == "signup"
    await h.click(signup, "Join", PLAYERS["Eli"])
    (started,) = [m for m in await h.run("mma tournament start", h.gm) if m.content.startswith("🏆 Tournament #1 has")]
    assert started.content == (
        "🏆 Tournament #1 has started: 4 players, 3 rounds. Round 1's boards are posted below; each pings its two players."
    )
    assert sorted(await tournament_players(h)) == sorted(PLAYERS[n].id for n in ["Ana", "Cleo", "Dev", "Eli"])
    assert PLAYERS["Ben"].mention not in signup.field("Standings")


async def test_the_players_are_asked_of_discord_all_at_once(harness):
    """A round's check for players who left asks Discord about all of them together, not one round trip after
    another (a field of 64 took 64); the answers still drop exactly those who left."""
    h = harness
    names = list(FIELD)
    signup = await joined(h, names)
    h.fake.departed.add((GUILD_ID, PLAYERS["Ben"].id))
    asked: list[int] = []
    in_flight = most_in_flight = 0
    everyone_asked = asyncio.Event()
    serve = h.fake.http_request

    async def request(route, *args, **kwargs):
        nonlocal in_flight, most_in_flight
        if route.path != "/guilds/{guild_id}/members/{user_id}":
            return await serve(route, *args, **kwargs)
        asked.append(int(route.user_id))
        in_flight += 1
        most_in_flight = max(most_in_flight, in_flight)
        try:
            # discord.py sends the first alone, to learn the route's rate limit from its answer; the others are
            # answered once all have come (or after 2 s each, as one after another they would)
            if len(asked) > 1:
                if len(asked) == len(names):
                    everyone_asked.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(everyone_asked.wait(), 2)
            return await serve(route, *args, **kwargs)
        finally:
            in_flight -= 1

    h.fake.http_request = request
    await h.run("mma tournament start", h.gm)
    assert sorted(asked) == sorted(PLAYERS[name].id for name in names)
    assert most_in_flight == len(names) - 1
    assert sorted(await tournament_players(h)) == sorted(PLAYERS[n].id for n in names if n != "Ben")
    assert PLAYERS["Ben"].mention not in signup.field("Standings")


async def test_a_tournament_starts_on_its_own_at_its_time(harness):
    h, _ = await back_after_its_start_time(harness, ["Ana", "Ben", "Cleo", "Dev"])
    (said,) = [m for m in h.messages if m.content.startswith("🏆 Tournament #1 has started")]
    assert said.content.startswith("🏆 Tournament #1 has started: 4 players, 3 rounds.")
    assert len(boards_of(h, 1)) == 2 and (await stored_tournament(h))["status"] == "running"


async def test_a_podium_discord_refused_is_posted_when_the_bot_comes_back(harness):
    h = harness
    signup = await joined(h, ["Ana", "Ben", "Cleo", "Dev"])
    await h.run("mma tournament start", h.gm)
    for number in (1, 2):
        for board in boards_of(h, number).values():
            await play(h, board, *seated(board), "1-0")
    h.fake.overwrite(CHANNEL_ID, "bot", deny=discord.Permissions(send_messages=True))
    for board in boards_of(h, 3).values():
        await play(h, board, *seated(board), "1-0")
    assert signup.description == "🏁 Final standings after 3 rounds."
    assert (await stored_tournament(h))["podium_message_id"] is None  # Discord refused it
    h.fake.channel(CHANNEL_ID).overwrites.clear()
    h = await h.restart()
    (podium,) = [m for m in h.messages if m.embeds and (m.embed.title or "").endswith(": the podium")]
    assert (await stored_tournament(h))["podium_message_id"] == podium.id


async def test_eight_players_one_withdrawing_in_round_two_forfeit_then_a_bye_and_never_a_rematch(harness):
    h = harness
    await seed_ratings(h)
    signup = await joined(h, list(FIELD))
    await h.run("mma tournament start", h.gm)
    for _, message in sorted(boards_of(h, 1).items()):
        await play(h, message, *seated(message), "1-0")
    # Ana withdraws as round 2 begins: her game there is a forfeit; seven are left, and one sits out round 3.
    await h.run("mma tournament withdraw", PLAYERS["Ana"])
    for number in (2, 3):
        for _, message in sorted(boards_of(h, number).items()):
            if "Ana" not in seated(message):
                await play(h, message, *seated(message), "0-1")
    row = await h.bot.db.fetch_one("SELECT state_json FROM mma_tournaments")
    state = TournamentState.model_validate_json(row["state_json"])
    met = [frozenset((p.challenger, p.opponent)) for r in state.rounds for p in r.pairings]
    assert len(met) == len(set(met)) == 4 + 4 + 3  # every round paired, nobody met twice
    assert PLAYERS["Ana"].id not in {p for pair in met[8:] for p in pair}  # withdrawn: never paired again
    assert [r.bye is None for r in state.rounds] == [True, True, False]
    assert signup.field("Round 3").splitlines()[-1] == f"Bye (one point): <@{state.rounds[2].bye}>"
    assert signup.description == "🏁 Final standings after 3 rounds."
    assert sum(row.points for row in standings(state)) == 11 + 1  # a point a game (the forfeit too) and the bye


async def test_the_crosstable_draws_each_name_as_written(harness, monkeypatch):
    """The standings are markdown and keep the names escaped; the picture is none, and draws them as written."""
    from cogs.mma.tournaments import tables as tournament_tables

    h = harness
    written = ["$_$ cash", "**山田**", "محمد_العربي", "🐉 <@&1>"]
    members = [User(PLAYERS[name].id, shown) for name, shown in zip(["Ana", "Ben", "Cleo", "Dev"], written)]
    (signup,) = await h.run("mma tournament create", h.gm)
    for member in members:
        await h.click(signup, "Join", member)
    await h.run("mma tournament start", h.gm)
    drawn: list[TournamentState] = []

    def crosstable_png(state: TournamentState, title: str) -> bytes:
        drawn.append(state)
        return b"\x89PNG"

    monkeypatch.setattr(tournament_tables, "crosstable_png", crosstable_png)
    (table,) = await h.run("mma tournament crosstable", h.alice)
    assert list(table.files) == ["tournament-1.png"]
    assert sorted(player.name for player in drawn[0].players) == sorted(written)
    stored = await h.bot.db.fetch_one("SELECT state_json FROM mma_tournaments WHERE id = 1")
    assert json.dumps(r"$\_$ cash")[1:-1] in stored["state_json"]  # kept escaped, as the embeds show names
