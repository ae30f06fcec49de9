"""/mma through the real command tree and views, with a real SQLite file."""

from __future__ import annotations

import asyncio
import copy
import json
import math
import sys
import time

import discord
import pytest

from offline_discord.fake_discord import EVERYONE_DEFAULT
from offline_discord.harness import CHANNEL_ID, GUILD_ID, OTHER_GUILD_CHANNEL_ID, OTHER_GUILD_ID, Message, User
from rules.mma.cards import CARDS, card_named
from rules.mma.engine import main_phase_playable, new_game
from rules.mma.state import EndReason, GameState
from storage.mma import MatchStatus
from storage.times import unix_time

CAROL = User(1200000000000000004, "Carol")


def strike_seed() -> int:
    """A deal whose first player holds a strike they can afford on turn 1."""
    for seed in range(1000):
        state, _ = new_game(seed)
        if any(CARDS[c].kind == "strike" and CARDS[c].cost <= 8 for c in state.players[0].hand):
            return seed
    raise AssertionError("no such seed")


@pytest.fixture
def h(harness):
    fix_deals(harness)
    return harness


def fix_deals(harness, seed: int | None = None) -> None:
    cog = harness.bot.get_cog("MMA")
    chosen = strike_seed() if seed is None else seed
    cog.new_seed = lambda: chosen


async def match_row(h, match_id: int | None = None):
    if match_id is None:
        return await h.bot.db.fetch_one("SELECT * FROM mma_matches ORDER BY id DESC LIMIT 1")
    return await h.bot.db.fetch_one("SELECT * FROM mma_matches WHERE id = ?", (match_id,))


async def saved_state(h, match_id: int | None = None) -> GameState:
    return GameState.from_dict(json.loads((await match_row(h, match_id))["state_json"]))


async def write_state(h, match_id: int, state: GameState) -> None:
    """Put a match into a chosen position (as if it had been played there)."""
    async with h.bot.db.transaction() as conn:
        await conn.execute(
            "UPDATE mma_matches SET state_json = ? WHERE id = ?", (json.dumps(state.to_dict()), match_id)
        )


def is_ping(message: Message) -> bool:
    """The short message that calls a member to their match (cog.call_next)."""
    return (
        not message.ephemeral and message.content.startswith("🥊 <@") and " in MMA Warriors match #" in message.content
    )


def not_pings(messages: list[Message]) -> list[Message]:
    return [m for m in messages if not is_ping(m)]


async def save_unshown(h, kind: str) -> None:
    """Save the first player's `kind` move through the repository alone, as a process that dies after the save and
    before it edits the board."""
    from rules.mma.engine import apply_in_place, replay_rng, simple_action

    cog = h.bot.get_cog("MMA")
    record = await cog.matches.repo.get((await match_row(h))["id"])
    state = record.game
    apply_in_place(state, simple_action(0, kind), replay_rng(state))
    await cog.matches.repo.save_moves(record, state, list(record.feed), [simple_action(0, kind)], cog.clock())


def snapshot(message: Message) -> Message:
    """The message as it looks now, kept even after the bot edits it."""
    return Message(message.id, message.channel_id, copy.deepcopy(message.data), ephemeral=message.ephemeral)


async def start_pvp(h) -> Message:
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    assert not_pings(await h.click(challenge, "Accept", h.bob)) == []
    return challenge


async def play_first_card(h, user: User, match: Message) -> tuple[Message, str]:
    """Open the hand, choose the first playable card and play it; returns the hand message and the card."""
    (hand,) = await h.click(match, "My hand", user)
    select = hand.component("Choose a card to play")
    value = select["options"][0]["value"]
    assert not_pings(await h.click(hand, "Choose a card to play", user, values=[value])) == []
    name = CARDS[int(value)].name
    assert hand.component(f"Play {name}")["disabled"] is False
    assert not_pings(await h.click(hand, f"Play {name}", user)) == []
    return hand, name


async def test_challenge_accept_and_a_few_turns_with_the_buttons(h):
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    assert not challenge.ephemeral and challenge.embed.title == "🥊 MMA Warriors challenge!"
    assert challenge.content == f"<@{h.alice.id}> challenges <@{h.bob.id}>"
    (refusal,) = await h.click(challenge, "Accept", CAROL)
    assert refusal.ephemeral and refusal.content == f"❌ Only {h.bob.mention} can answer this challenge."
    (refusal,) = await h.click(challenge, "Accept", h.alice)
    assert refusal.content == f"❌ Only {h.bob.mention} can answer this challenge."

    assert not_pings(await h.click(challenge, "Accept", h.bob)) == []  # the challenge message becomes the match
    match = challenge
    assert match.embed.title == "🥊 Alice vs Bob"
    assert f"▶ {h.alice.mention}, turn 1: **Draw** or **Skip draw**." in match.description
    assert "Health **100**/100 · ⚡ Energy **8**/16" in match.field("🔴 Alice")
    assert "Hand 4/10" in match.field("🔴 Alice")
    assert f"{h.alice.mention} sends in" in match.field("Last actions") and f"{h.bob.mention} sends in" in match.field(
        "Last actions"
    )
    assert [c["label"] for c in match.components] == [
        "My hand",
        "Draw",
        "Skip draw",
        "End turn",
        "Concede",
        "Claim win (opponent idle)",
    ]
    assert all(len(c["custom_id"]) <= 100 for c in match.components)
    before_draw = snapshot(match)

    # Bob may not act on Alice's turn.
    (refusal,) = await h.click(match, "Draw", h.bob)
    assert refusal.ephemeral and refusal.content == f"❌ It is not your turn: waiting for {h.alice.mention}."
    (refusal,) = await h.click(match, "Draw", CAROL)
    assert refusal.content == f"❌ You are not in this match: it is {h.alice.mention} against {h.bob.mention}."

    (drawn,) = await h.click(match, "Draw", h.alice)
    assert drawn.ephemeral and drawn.content.startswith("🃏 You drew **")
    assert f"{h.alice.mention} draws (69 left in deck)" in match.field("Last actions")
    assert "play cards from **My hand**, then **End turn**" in match.description
    assert match.component("Draw")["disabled"] is True

    # A click on the message as it was before the draw is stale: nothing changes, and the board is redrawn.
    version = (await match_row(h))["version"]
    (stale,) = await h.click(before_draw, "Skip draw", h.alice)
    assert stale.ephemeral and stale.content == (
        "⌛ These buttons were from an earlier moment of this match, so nothing was changed. The message now shows "
        "the match as it is: use its buttons."
    )
    assert (await match_row(h))["version"] == version
    assert match.component("Draw")["disabled"] is True and match.component("Draw")["custom_id"].endswith(
        f":{version}:draw"
    )

    hand, played = await play_first_card(h, h.alice, match)
    assert hand.ephemeral and hand.content.startswith(f"Played **{played}**.")
    assert f"**{played}** hits" in match.field("Last actions")
    state = await saved_state(h)
    assert state.players[1].stamina < state.players[1].max_stamina
    assert state.players[0].energy < 8

    assert not_pings(await h.click(match, "End turn", h.alice)) == []
    assert f"▶ {h.bob.mention}, turn 1" in match.description
    assert not_pings(await h.click(match, "Skip draw", h.bob)) == []
    assert f"{h.bob.mention} skips the draw" in match.field("Last actions")
    assert not_pings(await h.click(match, "End turn", h.bob)) == []
    assert f"▶ {h.alice.mention}, turn 2" in match.description
    assert "Energy **10**/16" in match.field("🔴 Alice")

    moves = await h.bot.db.fetch_all("SELECT seq, slot, action_json FROM mma_moves ORDER BY seq")
    assert [(m["slot"], json.loads(m["action_json"])["kind"]) for m in moves] == [
        (0, "draw"),
        (0, "play"),
        (0, "end_turn"),
        (1, "skip_draw"),
        (1, "end_turn"),
    ]
    assert [m["seq"] for m in moves] == list(range(5))


async def test_a_stale_hand_view_plays_nothing_and_shows_the_hand_as_it_is(h):
    match = await start_pvp(h)
    await h.click(match, "Skip draw", h.alice)
    (hand,) = await h.click(match, "My hand", h.alice)
    value = hand.component("Choose a card to play")["options"][0]["value"]
    await h.click(hand, "Choose a card to play", h.alice, values=[value])
    old_hand = snapshot(hand)
    await h.click(match, "End turn", h.alice)  # the hand view is behind the match now
    version = (await match_row(h))["version"]
    assert not_pings(await h.click(old_hand, f"Play {CARDS[int(value)].name}", h.alice)) == []
    assert old_hand.id == hand.id and hand.content.startswith("⌛ That hand was out of date, so nothing was played.")
    assert (await match_row(h))["version"] == version
    # choosing in a hand view the match has left behind shows the hand as it is, worded as a refreshed view is
    stale_choice = snapshot(old_hand)
    await h.click(stale_choice, "Choose a card to play", h.alice, values=[value])
    assert hand.content.startswith("🔄 The match moved on: this is your hand now.")


async def test_a_double_clicked_play_plays_once_and_the_hand_says_it_was_played(h):
    match = await start_pvp(h)
    await h.click(match, "Skip draw", h.alice)
    (hand,) = await h.click(match, "My hand", h.alice)
    value = hand.component("Choose a card to play")["options"][0]["value"]
    name = CARDS[int(value)].name
    await h.click(hand, "Choose a card to play", h.alice, values=[value])
    version = (await match_row(h))["version"]
    first, second = snapshot(hand), snapshot(hand)
    before = set(asyncio.all_tasks())
    await h.click(first, f"Play {name}", h.alice, wait=False)
    await h.click(second, f"Play {name}", h.alice, wait=False)
    await h.settle(before)
    assert (await match_row(h))["version"] == version + 1  # played once
    assert [a.kind for a in await h.bot.get_cog("MMA").matches.repo.moves((await match_row(h))["id"])] == [
        "skip_draw",
        "play",
    ]
    assert hand.content.startswith(f"Played **{name}**.\nYour move: ")
    # and a second click that comes after the first was answered says the same
    await h.click(second, f"Play {name}", h.alice)
    assert hand.content.startswith(f"Played **{name}**.\nYour move: ")
    assert (await match_row(h))["version"] == version + 1


async def test_two_clicks_at_once_apply_once(h):
    match = await start_pvp(h)
    await h.click(match, "Draw", h.alice, wait=False)
    await h.click(match, "Draw", h.alice, wait=False)
    await h.settle()
    moves = await h.bot.db.fetch_all("SELECT * FROM mma_moves")
    assert len(moves) == 1
    refusals = [m for m in h.messages if m.ephemeral and "so nothing was changed" in m.content]
    assert len(refusals) == 1  # the second Draw: stale once the first is saved (the board is redrawn with it)
    assert (await saved_state(h)).players[0].hand.__len__() == 5


async def test_restart_in_the_middle_of_a_match_and_the_match_goes_on(h):
    match = await start_pvp(h)
    await h.click(match, "Draw", h.alice)
    await play_first_card(h, h.alice, match)
    before = await saved_state(h)
    await h.restart()
    fix_deals(h)
    assert await saved_state(h) == before
    (hand,) = await h.click(match, "My hand", h.alice)  # the old message's buttons still work
    assert hand.ephemeral and "Alice's hand" in hand.embed.title
    assert not_pings(await h.click(match, "End turn", h.alice)) == []
    (drawn,) = await h.click(match, "Draw", h.bob)
    assert drawn.ephemeral and drawn.content.startswith("🃏 You drew")
    assert f"▶ {h.bob.mention}, turn 1: play cards" in match.description
    assert len(await h.bot.db.fetch_all("SELECT * FROM mma_moves")) == 4


async def test_knockout_replacement_is_chosen_from_the_hand(h):
    match = await start_pvp(h)
    await h.click(match, "Skip draw", h.alice)
    row = await match_row(h)
    state = await saved_state(h)
    # Bob's fighter is on its last legs and Bob holds two fighters; Alice has a Quick Jab.
    bob = state.players[1]
    bob.stamina = 1
    fighters = [n for n in ("Max Holloway", "Belal Muhammad", "Tom Aspinall") if card_named(n).id != bob.fighter][:2]
    for name in fighters:
        card = card_named(name).id
        for pile in (state.players[1].deck, state.players[1].discard):
            if card in pile:
                pile.remove(card)
        if card not in bob.hand and card != bob.fighter:
            bob.hand.append(card)
    jab = card_named("Quick Jab").id
    alice = state.players[0]
    if jab not in alice.hand:
        alice.deck.remove(jab)
        alice.hand.append(jab)
    await write_state(h, row["id"], state)
    (hand,) = await h.click(match, "My hand", h.alice)
    await h.click(hand, "Choose a card to play", h.alice, values=[str(jab)])
    await h.click(hand, "Play Quick Jab", h.alice)
    assert "**KO!**" in match.field("Last actions")
    assert f"💥 {h.bob.mention}: pick your next fighter from **My hand**." in match.description
    assert "Health **80**/100" in match.field("🔵 Bob")

    (refusal,) = await h.click(match, "End turn", h.alice)
    assert refusal.content == f"❌ It is not your turn: waiting for {h.bob.mention} to pick a fighter."
    (pick,) = await h.click(match, "My hand", h.bob)
    assert "choose who comes in" in pick.content
    options = pick.component("Choose your next fighter")["options"]
    names = {o["label"] for o in options}
    assert names == set(fighters)
    chosen = card_named(fighters[0])
    await h.click(pick, "Choose your next fighter", h.bob, values=[str(chosen.id)])
    await h.click(pick, f"Deploy {chosen.name}", h.bob)
    assert pick.content.startswith(f"Deployed **{chosen.name}**.")
    assert f"{h.bob.mention} sends in **{chosen.name}** ({chosen.stamina} stamina)" in match.field("Last actions")
    assert f"**{chosen.name}** · {chosen.style}" in match.field("🔵 Bob")
    assert f"▶ {h.alice.mention}, turn 1: play cards" in match.description


def choose_human_move(h, match: Message, state: GameState) -> str:
    if state.phase == "draw":
        return "Skip draw" if len(state.players[0].hand) >= 10 and main_phase_playable(state, 0) else "Draw"
    return "hand"


async def test_a_full_game_against_the_ai_to_its_end_screen_and_the_stats_it_leaves(h):
    (match,) = await h.run("mma ai", h.alice)
    assert match.embed.title == "🥊 Alice vs AI" and not match.ephemeral
    assert "Claim win (opponent idle)" not in [c["label"] for c in match.components]
    await h.click(match, "Skip draw", h.alice)
    assert not_pings(await h.click(match, "End turn", h.alice)) == []  # the AI's whole turn plays out at once
    assert "— AI, turn 1: 8 energy" in match.field("Last actions")
    assert f"▶ {h.alice.mention}, turn 2: **Draw** or **Skip draw**." in match.description
    for _ in range(400):
        row = await match_row(h)
        if row["status"] == MatchStatus.OVER:
            break
        state = await saved_state(h)
        assert state.to_move == 0  # the AI's turns play out at once
        if state.phase == "draw":
            await h.click(match, choose_human_move(h, match, state), h.alice)
            continue
        (hand,) = await h.click(match, "My hand", h.alice)
        placeholder = "Choose your next fighter" if state.phase == "replace" else "Choose a card to play"
        try:
            select = hand.component(placeholder)
        except AssertionError:
            await h.click(match, "End turn", h.alice)
            continue
        value = select["options"][0]["value"]
        await h.click(hand, placeholder, h.alice, values=[value])
        verb = "Deploy" if state.phase == "replace" else "Play"
        await h.click(hand, f"{verb} {CARDS[int(value)].name}", h.alice)
        if state.phase == "main" and (await saved_state(h)).players[0].energy < 3:
            await h.click(match, "End turn", h.alice)
    row = await match_row(h)
    assert row["status"] == MatchStatus.OVER
    final = await saved_state(h)
    won = final.winner == 0
    assert match.embed.title == ("🏆 VICTORY! 🏆" if won else "💀 DEFEAT 💀")
    assert EndReason(final.reason).label in match.description
    assert [c["label"] for c in match.components] == ["Play again"]
    assert (f"🏆 {h.alice.mention} wins" if won else "🏆 AI wins") in match.field("Last actions")

    results = await h.bot.db.fetch_all("SELECT user_id, outcome, opponent_id FROM mma_results")
    assert [tuple(r) for r in results] == [(h.alice.id, "win" if won else "loss", None)]
    (stats,) = await h.run("mma stats", h.bob, member=h.alice)
    assert stats.embed.title == "📊 Alice: MMA Warriors record in this server"
    record = "**1** win · **0** losses · **0** draws" if won else "**0** wins · **1** loss · **0** draws"
    assert stats.description.startswith(record)  # counts of one read as one
    assert f"against the AI {int(won)}–{int(not won)}" in stats.description
    fielded = CARDS[final.players[0].fielded[0]].name
    assert f"**{fielded}**: 1 match, {int(won)} won" in stats.field("Favourite fighters")
    (board,) = await h.run(
        "mma leaderboard", h.bob
    )  # the leaderboard ranks ratings: matches against the AI are not rated
    assert board.description.startswith("No rated matches in this server yet")

    (again,) = await h.click(match, "Play again", h.alice)
    assert again.embed.title == "🥊 Alice vs AI" and again.id != match.id


async def test_a_seed_deals_the_same_match_again(h):
    (first,) = await h.run("mma ai", h.alice, seed=12345)
    assert "seed 12345" in first.embed.footer.text
    await h.click(first, "Concede", h.alice)
    (confirm,) = [m for m in h.messages if m.ephemeral and m.content.startswith("Concede match")]
    await h.click(confirm, "Yes, concede", h.alice)
    (second,) = await h.run("mma ai", h.alice, seed=12345)
    rows = await h.bot.db.fetch_all("SELECT state_json FROM mma_matches ORDER BY id")
    states = [GameState.from_dict(json.loads(r["state_json"])) for r in rows]
    assert states[0].players[0].hand == states[1].players[0].hand
    assert states[0].players[1].deck == states[1].players[1].deck
    assert first.embed.title == "💀 DEFEAT 💀" and second.field("🔴 Alice") == first.field("🔴 Alice")


async def test_concede_asks_first_then_ends_the_match(h):
    match = await start_pvp(h)
    (confirm,) = await h.click(match, "Concede", h.bob)
    assert confirm.ephemeral and "Concede match #" in confirm.content
    assert (await match_row(h))["status"] == MatchStatus.LIVE
    assert not_pings(await h.click(confirm, "Yes, concede", h.bob)) == []
    assert confirm.content == "🏳️ You conceded."
    assert match.embed.title == "🏆 Alice wins! 🏆"
    assert f"{h.bob.mention} was defeated! Conceded." in match.description
    assert [c["label"] for c in match.components] == ["Rematch"]
    results = await h.bot.db.fetch_all("SELECT user_id, outcome, reason FROM mma_results ORDER BY user_id")
    assert [tuple(r) for r in results] == [(h.alice.id, "win", "conceded"), (h.bob.id, "loss", "conceded")]
    (refusal,) = await h.click(confirm if confirm.components else match, "Rematch", CAROL)
    assert "Only the players of this match" in refusal.content
    (rematch,) = await h.click(match, "Rematch", h.bob)
    assert rematch.content == f"<@{h.bob.id}> challenges <@{h.alice.id}>"


async def test_idle_opponent_can_be_claimed_after_15_minutes(h):
    match = await start_pvp(h)
    cog = h.bot.get_cog("MMA")
    delays = []
    cog.matches.claim_openings.delay = lambda seconds: delays.append(seconds) or 0.05  # the 15 minutes, shortened
    start = cog.clock()
    cog.clock = lambda: start
    assert match.component("Claim win (opponent idle)")["disabled"] is True  # from the first move: not yet
    await h.click(match, "End turn", h.alice)
    row = await match_row(h)
    opens = math.ceil(unix_time(row["last_move_at"]) + 15 * 60)
    assert match.component("Claim win (opponent idle)")["disabled"] is True
    assert match.description.split("\n")[-1] == (
        f"⏱️ If {h.bob.mention} does not move, {h.alice.mention} can claim the win <t:{opens}:R>."
    )
    # the board is redrawn as the claim opens (to the millisecond the stored time keeps)
    assert delays[-1] == pytest.approx(15 * 60 + 1, abs=0.001)
    # A click that comes too early all the same (an older board) is refused with the minutes left.
    (refusal,) = await h.click(match, "Claim win (opponent idle)", h.alice)
    assert refusal.content == f"❌ {h.bob.mention} still has 15 minutes to move before you can claim the win."
    cog.clock = lambda: start + 14 * 60 + 30
    (refusal,) = await h.click(match, "Claim win (opponent idle)", h.alice)
    assert refusal.content == f"❌ {h.bob.mention} still has 1 minute to move before you can claim the win."
    (refusal,) = await h.click(match, "Claim win (opponent idle)", h.bob)
    assert refusal.content == "❌ It is your move: the clock is running for you, not your opponent."

    cog.clock = lambda: start + 15 * 60 + 1
    await asyncio.sleep(0.2)  # the timer redraws the board by itself
    await h.settle()
    assert match.component("Claim win (opponent idle)")["disabled"] is False
    assert match.description.split("\n")[-1] == (
        f"⏱️ {h.bob.mention} has not moved for 15 minutes: {h.alice.mention} can claim the win."
    )
    assert (await match_row(h))["version"] == row["version"]  # a redraw, not a move
    assert not_pings(await h.click(match, "Claim win (opponent idle)", h.alice)) == []
    assert match.embed.title == "🏆 Alice wins! 🏆" and "Opponent idle" in match.description
    assert (await match_row(h))["result_reason"] == "idle"
    assert cog.matches.claim_openings.timers == {}


async def test_the_claim_opens_on_time_after_a_restart(h):
    match = await start_pvp(h)
    await h.click(match, "Skip draw", h.alice)
    row = await match_row(h)
    await h.restart()
    cog = h.bot.get_cog("MMA")
    timer = cog.matches.claim_openings.timers[row["id"]]  # set again from the stored match
    left = unix_time(row["last_move_at"]) + 15 * 60 - time.time()
    assert timer.when() - asyncio.get_running_loop().time() == pytest.approx(left + 1, abs=5)


async def test_no_claim_is_offered_against_the_ai(h):
    (match,) = [m for m in await h.run("mma ai", h.alice) if m.embeds]
    assert "Claim win (opponent idle)" not in [c["label"] for c in match.components]
    assert "claim" not in match.description and h.bot.get_cog("MMA").matches.claim_openings.timers == {}


async def test_one_live_match_per_player_per_channel(h):
    await h.run("mma challenge", h.alice, opponent=h.bob)
    (refusal,) = await h.run("mma ai", h.alice)
    assert refusal.ephemeral and refusal.content == (
        "❌ You already have a challenge waiting in this channel (match #1); accept or decline it first (it lapses "
        "on its own too), or play in another channel."
    )
    (refusal,) = await h.run("mma challenge", CAROL, opponent=h.bob)
    assert f"<@{h.bob.id}> already has a challenge waiting" in refusal.content
    (elsewhere,) = await h.run("mma ai", h.alice, channel_id=CHANNEL_ID + 1)
    assert elsewhere.embed.title == "🥊 Alice vs AI"
    (refusal,) = await h.run("mma challenge", h.alice, opponent=h.alice)
    assert "cannot challenge yourself" in refusal.content
    assert len(await h.bot.db.fetch_all("SELECT * FROM mma_matches")) == 2


async def test_decline_and_withdraw_close_the_challenge(h):
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    assert not_pings(await h.click(challenge, "Decline", h.bob)) == []
    assert challenge.description == f"{h.bob.mention} declined the challenge." and challenge.components == []
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    old = snapshot(challenge)
    assert not_pings(await h.click(challenge, "Decline", h.alice)) == []
    assert challenge.description == f"{h.alice.mention} withdrew the challenge."
    (refusal,) = await h.click(old, "Accept", h.bob)
    assert refusal.content == "❌ This challenge has already been answered."
    statuses = await h.bot.db.fetch_all("SELECT status FROM mma_matches ORDER BY id")
    assert [r["status"] for r in statuses] == [MatchStatus.DECLINED, MatchStatus.DECLINED]


async def test_an_unanswered_challenge_lapses_after_15_minutes(h):
    cog = h.bot.get_cog("MMA")
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    start = cog.clock()
    cog.clock = lambda: start + 16 * 60
    assert not_pings(await h.click(challenge, "Accept", h.bob)) == []
    assert challenge.description == "The challenge lapsed unanswered." and challenge.components == []
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    cog.clock = lambda: start + 40 * 60  # a new challenge lets an old one lapse rather than block
    (other,) = await h.run("mma challenge", h.bob, opponent=CAROL)
    assert other.embed.title == "🥊 MMA Warriors challenge!"
    statuses = await h.bot.db.fetch_all("SELECT status FROM mma_matches ORDER BY id")
    assert [r["status"] for r in statuses] == [MatchStatus.EXPIRED, MatchStatus.EXPIRED, MatchStatus.PENDING]


async def test_rules_summary_fits_and_every_command_has_help(h):
    (rules,) = await h.run("mma rules", h.alice)
    assert rules.ephemeral and rules.embed.title.startswith("📖 MMA Warriors")
    assert "Takedowns" in rules.description and len(rules.embed) <= 6000
    (stats,) = await h.run("mma stats", h.alice)
    assert "No finished matches yet" in stats.description
    group = h.bot.tree.get_command("mma")
    assert {c.name for c in group.walk_commands()} == {
        "challenge",
        "ai",
        "stats",
        "leaderboard",
        "history",
        "replay",
        "rules",
        "tournament",
        "create",
        "start",
        "cancel",
        "withdraw",
        "remove",
        "crosstable",
    }
    for command in group.walk_commands():
        assert command.description
        for param in command.parameters if isinstance(command, discord.app_commands.Command) else []:
            assert param.description and param.description != "…"


async def test_the_match_message_shows_both_corners_in_full(h):
    match = await start_pvp(h)
    row = await match_row(h)
    state = await saved_state(h)
    alice, bob = state.players
    alice.training, alice.coach, alice.guard = 3, 1, card_named("Block").id
    bob.bleed, bob.staggered, bob.stamina = 2, True, 1
    state.advantage = 0
    await write_state(h, row["id"], state)
    assert not_pings(await h.click(match, "Skip draw", h.alice)) == []  # any move redraws the message

    fighter = CARDS[alice.fighter]
    assert match.field("🔴 Alice ▶").split("\n") == [
        f"**{fighter.name}** · {fighter.style} · ⭐ **ADVANTAGE**",
        f"STR {fighter.striking + 1} ✨**+3** · GRP {fighter.grappling + 1} · DEF {fighter.defense + 1}"
        " (Master Coach +1)",
        f"Stamina `{'█' * 12} {fighter.stamina}/{fighter.stamina}`",
        "❤️ Health **100**/100 · ⚡ Energy **8**/16",
        "🃏 Hand 4/10 · Deck 70 · KOs suffered 0",
        "🛡️ Block ready",
    ]
    other = CARDS[bob.fighter]
    lines = match.field("🔵 Bob").split("\n")
    assert lines[0] == f"**{other.name}** · {other.style}"
    assert lines[2] == f"Stamina `█{'░' * 11} 1/{other.stamina}`"
    assert lines[-1] == "🩸 Bleeding (2 turns) · 💫 Staggered: skips next turn"
    assert f"🤼 On the ground: {h.alice.mention} on top" in match.description
    assert str(match.embed.footer.text).startswith(f"seed {row['seed']} · match #{row['id']} · move 1")

    # The private hand: every card with its cost and effect, the playable ones in the menu.
    (hand,) = await h.click(match, "My hand", h.alice)
    options = hand.component("Choose a card to play")["options"]
    assert options and all(o["description"] == CARDS[int(o["value"])].summary() for o in options)
    assert all("energy" in o["description"] for o in options)
    for card in set(alice.hand):
        assert f"**{CARDS[card].name}**" in hand.description
    assert hand.content == "Your move: 8 energy to spend."


async def test_long_names_and_a_long_feed_stay_within_discord_limits(h):
    wild = User(1200000000000000009, "*_~`|>" * 5 + "\\Z")  # 32 characters of markdown
    (challenge,) = await h.run("mma challenge", wild, opponent=h.bob)
    assert not_pings(await h.click(challenge, "Accept", h.bob)) == []
    row = await match_row(h)
    long_feed = [f"line {i} " + "x" * 400 for i in range(40)]
    async with h.bot.db.transaction() as conn:
        await conn.execute("UPDATE mma_matches SET feed_json = ? WHERE id = ?", (json.dumps(long_feed), row["id"]))
    assert not_pings(await h.click(challenge, "Skip draw", wild)) == []
    embed = challenge.embed
    assert len(embed) <= 6000 and len(embed.title) <= 256 and len(embed.fields) == 3
    assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in embed.fields)
    feed = challenge.field("Last actions").split("\n")
    assert feed[-1].endswith("skips the draw") and feed[0].startswith("line ")  # the newest lines that fit
    assert discord.utils.escape_markdown("*_~`|>" * 5) in embed.title
    assert all(len(c["custom_id"]) <= 100 for c in challenge.components)


async def test_a_tampered_button_is_refused_and_changes_nothing(h):
    match = await start_pvp(h)
    row = await match_row(h)
    # A forged custom_id: a card id out of range, a match that does not exist, a fighter not in hand.
    forged = snapshot(match)
    forged.data["components"] = [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "Forged", "custom_id": f"mma:{row['id']}:{row['version']}:play-999"},
                {"type": 2, "style": 1, "label": "Ghost", "custom_id": "mma:999999:1:draw"},
                {"type": 2, "style": 1, "label": "Fighter", "custom_id": f"mma:{row['id']}:{row['version']}:play-0"},
                {"type": 2, "style": 1, "label": "Old", "custom_id": f"mma:{row['id']}:draw:{row['version']}"},
            ],
        }
    ]
    (refusal,) = await h.click(forged, "Forged", h.alice)
    assert refusal.ephemeral and refusal.content == "❌ Choose a card from the list first."
    (refusal,) = await h.click(forged, "Ghost", h.alice)
    assert refusal.content == "❌ This match no longer exists."
    (refusal,) = await h.click(forged, "Fighter", h.alice)
    assert refusal.content == "❌ That card is not in your hand."  # the opening hand holds no fighter
    (refusal,) = await h.click(forged, "Old", h.alice)  # a layout no message carries any more: an unknown id
    assert refusal.content == "⌛ These buttons are no longer active. Run the command again for fresh ones."
    assert (await match_row(h))["version"] == row["version"]


async def test_buttons_carry_the_shared_layout(h):
    match = await start_pvp(h)
    row = await match_row(h)
    ids = {c["label"]: c["custom_id"] for c in match.components}
    assert ids["Draw"] == f"mma:{row['id']}:{row['version']}:draw"
    assert ids["My hand"] == f"mma:{row['id']}:{row['version']}:hand"


async def test_a_board_left_behind_by_a_match_that_ended_meanwhile_is_brought_to_its_end(h):
    """The last move was saved but the board never showed it (a crash between the two)."""
    from rules.mma.engine import apply_in_place, replay_rng
    from rules.mma.state import CONCEDE, Action

    (board,) = [m for m in await h.run("mma ai", h.alice, seed=1) if m.embeds]
    cog = h.bot.get_cog("MMA")
    record = await cog.matches.repo.get((await match_row(h))["id"])
    state = record.game
    apply_in_place(state, Action(0, CONCEDE), replay_rng(state))
    await cog.matches.repo.save_moves(record, state, list(record.feed), [Action(0, CONCEDE)], cog.clock())
    await h.restart()
    (reply,) = await h.click(board, "Skip draw", h.alice)
    assert reply.ephemeral and reply.content.startswith("⌛ These buttons were from an earlier moment of this match")
    assert [c["label"] for c in board.components] == ["Play again"]


def take(player, name: str) -> int:
    """Take the card `name` out of wherever it is in `player`'s deck, hand or discard pile."""
    card = card_named(name).id
    for pile in (player.deck, player.hand, player.discard):
        if card in pile:
            pile.remove(card)
            return card
    raise AssertionError(f"{name} is not free in this deck")


def field_fighter(player, name: str) -> None:
    """Make `name` the active fighter at full stamina; the fighter it replaces goes back into the deck."""
    player.deck.append(player.fighter)
    player.fighter = take(player, name)
    player.stamina = player.max_stamina = CARDS[player.fighter].stamina
    player.fielded = [player.fighter]


def put_on_top(player, name: str) -> None:
    player.deck.append(take(player, name))


async def test_both_players_show_8_energy_from_the_start(h):
    match = await start_pvp(h)
    assert "⚡ Energy **8**/16" in match.field("🔴 Alice") and "⚡ Energy **8**/16" in match.field("🔵 Bob")
    assert [p.energy for p in (await saved_state(h)).players] == [8, 8]
    (ai_match,) = await h.run("mma ai", h.alice, channel_id=CHANNEL_ID + 1)
    assert "⚡ Energy **8**/16" in ai_match.field("🔵 AI")
    # Ending the first turn without playing: the second player's first turn has 8 as well.
    await h.click(match, "End turn", h.alice)
    assert f"— {h.bob.mention}, turn 1: 8 energy" in match.field("Last actions")
    assert "⚡ Energy **8**/16" in match.field("🔵 Bob")


async def test_ground_and_pound_damage_and_breakdown_in_the_feed(h):
    match = await start_pvp(h)
    row = await match_row(h)
    state = await saved_state(h)
    alice, bob = state.players
    field_fighter(alice, "Islam Makhachev")
    field_fighter(bob, "Alexander Volkanovski")
    alice.hand.append(take(alice, "Ground and Pound"))
    state.advantage = 0
    await write_state(h, row["id"], state)
    await h.click(match, "Skip draw", h.alice)
    (hand,) = await h.click(match, "My hand", h.alice)
    gnp = card_named("Ground and Pound").id
    await h.click(hand, "Choose a card to play", h.alice, values=[str(gnp)])
    await h.click(hand, "Play Ground and Pound", h.alice)
    # RULINGS 6: max(6, 6 + 6 - 9 + 0 + 5) = 8, not the card's 6 plus 5.
    assert (
        f"{h.alice.mention}: **Ground and Pound** hits Alexander Volkanovski for **8** (6 card + 6 STR − 9 DEF + 5 G&P = 8)"
        " → stamina 34"
    ) in match.field("Last actions")
    assert "Stamina `" in match.field("🔵 Bob") and "34/42`" in match.field("🔵 Bob")
    assert (await saved_state(h)).players[1].stamina == 34
    (rules,) = await h.run("mma rules", h.alice)
    assert (
        "**Ground and Pound:** needs your advantage; the strike's sum gains 3 + grappling/4 before the "
        "card-damage minimum is applied"
    ) in rules.description


async def bleed_out_bob(h, *, top: str, hand_fighter: str | None = None) -> Message:
    """A match where Bob's Islam Makhachev bleeds out as Bob's first turn begins (Alice has just ended hers).

    Bob holds no fighter unless `hand_fighter` is given; `top` is the top card of his deck.
    """
    match = await start_pvp(h)
    await h.click(match, "Skip draw", h.alice)
    row = await match_row(h)
    state = await saved_state(h)
    bob = state.players[1]
    field_fighter(bob, "Islam Makhachev")
    bob.stamina, bob.bleed = 2, 1
    if hand_fighter is not None:
        bob.hand.append(take(bob, hand_fighter))
    put_on_top(bob, top)
    await write_state(h, row["id"], state)
    assert not_pings(await h.click(match, "End turn", h.alice)) == []
    return match


def enabled(message: Message) -> dict[str, bool]:
    return {c["label"]: not c.get("disabled", False) for c in message.components}


async def test_a_fighter_who_bleeds_out_is_replaced_after_the_draw_by_the_card_drawn(h):
    match = await bleed_out_bob(h, top="Tom Aspinall")
    feed = match.field("Last actions")
    assert "Islam Makhachev bleeds for 2 (0 ticks left) → stamina 0" in feed
    assert f"💥 **KO!** Islam Makhachev is out; {h.bob.mention} loses 20 health (80 left)" in feed
    assert (
        f"💥 {h.bob.mention}, turn 1: your fighter bled out. **Draw** or **Skip draw**, then pick your next fighter "
        "from **My hand**."
    ) in match.description
    bob_lines = match.field("🔵 Bob ▶").split("\n")
    assert bob_lines[0] == "*No fighter: the next one comes in after the draw*"
    assert "Health **80**/100" in bob_lines[1]
    assert enabled(match) == {
        "My hand": True,
        "Draw": True,
        "Skip draw": True,
        "End turn": False,
        "Concede": True,
        "Claim win (opponent idle)": False,  # Bob's turn has only just begun
    }
    (hand,) = await h.click(match, "My hand", h.bob)
    assert hand.content == "Draw or skip the draw on the match message first. Then choose your next fighter here."
    assert [c["label"] for c in hand.components] == ["Refresh"]  # nothing to play or deploy yet

    (drawn,) = await h.click(match, "Draw", h.bob)
    assert drawn.ephemeral
    assert drawn.content == "🃏 You drew **Tom Aspinall**. Now pick your next fighter from **My hand**."
    assert f"💥 {h.bob.mention}: pick your next fighter from **My hand**." in match.description
    assert enabled(match)["Draw"] is False and enabled(match)["End turn"] is False
    await h.click(hand, "Refresh", h.bob)
    assert hand.content == "Your fighter was knocked out: choose who comes in."
    assert [o["label"] for o in hand.component("Choose your next fighter")["options"]] == ["Tom Aspinall"]
    tom = card_named("Tom Aspinall")
    await h.click(hand, "Choose your next fighter", h.bob, values=[str(tom.id)])
    await h.click(hand, "Deploy Tom Aspinall", h.bob)
    assert f"{h.bob.mention} sends in **Tom Aspinall** (38 stamina)" in match.field("Last actions")
    assert f"▶ {h.bob.mention}, turn 1: play cards from **My hand**, then **End turn**." in match.description
    assert match.field("🔵 Bob ▶").startswith("**Tom Aspinall** · Balanced")
    assert enabled(match)["End turn"] is True
    moves = await h.bot.db.fetch_all("SELECT slot, action_json FROM mma_moves ORDER BY seq")
    assert [(m["slot"], json.loads(m["action_json"])["kind"]) for m in moves] == [
        (0, "skip_draw"),
        (0, "end_turn"),
        (1, "draw"),
        (1, "deploy"),
    ]


async def test_skipping_the_draw_after_bleeding_out_asks_for_a_fighter_from_hand(h):
    match = await bleed_out_bob(h, top="Quick Jab", hand_fighter="Belal Muhammad")
    assert not_pings(await h.click(match, "Skip draw", h.bob)) == []
    assert f"{h.bob.mention} skips the draw" in match.field("Last actions")
    assert f"💥 {h.bob.mention}: pick your next fighter from **My hand**." in match.description
    (hand,) = await h.click(match, "My hand", h.bob)
    assert [o["label"] for o in hand.component("Choose your next fighter")["options"]] == ["Belal Muhammad"]


async def test_no_fighter_in_hand_after_bleeding_out_and_skipping_the_draw_loses(h):
    match = await bleed_out_bob(h, top="Tom Aspinall")  # the skipped draw would have brought a fighter
    assert not_pings(await h.click(match, "Skip draw", h.bob)) == []
    assert match.embed.title == "🏆 Alice wins! 🏆"
    assert f"{h.bob.mention} was defeated! No fighters in hand." in match.description
    assert match.field("🔵 Bob").startswith("*No fighter left*")
    results = await h.bot.db.fetch_all("SELECT user_id, outcome, reason FROM mma_results ORDER BY user_id")
    assert [tuple(r) for r in results] == [
        (h.alice.id, "win", "no_fighters"),
        (h.bob.id, "loss", "no_fighters"),
    ]


async def test_the_ai_bleeding_out_draws_and_deploys_the_fighter_it_drew(h):
    (match,) = await h.run("mma ai", h.alice)
    await h.click(match, "Skip draw", h.alice)
    row = await match_row(h)
    state = await saved_state(h)
    ai = state.players[1]
    field_fighter(ai, "Islam Makhachev")
    ai.stamina, ai.bleed = 2, 1
    put_on_top(ai, "Tom Aspinall")
    await write_state(h, row["id"], state)
    assert not_pings(await h.click(match, "End turn", h.alice)) == []
    feed = match.field("Last actions")
    assert (
        feed.index("💥 **KO!** Islam Makhachev is out; AI loses 20 health (80 left)")
        < feed.index("AI draws (")
        < feed.index("AI sends in **Tom Aspinall** (38 stamina)")
    )
    assert f"▶ {h.alice.mention}, turn 2" in match.description
    moves = await h.bot.db.fetch_all("SELECT slot, action_json FROM mma_moves WHERE slot = 1 ORDER BY seq")
    tom = card_named("Tom Aspinall").id
    assert [json.loads(m["action_json"]) for m in moves][:2] == [
        {"player": 1, "kind": "draw", "card": -1},
        {"player": 1, "kind": "deploy", "card": tom},
    ]


async def test_the_player_a_match_waits_for_is_pinged_and_the_previous_ping_goes(h):
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    (first,) = await h.click(challenge, "Accept", h.bob)
    row = await match_row(h)
    assert first.content == (
        f"🥊 {h.alice.mention}, your move in MMA Warriors match #{row['id']}. "
        f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{challenge.id}"
    )
    sent = next(r for r in reversed(h.fake.requests) if r.method == "POST" and r.path.endswith("/messages"))
    assert sent.payload["allowed_mentions"] == {"parse": [], "users": [h.alice.id]}  # only the player called
    assert row["ping_message_id"] == first.id

    (note,) = await h.click(challenge, "Draw", h.alice)  # still Alice's turn: no new ping
    assert note.ephemeral
    (second,) = not_pings(await h.click(challenge, "End turn", h.alice)) or [None]
    assert second is None
    pings = [m for m in h.messages if is_ping(m)]
    assert [p.content.split(",")[0] for p in pings] == [f"🥊 {h.bob.mention}"]  # Alice's ping was deleted
    assert first.id not in h.fake.messages and (await match_row(h))["ping_message_id"] == pings[0].id

    (ask,) = await h.click(challenge, "Concede", h.bob)
    await h.click(ask, "Yes, concede", h.bob)
    assert [m for m in h.messages if is_ping(m)] == []  # the match is over: no one is waited for
    assert (await match_row(h))["ping_message_id"] is None


async def test_a_match_in_a_thread_pings_where_members_may_not_post_in_threads(h):
    """A server whose @everyone may not post in threads: the bot still may, by the invite's own permissions."""
    thread = h.fake.thread(CHANNEL_ID)
    h.fake.everyone[GUILD_ID] = discord.Permissions(
        EVERYONE_DEFAULT.value & ~discord.Permissions(send_messages_in_threads=True).value
    )
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob, channel_id=thread.id)
    (ping,) = await h.click(challenge, "Accept", h.bob)
    assert is_ping(ping) and ping.channel_id == thread.id
    assert ping.content.startswith(f"🥊 {h.alice.mention}, your move") and ping.content.endswith(
        f"https://discord.com/channels/{GUILD_ID}/{thread.id}/{challenge.id}"
    )


async def test_a_bot_cannot_be_challenged_and_nothing_is_stored(h):
    helper_bot = User(1200000000000000042, "Helper Bot", bot=True)
    (refusal,) = await h.run("mma challenge", h.alice, opponent=helper_bot)
    assert refusal.ephemeral and refusal.content == "❌ Bots cannot accept challenges; use `/mma ai` to fight the AI."
    assert await h.bot.db.fetch_all("SELECT id FROM mma_matches") == []


async def test_where_the_bot_may_not_post_the_member_who_acted_is_told_once_and_the_match_goes_on(h, caplog):
    """Answers arrive without Send Messages (they are the interactions'), but the ping is the bot's own post:
    the member who acted is told privately which permission to give, once; each skipped ping is one warning."""
    h.fake.overwrite(CHANNEL_ID, "bot", deny=discord.Permissions(send_messages=True))
    told = f"I can't post in <#{CHANNEL_ID}>, so I can't ping the next player: give me Send Messages there."
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    (notice,) = await h.click(challenge, "Accept", h.bob)  # the match starts and waits for Alice: no ping
    assert notice.ephemeral and notice.content == told
    assert (await match_row(h))["status"] == MatchStatus.LIVE and (await match_row(h))["ping_message_id"] is None

    def notices(posted: list[Message]) -> list[bool]:
        return [m.ephemeral for m in posted if m.content == told]

    # Alice's first click tries the ping again (none was posted): she is told, once, and never again.
    assert notices(await h.click(challenge, "Draw", h.alice)) == [True]
    assert notices(await h.click(challenge, "End turn", h.alice)) == []
    assert notices(await h.click(challenge, "Draw", h.bob)) == []  # Bob was told at Accept
    assert notices(await h.click(challenge, "End turn", h.bob)) == []
    warnings = [r for r in caplog.records if r.name == "arena.permissions"]
    assert [r.getMessage() for r in warnings] == [
        f"cannot ping the next player in channel {CHANNEL_ID}: the bot lacks Send Messages"
    ] * 5  # every click that would have pinged
    assert all(r.levelname == "WARNING" and r.exc_info is None for r in warnings)
    assert not [m for m in h.messages if is_ping(m)]


async def test_a_move_from_the_hand_redraws_the_board_without_send_messages_but_not_without_embed_links(h, caplog):
    """Redrawing the board is an edit of the bot's own message: it needs no Send Messages, but the board is an
    embed. Where Embed Links is missing, the member who moved is told once, and the move stands."""
    challenge = await start_pvp(h)
    await h.click(challenge, "Draw", h.alice)
    h.fake.overwrite(CHANNEL_ID, "bot", deny=discord.Permissions(send_messages=True))
    shown = snapshot(challenge)
    await play_first_card(h, h.alice, challenge)
    assert challenge.embed.to_dict() != shown.embed.to_dict()  # redrawn: the move shows
    board = "show the match's board"
    assert not [r for r in caplog.records if board in r.getMessage()]

    h.fake.overwrite(CHANNEL_ID, "bot", deny=discord.Permissions(embed_links=True))
    version = (await match_row(h))["version"]
    shown = snapshot(challenge)
    (hand,) = await h.click(challenge, "My hand", h.alice)
    value = hand.component("Choose a card to play")["options"][0]["value"]
    await h.click(hand, "Choose a card to play", h.alice, values=[value])
    posted = await h.click(hand, f"Play {CARDS[int(value)].name}", h.alice)
    told = f"I can't post in <#{CHANNEL_ID}>, so I can't show the match's board: give me Embed Links there."
    assert [m.content for m in posted if m.ephemeral] == [told]
    assert (await match_row(h))["version"] > version  # the move stands
    assert challenge.embed.to_dict() == shown.embed.to_dict()  # the board was left as it was
    warnings = [r for r in caplog.records if board in r.getMessage()]
    assert [r.getMessage() for r in warnings] == [f"cannot {board} in channel {CHANNEL_ID}: the bot lacks Embed Links"]
    assert warnings[0].levelname == "WARNING" and warnings[0].exc_info is None


async def test_no_one_is_pinged_in_a_match_against_the_ai(h):
    posted = await h.run("mma ai", h.alice)
    (match,) = [m for m in posted if m.embeds]
    assert not_pings(await h.click(match, "Skip draw", h.alice)) == []
    assert not_pings(await h.click(match, "End turn", h.alice)) == []
    assert [m for m in h.messages if is_ping(m)] == [] and (await match_row(h))["ping_message_id"] is None


async def test_an_open_hand_view_follows_the_match_until_discord_stops_allowing_edits(h):
    challenge = await start_pvp(h)
    (bob_hand,) = await h.click(challenge, "My hand", h.bob)
    assert bob_hand.ephemeral and bob_hand.content == f"Waiting for {h.alice.mention}."
    await h.click(challenge, "Skip draw", h.alice)
    not_pings(await h.click(challenge, "End turn", h.alice))
    bob_hand = h.fake.messages[bob_hand.id]
    assert bob_hand.content == (
        "🔄 The match moved on: this is your hand now.\nDraw or skip the draw on the match message first."
    )
    refresh_version = int(bob_hand.component("Refresh")["custom_id"].split(":")[2])
    assert refresh_version == (await match_row(h))["version"]  # its buttons are the current ones

    h.bot.get_cog("MMA").matches.hands.editable_for = 0.05  # Discord's 15 minutes, shortened
    (alice_hand,) = await h.click(challenge, "My hand", h.alice)
    await asyncio.sleep(0.2)
    await h.settle()
    closed = h.fake.messages[alice_hand.id]
    assert closed.content.startswith("⌛ This hand view can no longer follow the match") and closed.components == []


async def test_choosing_a_card_shows_what_it_would_do_and_play_does_exactly_that(h):
    posted = await h.run("mma ai", h.alice)
    (match,) = [m for m in posted if m.embeds]
    await h.click(match, "Skip draw", h.alice)
    (hand,) = await h.click(match, "My hand", h.alice)
    assert not [f for f in hand.embed.fields if f.name.startswith("If you play")]  # nothing chosen yet
    strikes = [o for o in hand.component("Choose a card to play")["options"] if CARDS[int(o["value"])].kind == "strike"]
    chosen = int(strikes[0]["value"])
    await h.click(hand, "Choose a card to play", h.alice, values=[str(chosen)])
    foreseen = hand.field(f"If you play {CARDS[chosen].name} now")
    assert f"{h.alice.mention}: **{CARDS[chosen].name}** hits " in foreseen
    await h.click(hand, f"Play {CARDS[chosen].name}", h.alice)
    played = next(line for line in match.field("Last actions").splitlines() if f"**{CARDS[chosen].name}** hits" in line)
    assert played in foreseen.splitlines()  # the same words, the same numbers


async def test_a_move_saved_before_the_board_could_show_it_never_leaves_the_match_stuck(h):
    posted = await h.run("mma ai", h.alice)
    (board,) = [m for m in posted if m.embeds]
    shown = snapshot(board)
    await save_unshown(h, "skip_draw")  # the process saves Alice's Skip draw, then dies before it edits the board
    await h.restart()
    row = await match_row(h)
    saved_version = row["version"]

    # The board still offers Draw: pressing it brings the board up to the stored match.
    (note,) = await h.click(shown, "Draw", h.alice)
    assert note.ephemeral and note.content.startswith("⌛ These buttons were from an earlier moment of this match")
    assert board.component("Draw")["disabled"] is True
    assert board.component("End turn")["custom_id"] == f"mma:{row['id']}:{saved_version}:end"
    assert (await match_row(h))["version"] == saved_version  # nothing was played

    # Asking for a new match offers the live one again, as it is stored, and it plays on.
    (again,) = await h.run("mma ai", h.alice)
    assert again.content.startswith(f"You already have a match going here (match #{row['id']}): here it is again.")
    assert (await match_row(h))["message_id"] == again.id
    assert not_pings(await h.click(again, "End turn", h.alice)) == []
    assert (await match_row(h))["version"] > saved_version


def stall_the_next_engine_call(h, monkeypatch, seconds: float = 3.3) -> None:
    """The next engine call takes `seconds` on Discord's clock: the click's answer comes too late."""
    cog_module = sys.modules["cogs.common.turns"]  # the driver of every move runs the engine
    run_engine = cog_module.run_engine

    async def stalled(*args, **kwargs):
        monkeypatch.setattr(cog_module, "run_engine", run_engine)  # only once
        result = await run_engine(*args, **kwargs)
        clock = h.fake.clock
        h.fake.clock = lambda: clock() + seconds
        return result

    monkeypatch.setattr(cog_module, "run_engine", stalled)


async def test_a_click_answered_after_discords_3_seconds_keeps_its_move_and_the_next_click_shows_it(h, monkeypatch):
    posted = await h.run("mma ai", h.alice)
    (board,) = [m for m in posted if m.embeds]
    shown = snapshot(board)
    version = (await match_row(h))["version"]
    stall_the_next_engine_call(h, monkeypatch)
    assert await h.click(board, "Skip draw", h.alice) == []  # Discord shows "This interaction failed"
    assert (await match_row(h))["version"] == version + 1  # the move was saved all the same
    assert h.fake.messages[board.id].data["components"] == shown.data["components"]  # the board is behind
    h.fake.clock = time.monotonic
    (note,) = await h.click(shown, "Skip draw", h.alice)
    assert note.content.startswith("⌛ These buttons were from an earlier moment of this match")
    assert board.component("Skip draw")["disabled"] is True and board.component("End turn")["disabled"] is False


async def test_a_click_replayed_in_another_server_or_channel_is_refused_and_changes_nothing(h):
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    elsewhere = {"guild_id": OTHER_GUILD_ID, "channel_id": OTHER_GUILD_CHANNEL_ID}
    (refusal,) = await h.click(challenge, "Accept", h.bob, **elsewhere)
    assert refusal.ephemeral
    assert refusal.content == "❌ This match belongs to another server, so nothing was changed."
    assert (await match_row(h))["status"] == MatchStatus.PENDING
    assert not_pings(await h.click(challenge, "Accept", h.bob)) == []  # in its own channel it is accepted
    match = challenge
    await h.click(match, "Draw", h.alice)
    row = await match_row(h)
    (hand,) = await h.click(match, "My hand", h.alice)
    value = hand.component("Choose a card to play")["options"][0]["value"]
    for label in ("End turn", "My hand", "Concede"):
        (refusal,) = await h.click(match, label, h.alice, **elsewhere)
        assert refusal.content == "❌ This match belongs to another server, so nothing was changed."
        (refusal,) = await h.click(match, label, h.alice, channel_id=CHANNEL_ID + 5)  # this server, another channel
        assert refusal.content == "❌ This match belongs to another channel, so nothing was changed."
    (refusal,) = await h.click(hand, "Choose a card to play", h.alice, values=[value], **elsewhere)
    assert refusal.content == "❌ This match belongs to another server, so nothing was changed."
    assert dict(await match_row(h)) == dict(row)
    # In its own channel the same button acts.
    await h.click(match, "End turn", h.alice)
    assert (await match_row(h))["version"] == row["version"] + 1


async def test_two_clicks_at_once_play_one_move_and_the_other_is_shown_the_match_as_it_is(h):
    """No lock in memory orders them (two processes may serve the match): the versioned save takes the first."""
    posted = await h.run("mma ai", h.alice)
    (board,) = [m for m in posted if m.embeds]
    version = (await match_row(h))["version"]
    other = snapshot(board)
    before = set(asyncio.all_tasks())
    await h.click(board, "Skip draw", h.alice, wait=False)
    await h.click(other, "Skip draw", h.alice, wait=False)
    await h.settle(before)
    assert (await match_row(h))["version"] == version + 1  # one skip, not two
    notes = [m for m in h.messages if m.ephemeral and "so nothing was changed" in m.content]
    assert len(notes) == 1 and notes[0].content.startswith("⌛ These buttons were from an earlier moment of this match")
    assert [a.kind for a in await h.bot.get_cog("MMA").matches.repo.moves((await match_row(h))["id"])] == ["skip_draw"]


async def test_a_concession_that_loses_a_race_is_played_on_the_move_that_came_first(h):
    """Concede acts on the match as it is, so losing the race to another move concedes after that move."""
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    await h.click(challenge, "Accept", h.bob)
    (ask,) = await h.click(challenge, "Concede", h.alice)
    version = (await match_row(h))["version"]
    before = set(asyncio.all_tasks())
    await h.click(challenge, "Skip draw", h.alice, wait=False)
    await h.click(ask, "Yes, concede", h.alice, wait=False)
    await h.settle(before)
    row = await match_row(h)
    assert (row["status"], row["winner_slot"], row["result_reason"]) == (MatchStatus.OVER, 1, "conceded")
    moves = [a.kind for a in await h.bot.get_cog("MMA").matches.repo.moves(row["id"])]
    assert row["version"] == version + len(moves) and moves[-1] == "concede"


def last_post(h, before: int) -> dict:
    """The payload of the last message the bot posted since request number `before` (an interaction's answer
    or a channel message)."""
    for request in reversed(h.fake.requests[before:]):
        if request.path.endswith("/callback") and request.payload and request.payload.get("type") == 4:
            return request.payload["data"]
        if request.method == "POST" and request.path.endswith("/messages"):
            return request.payload or {}
    raise AssertionError("nothing was posted")


async def test_a_challenge_pings_the_challenged_member_and_only_them(h):
    before = len(h.fake.requests)
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    assert challenge.content == f"<@{h.alice.id}> challenges <@{h.bob.id}>"
    assert last_post(h, before)["allowed_mentions"] == {"parse": [], "users": [h.bob.id]}
    await h.click(challenge, "Accept", h.bob)
    (ask,) = await h.click(challenge, "Concede", h.alice)
    await h.click(ask, "Yes, concede", h.alice)
    before = len(h.fake.requests)
    (rematch,) = await h.click(challenge, "Rematch", h.alice)  # a rematch is a challenge too
    assert rematch.content == f"<@{h.alice.id}> challenges <@{h.bob.id}>"
    assert last_post(h, before)["allowed_mentions"] == {"parse": [], "users": [h.bob.id]}


async def test_a_takedown_preview_shows_the_chance_and_never_a_roll(h):
    match = await start_pvp(h)
    row = await match_row(h)
    state = await saved_state(h)
    alice, bob = state.players
    field_fighter(alice, "Islam Makhachev")
    field_fighter(bob, "Alex Pereira")
    alice.hand.append(take(alice, "Double Leg Takedown"))
    await write_state(h, row["id"], state)
    await h.click(match, "Skip draw", h.alice)
    (hand,) = await h.click(match, "My hand", h.alice)
    double_leg = card_named("Double Leg Takedown").id
    await h.click(hand, "Choose a card to play", h.alice, values=[str(double_leg)])
    pereira = card_named("Alex Pereira").stamina
    # Islam's Double Leg (10 + 3 + 2 = 15) against Pereira (grappling 4): 160%, held to 90%; impact 3 + 3 - 1 = 5.
    assert hand.field("If you play Double Leg Takedown now").split("\n") == [
        "**90%** chance to succeed; if it does:",
        f"{h.alice.mention}: **Double Leg Takedown** lands (50% + 10% × (15 − 4) = 160%, held to 90%): on top, "
        f"5 damage → stamina {pereira - 5}",
    ]
    await h.click(hand, "Play Double Leg Takedown", h.alice)
    (played,) = [line for line in match.field("Last actions").split("\n") if "**Double Leg Takedown**" in line]
    assert "= 160%, held to 90%; rolled " in played and ", needs under 90)" in played  # the move itself rolled


async def test_ringside_medic_at_full_stamina_is_marked_as_doing_nothing_now(h):
    match = await start_pvp(h)
    row = await match_row(h)
    state = await saved_state(h)
    alice = state.players[0]
    medic = take(alice, "Ringside Medic")
    alice.hand.append(medic)
    await write_state(h, row["id"], state)
    await h.click(match, "Skip draw", h.alice)
    (hand,) = await h.click(match, "My hand", h.alice)
    assert (
        f"💤 **Ringside Medic** · {CARDS[medic].summary()} — *does nothing now: your fighter is at full stamina*"
    ) in hand.description.split("\n")
    (option,) = [o for o in hand.component("Choose a card to play")["options"] if o["value"] == str(medic)]
    assert option["description"] == "Does nothing now: your fighter is at full stamina"  # still allowed
    await h.click(hand, "Choose a card to play", h.alice, values=[str(medic)])
    assert hand.field("If you play Ringside Medic now") == (
        "Nothing: your fighter is at full stamina, so it would only spend 2 energy."
    )

    # Once the fighter is hurt, the Medic heals and reads as any playable card.
    state = await saved_state(h)
    state.players[0].stamina -= 4
    await write_state(h, row["id"], state)
    await h.click(hand, "Refresh", h.alice)
    assert f"✅ **Ringside Medic** · {CARDS[medic].summary()}" in hand.description.split("\n")
    await h.click(hand, "Choose a card to play", h.alice, values=[str(medic)])
    fighter = state.players[0]
    assert hand.field("If you play Ringside Medic now") == (
        f"{h.alice.mention}: **Ringside Medic**, +4 stamina → {fighter.max_stamina}"
    )


async def test_a_mirror_match_names_the_player_with_the_fighter(h):
    match = await start_pvp(h)
    row = await match_row(h)
    state = await saved_state(h)
    alice, bob = state.players
    field_fighter(alice, "Tom Aspinall")
    field_fighter(bob, "Tom Aspinall")  # each deck holds every fighter once: both corners can send him in
    bob.stamina = 1
    bob.hand.append(take(bob, "Belal Muhammad"))
    jab = take(alice, "Quick Jab")
    alice.hand.append(jab)
    await write_state(h, row["id"], state)
    await h.click(match, "Skip draw", h.alice)
    (hand,) = await h.click(match, "My hand", h.alice)
    await h.click(hand, "Choose a card to play", h.alice, values=[str(jab)])
    foreseen = hand.field("If you play Quick Jab now").split("\n")
    assert foreseen[0].startswith(f"{h.alice.mention}: **Quick Jab** hits {h.bob.mention}'s Tom Aspinall for ")
    assert foreseen[1] == f"💥 **KO!** {h.bob.mention}'s Tom Aspinall is out; {h.bob.mention} loses 20 health (80 left)"
    await h.click(hand, "Play Quick Jab", h.alice)
    feed = match.field("Last actions").split("\n")
    assert feed[-2:] == foreseen


async def test_a_fighter_only_one_corner_sent_in_is_named_alone(h):
    match = await start_pvp(h)
    row = await match_row(h)
    state = await saved_state(h)
    alice, bob = state.players
    field_fighter(alice, "Tom Aspinall")
    field_fighter(bob, "Belal Muhammad")
    bob.stamina = 1
    jab = take(alice, "Quick Jab")
    alice.hand.append(jab)
    await write_state(h, row["id"], state)
    await h.click(match, "Skip draw", h.alice)
    (hand,) = await h.click(match, "My hand", h.alice)
    await h.click(hand, "Choose a card to play", h.alice, values=[str(jab)])
    await h.click(hand, "Play Quick Jab", h.alice)
    assert f"💥 **KO!** Belal Muhammad is out; {h.bob.mention} loses 20 health (80 left)" in match.field("Last actions")


async def test_a_match_posted_again_keeps_one_live_board(h):
    (first,) = [m for m in await h.run("mma ai", h.alice) if m.embeds]
    old = snapshot(first)  # as someone scrolled up would still have it, buttons and all
    (again,) = await h.run("mma ai", h.alice)
    row = await match_row(h)
    link = f"https://discord.com/channels/{GUILD_ID}/{CHANNEL_ID}/{again.id}"
    assert row["message_id"] == again.id and again.component("Skip draw")["disabled"] is False
    assert first.components == [] and first.content == f"↪️ Match #{row['id']} goes on in a newer message: {link}"

    # A click on the earlier board (a retirement Discord refused) changes nothing and retires it then.
    (note,) = await h.click(old, "Skip draw", h.alice)
    assert note.ephemeral and note.content == f"Nothing was changed: this match goes on in its newer message, {link}"
    assert first.components == [] and (await match_row(h))["version"] == row["version"]
    assert not_pings(await h.click(again, "Skip draw", h.alice)) == []  # the live board plays on
    assert (await match_row(h))["version"] == row["version"] + 1


async def test_a_board_posted_again_drops_here_it_is_again_once_its_match_ends(h):
    # Against the AI: conceded from the hand's question, so the board is redrawn on the channel's route.
    [m for m in await h.run("mma ai", h.alice) if m.embeds]
    (again,) = await h.run("mma ai", h.alice)
    row = await match_row(h)
    assert again.content == (
        f"You already have a match going here (match #{row['id']}): here it is again. Finish it, or concede, "
        "before starting another."
    )
    assert not_pings(await h.click(again, "Skip draw", h.alice)) == []  # while it goes on, the words stay
    assert again.content.startswith("You already have a match going here")
    (confirm,) = await h.click(again, "Concede", h.alice)
    assert not_pings(await h.click(confirm, "Yes, concede", h.alice)) == []
    assert again.content == "" and again.embed.title == "💀 DEFEAT 💀"
    assert again.component("Play again")

    # Between members: won from the board's own button (an idle claim), answered on the click.
    match = await start_pvp(h)
    await h.click(match, "End turn", h.alice)  # Bob's move now, and he stays idle
    (board,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    assert board.content.startswith("You already have a match going here")
    cog = h.bot.get_cog("MMA")
    start = cog.clock()
    cog.clock = lambda: start + 15 * 60 + 1
    assert not_pings(await h.click(board, "Claim win (opponent idle)", h.alice)) == []
    assert board.content == "" and board.embed.title == "🏆 Alice wins! 🏆"


async def test_a_board_clicked_before_its_id_is_stored_plays_and_is_not_retired(h):
    (board,) = [m for m in await h.run("mma ai", h.alice) if m.embeds]
    row = await match_row(h)
    async with h.bot.db.transaction() as conn:  # as just after a repost, before the new board's id is saved
        await conn.execute("UPDATE mma_matches SET message_id = ? WHERE id = ?", (board.id - 1, row["id"]))
    assert not_pings(await h.click(board, "Skip draw", h.alice)) == []  # the newer board plays
    assert (await match_row(h))["version"] == row["version"] + 1 and board.components != []


async def test_a_match_posted_again_after_its_board_was_deleted(h):
    (first,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    await h.click(first, "Accept", h.bob)
    del h.fake.messages[first.id]  # someone deleted the board
    (again,) = await h.run("mma challenge", h.alice, opponent=CAROL)
    assert again.content.startswith("You already have a match going here")
    assert (await match_row(h))["message_id"] == again.id
    assert again.component("Draw")["disabled"] is False


async def test_a_process_watches_the_idle_claims_of_its_own_shards_only(h):
    match = await start_pvp(h)
    await h.click(match, "Skip draw", h.alice)
    row = await match_row(h)
    guild_shard = (GUILD_ID >> 22) % 2
    h.settings.shard_count, h.settings.shard_ids = 2, str(1 - guild_shard)  # another process serves this server
    assert not h.bot.serves_guild(GUILD_ID)
    await h.restart()
    assert row["id"] not in h.bot.get_cog("MMA").matches.claim_openings.timers


async def test_a_damaged_saved_match_is_the_bots_fault_with_an_error_id_and_one_log_line(h, caplog):
    challenge = await start_pvp(h)
    match_id = (await match_row(h))["id"]
    async with h.bot.db.transaction() as conn:  # a row no release wrote: its state has no players
        await conn.execute("UPDATE mma_matches SET state_json = ? WHERE id = ?", ('{"version": 1}', match_id))
    caplog.clear()
    (reply,) = await h.click(challenge, "My hand", h.alice)
    assert reply.ephemeral and reply.content.startswith(
        "⚠️ This MMA match's saved state is damaged; the bot's operator has been told (error id `"
    )
    error_id = reply.content.split("`")[1]
    assert reply.content.endswith(f"(error id `{error_id}`).") and len(error_id) == 8
    (logged,) = [r for r in caplog.records if r.name == "arena.errors"]
    assert logged.getMessage() == (
        f"error {error_id}: saved MMA match {match_id} is damaged "
        "(RuleInputError: saved MMA match is damaged (KeyError: 'seed'))"
    )
    assert logged.exc_info is None  # the row says it all: no traceback
