"""What /mma shows of a match: its public message, the challenge, the ping, the rules. All within limits; a player's
hand is drawn in `hand_render`, ratings and past matches in `cogs.mma.rivalry.render`."""

from __future__ import annotations

import math

import discord

from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    EmbedLimits,
    bold,
    fit_embed,
    hp_bar,
    mention,
    seed_footer,
    tail_within,
)
from cogs.mma.items import match_button
from rules.mma.cards import CARDS
from rules.mma.engine import (
    HAND_LIMIT,
    IDLE_MINUTES,
    IDLE_SECONDS,
    MAX_ENERGY,
    idle_minutes_left,
    moves_made,
    outcome,
)
from rules.mma.state import DRAW_PHASE, MAIN_PHASE, OVER, REPLACE_PHASE, GameState, MatchOutcome
from rules.mma.text import rules_summary
from rules.rating import Result
from rules.text import plural
from storage.mma import Match, MatchStatus

CORNER_MARKS = ("🔴", "🔵")
RATINGS_MEANING = (
    "Matches between members are rated on the Elo scale, as on chess sites: everyone starts at 1500, and 200 points "
    "ahead means winning about 3 games in 4 (400 points: about 10 in 11). A `?` marks a provisional rating, for about "
    "the first 12 rated games; matches against the AI are not rated."
)


def player_called(user_id: int | None, name: str) -> str:
    """A player where Discord renders mentions (content, descriptions, field values, the feed): their mention,
    or the AI's name. Titles, footers and field names use the escaped display name (`match.names`)."""
    return mention(user_id) if user_id is not None else name


def called(match: Match, slot: int) -> str:
    return player_called(match.player_ids[slot], match.names[slot])


def both_called(match: Match) -> tuple[str, str]:
    return called(match, 0), called(match, 1)


def fighter_block(match: Match, state: GameState, slot: int) -> str:
    me = state.players[slot]
    lines: list[str] = []
    if not me.has_fighter:
        if state.phase == OVER:
            lines.append("*No fighter left*")
        elif state.phase == DRAW_PHASE:
            lines.append("*No fighter: the next one comes in after the draw*")
        else:
            lines.append("*No fighter: picking the next one from hand*")
    else:
        fighter = CARDS[me.fighter]
        badge = " · ⭐ **ADVANTAGE**" if state.advantage == slot else ""
        lines.append(f"**{fighter.name}** · {fighter.style}{badge}")
        training = f" ✨**+{me.training}**" if me.training else ""
        coach = f" (Master Coach +{me.coach})" if me.coach else ""
        lines.append(f"STR {me.striking}{training} · GRP {me.grappling} · DEF {me.defense}{coach}")
        lines.append(f"Stamina `{hp_bar(me.stamina, me.max_stamina, width=12)}`")
    lines.append(f"❤️ Health **{me.health}**/100 · ⚡ Energy **{me.energy}**/{MAX_ENERGY}")
    lines.append(f"🃏 Hand {len(me.hand)}/{HAND_LIMIT} · Deck {len(me.deck)} · KOs suffered {me.knockouts}")
    statuses: list[str] = []
    if me.bleed:
        statuses.append(f"🩸 Bleeding ({plural(me.bleed, 'turn')})")
    if me.staggered:
        statuses.append("💫 Staggered: skips next turn")
    if me.has_guard:
        statuses.append(f"🛡️ {CARDS[me.guard].name} ready")
    if statuses:
        lines.append(" · ".join(statuses))
    return "\n".join(lines)


def _status_line(match: Match, state: GameState) -> str:
    mover = state.to_move
    name = called(match, mover)
    turn = state.players[state.current].turns
    if state.phase == REPLACE_PHASE:
        return f"💥 {name}: pick your next fighter from **My hand**."
    if state.phase == DRAW_PHASE:
        if not state.players[mover].has_fighter:
            return (
                f"💥 {name}, turn {turn}: your fighter bled out. **Draw** or **Skip draw**, then pick "
                "your next fighter from **My hand**."
            )
        return f"▶ {name}, turn {turn}: **Draw** or **Skip draw**."
    return f"▶ {name}, turn {turn}: play cards from **My hand**, then **End turn**."


def _position_line(match: Match, state: GameState) -> str:
    on_top = state.on_top
    if on_top is None:
        return "🧍 Both fighters standing"
    return f"🤼 On the ground: {called(match, on_top)} on top"


def end_title(match: Match, ended: MatchOutcome) -> tuple[str, str, discord.Color]:
    reason, winner_slot = ended.termination.label, ended.winner
    if winner_slot is None:
        return "🤝 DRAW 🤝", f"Nobody won: {reason}.", COLOR_INFO
    winner, loser = called(match, winner_slot), called(match, 1 - winner_slot)
    if match.vs_ai:
        if winner_slot == 0:
            return "🏆 VICTORY! 🏆", f"{winner} defeated the AI! {reason}.", COLOR_VICTORY
        return "💀 DEFEAT 💀", f"{loser} was defeated! {reason}.", COLOR_DEFEAT
    return f"🏆 {match.names[winner_slot]} wins! 🏆", f"{loser} was defeated! {reason}.", COLOR_VICTORY


def _claim_line(match: Match, state: GameState, now: float) -> str:
    """When the player kept waiting may claim the win. The time is a Discord timestamp, which counts down by
    itself; the board is redrawn when the claim opens (cogs.mma.matches.claims)."""
    mover, waiting = called(match, state.to_move), called(match, 1 - state.to_move)
    opens = match.last_move_at + IDLE_SECONDS
    if now >= opens:
        return f"⏱️ {mover} has not moved for {IDLE_MINUTES} minutes: {waiting} can claim the win."
    return f"⏱️ If {mover} does not move, {waiting} can claim the win <t:{math.ceil(opens)}:R>."


def match_embed(match: Match, now: float) -> discord.Embed:
    """The match's message; `now` (seconds since the epoch) places the idle claim."""
    state = match.game
    ended = outcome(state)
    if ended is not None:
        title, head, color = end_title(match, ended)
    else:
        title, color = f"🥊 {match.names[0]} vs {match.names[1]}", COLOR_INFO
        head = f"{_status_line(match, state)}\n{_position_line(match, state)}"
        if not match.vs_ai:
            head += f"\n{_claim_line(match, state, now)}"
    head += rating_change_lines(match)
    embed = discord.Embed(title=title, description=head, color=color)
    for slot in (0, 1):
        marker = " ▶" if state.phase != OVER and state.to_move == slot else ""
        embed.add_field(
            name=f"{CORNER_MARKS[slot]} {match.names[slot]}{marker}",
            value=fighter_block(match, state, slot),
            inline=True,
        )
    embed.add_field(name="Last actions", value=tail_within(match.feed, EmbedLimits.FIELD_VALUE), inline=False)
    embed.set_footer(text=seed_footer(match.seed, f"match #{match.id}", f"move {state.moves}"))
    return fit_embed(embed)


def match_view(match: Match, now: float) -> discord.ui.View:
    """The match's buttons; Claim win is on only once the player the match waits for has been idle long enough."""
    view = discord.ui.View(timeout=None)
    state = match.game
    if state.phase == OVER:
        label = "Play again" if match.vs_ai else "Rematch"
        view.add_item(
            match_button(match.id, match.version, "again", label=label, style=discord.ButtonStyle.primary, emoji="🔁")
        )
        return view
    v = match.version
    drawing = state.phase == DRAW_PHASE
    view.add_item(
        match_button(match.id, v, "hand", label="My hand", style=discord.ButtonStyle.primary, emoji="🃏", row=0)
    )
    view.add_item(
        match_button(match.id, v, "draw", label="Draw", style=discord.ButtonStyle.success, disabled=not drawing, row=0)
    )
    view.add_item(match_button(match.id, v, "skip", label="Skip draw", disabled=not drawing, row=0))
    # A fighter who bled out at the turn's start is replaced after the draw step, before the turn can end.
    can_end = state.phase == MAIN_PHASE or (drawing and state.players[state.current].has_fighter)
    view.add_item(match_button(match.id, v, "end", label="End turn", disabled=not can_end, row=0))
    view.add_item(match_button(match.id, v, "concede", label="Concede", style=discord.ButtonStyle.danger, row=0))
    if not match.vs_ai:
        claim_closed = idle_minutes_left(now - match.last_move_at) > 0
        view.add_item(
            match_button(
                match.id, v, "claim", label="Claim win (opponent idle)", emoji="⏱️", disabled=claim_closed, row=1
            )
        )
    return view


def board_link(match: Match) -> str:
    """The link to the match's message (its board), or "" while it has none."""
    if match.message_id is None:
        return ""
    return f"https://discord.com/channels/{match.guild_id}/{match.channel_id}/{match.message_id}"


def ping_text(match: Match, user_id: int) -> str:
    """The short message that calls a member to their match: it mentions them and links the board."""
    state = match.game
    what = "pick your next fighter" if state.phase == REPLACE_PHASE else "your move"
    link = f" {board_link(match)}" if match.message_id is not None else ""
    return f"🥊 {mention(user_id)}, {what} in MMA Warriors match #{match.id}.{link}"


def moved_text(match: Match) -> str:
    """What an earlier board of a match says once the match was posted again: its buttons are gone."""
    return f"↪️ Match #{match.id} goes on in a newer message: {board_link(match)}"


def challenge_message(match: Match) -> tuple[str, discord.Embed]:
    """The challenge message's text and embed: open while pending (with `challenge_buttons`), else closed."""
    challenger, opponent = called(match, 0), called(match, 1)
    content = f"{challenger} challenges {opponent}"
    if match.status == MatchStatus.PENDING:
        embed = discord.Embed(
            title="🥊 MMA Warriors challenge!",
            description=f"{challenger} challenges {opponent} to a match. {opponent}: accept or decline. "
            f"(It lapses after {IDLE_MINUTES} minutes; {challenger} can withdraw it with Decline.)",
            color=COLOR_INFO,
        )
    else:
        words = {
            MatchStatus.DECLINED: f"{opponent} declined the challenge.",
            MatchStatus.EXPIRED: "The challenge lapsed unanswered.",
        }
        embed = discord.Embed(
            title="🥊 Challenge closed", description=words.get(match.status, match.status), color=COLOR_DEFEAT
        )
    return content, fit_embed(embed)


def challenge_buttons(match: Match) -> discord.ui.View:
    """A pending challenge's Accept and Decline."""
    view = discord.ui.View(timeout=None)
    view.add_item(match_button(match.id, match.version, "accept", label="Accept", style=discord.ButtonStyle.success))
    view.add_item(match_button(match.id, match.version, "decline", label="Decline", style=discord.ButtonStyle.danger))
    return view


def rules_embed() -> discord.Embed:
    embed = discord.Embed(
        title="📖 MMA Warriors: the rules in short", description=rules_summary(bold), color=COLOR_INFO
    )
    embed.add_field(name="Ratings", value=RATINGS_MEANING, inline=False)
    embed.set_footer(text="/mma challenge @someone, or /mma ai to fight the AI.")
    return fit_embed(embed)


RESULT_MARKS = {Result.WIN: "📈", Result.LOSS: "📉", Result.DRAW: "➖"}
NOT_RATED = "\n🤖 Not rated: matches against the AI never are."
NOT_RATED_FORFEIT = "\n🏳️ Not rated: a tournament board that ends before any move is a forfeit."


def rating_change_lines(match: Match) -> str:
    """What a finished match did to ratings: each member's change, a line each (`📈 @Alice: 1512 → 1528 (+16)`,
    📉 for the loser, ➖ for a draw), and a line for a member it made established; that it was not rated, for a
    match against the AI; nothing for a match not over."""
    ended = outcome(match.game)
    if ended is None:
        return ""
    if match.vs_ai:
        return NOT_RATED
    if not match.rating_changes and moves_made(match.game) == 0:
        return NOT_RATED_FORFEIT
    lines: list[str] = []
    for slot, user_id in enumerate(match.player_ids):
        change = match.rating_changes.get(user_id) if user_id is not None else None
        if change is None:
            continue
        result = Result.of_slot(slot, ended.winner)
        lines.append(f"\n{RESULT_MARKS[result]} {called(match, slot)}: {change.text()}")
        if change.established_now:
            lines.append(
                f"\n🎖️ {called(match, slot)} is now established: {change.after.text_with_deviation()}, "
                "no longer provisional."
            )
    return "".join(lines)
