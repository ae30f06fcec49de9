"""What a player sees of their hand: every card with what it does and whether it plays now, the chosen card's
preview, and the buttons to play it. All within Discord's limits."""

from __future__ import annotations

import discord

from cogs.common import COLOR_INFO, EmbedLimits, clip, fit_embed, lines_within
from cogs.mma.items import PLAY, hand_select, match_button
from cogs.mma.matches.notes import feed_lines
from cogs.mma.matches.render import both_called, called
from rules.mma.cards import CARDS
from rules.mma.engine import FIGHTERS_IN_HAND_LIMIT, HAND_LIMIT, MAX_ENERGY, CardOption, card_options
from rules.mma.preview import preview
from rules.mma.state import DRAW_PHASE, OVER, REPLACE_PHASE
from storage.mma import Match

SELECT_DESCRIPTION = 100


def preview_field(match: Match, slot: int, card: int) -> str | None:
    """What the chosen card would do now, in the feed's words (rules.mma.preview plays it on a copy)."""
    shown = preview(match.game, slot, card)
    if shown is None:
        return None
    lines = feed_lines(shown.events, both_called(match), match.game)
    if shown.success_percent is not None:
        lines.insert(0, f"**{shown.success_percent}%** chance to succeed; if it does:")
    return lines_within(lines, EmbedLimits.FIELD_VALUE) or "Nothing visible happens."


def card_line(option: CardOption) -> str:
    """A card of the hand: marked playable, playable to no effect, or not playable now, with why."""
    card = CARDS[option.card]
    count = f" ×{option.copies}" if option.copies > 1 else ""
    mark = "▫️" if option.problem is not None else "💤" if option.no_effect is not None else "✅"
    why = (
        f" — *{option.problem}*"
        if option.problem
        else f" — *does nothing now: {option.no_effect}*"
        if option.no_effect
        else ""
    )
    return f"{mark} **{card.name}**{count} · {card.summary()}{why}"


def add_play_controls(
    view: discord.ui.View, match: Match, playable: list[CardOption], selected: int | None, *, replacing: bool
) -> None:
    """The select of the cards that play now, and the button that plays the one selected."""
    choices = [
        discord.SelectOption(
            label=clip(CARDS[o.card].name + (f" ×{o.copies}" if o.copies > 1 else ""), 100),
            value=str(o.card),
            description=clip(
                f"Does nothing now: {o.no_effect}" if o.no_effect else CARDS[o.card].summary(), SELECT_DESCRIPTION
            ),
            default=o.card == selected,
        )
        for o in playable[:25]
    ]
    placeholder = "Choose your next fighter" if replacing else "Choose a card to play"
    view.add_item(hand_select(match.id, match.version, choices, placeholder, row=0))
    verb = "Deploy" if replacing else "Play"
    label = f"{verb} {CARDS[selected].name}" if selected is not None else verb
    view.add_item(
        match_button(
            match.id,
            match.version,
            PLAY,
            card=selected,
            label=label,
            style=discord.ButtonStyle.success,
            disabled=selected is None,
            row=1,
        )
    )


def hand_status(match: Match, slot: int) -> str:
    """Whose move it is, as the hand's player reads it."""
    state = match.game
    me = state.players[slot]
    if state.phase == OVER:
        return "The match is over."
    if state.to_move != slot:
        return f"Waiting for {called(match, state.to_move)}."
    if state.phase == REPLACE_PHASE and state.replacing == slot:
        return "Your fighter was knocked out: choose who comes in."
    if state.phase == DRAW_PHASE:
        status = "Draw or skip the draw on the match message first."
        return status + (" Then choose your next fighter here." if not me.has_fighter else "")
    return f"Your move: {me.energy} energy to spend."


def hand_message(
    match: Match, slot: int, selected: int | None = None, note: str | None = None
) -> tuple[str, discord.Embed, discord.ui.View]:
    """A player's private view of their hand: every card with what it does and whether it plays now."""
    state = match.game
    me = state.players[slot]
    options = card_options(state, slot)
    replacing = state.phase == REPLACE_PHASE and state.replacing == slot
    embed = discord.Embed(
        title=f"🃏 {match.names[slot]}'s hand ({len(me.hand)}/{HAND_LIMIT})",
        description="\n".join(card_line(option) for option in options) or "Your hand is empty.",
        color=COLOR_INFO,
    )
    embed.set_footer(
        text=f"Energy {me.energy}/{MAX_ENERGY} · deck {len(me.deck)} · fighters in hand "
        f"{me.fighters_in_hand()}/{FIGHTERS_IN_HAND_LIMIT} · match #{match.id}"
    )
    view = discord.ui.View(timeout=None)
    playable = [o for o in options if o.problem is None]
    if selected is not None and selected not in {o.card for o in playable}:
        selected = None
    if selected is not None:
        wasted = next((o.no_effect for o in playable if o.card == selected), None)
        shown = (
            f"Nothing: {wasted}, so it would only spend {CARDS[selected].cost} energy."
            if wasted
            else preview_field(match, slot, selected)
        )
        if shown is not None:
            embed.add_field(name=f"If you play {CARDS[selected].name} now", value=shown, inline=False)
    if playable:
        add_play_controls(view, match, playable, selected, replacing=replacing)
    view.add_item(match_button(match.id, match.version, "hand", label="Refresh", emoji="🔄", row=1))
    status = hand_status(match, slot)
    content = f"{note}\n{status}" if note else status
    return clip(content, EmbedLimits.MESSAGE), fit_embed(embed), view
