"""The words of a match beside its board: the feed's lines, the private notes a move answers with, and why a
move is refused."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs.common import bold, markdown_safe
from cogs.mma.matches import render
from rules.mma.cards import CARDS
from rules.mma.engine import new_game
from rules.mma.state import DEPLOY, OVER, PLAY, REPLACE_PHASE, Action, Event, GameState
from rules.mma.text import describe, shared_fighters
from storage.mma import Match

NAME_LIMIT = 40
MOVED = "🔄 The match moved on: this is your hand now."


def display_name(user: discord.abc.User) -> str:
    return markdown_safe(user.display_name, NAME_LIMIT)


def feed_lines(events: Sequence[Event], names: tuple[str, str], state: GameState) -> list[str]:
    """The feed's lines for what happened, up to `state` (a fighter both corners sent in is named with its player)."""
    shared = shared_fighters(state)
    return [line for line in (describe(e, names, shared, strong=bold) for e in events) if line]


def dealt(seed: int, called: tuple[str, str]) -> tuple[GameState, list[str]]:
    """A new match dealt from `seed`, and the feed's lines of the deal (`called`: how its two corners are named)."""
    state, events = new_game(seed)
    return state, feed_lines(events, called, state)


def explain(match: Match, slot: int, problem: str) -> str:
    """The engine's `problem` with a move by `slot`, as the player is told it."""
    state = match.game
    if state.phase != OVER and state.to_move != slot:
        waiting = " to pick a fighter" if state.phase == REPLACE_PHASE else ""
        return f"It is not your turn: waiting for {render.called(match, state.to_move)}{waiting}."
    return problem[0].upper() + problem[1:] + "."


def draw_note(event: Event) -> str:
    if event.kind == "draw_failed":
        return "No card drawn: only fighters are left in your deck and you already hold two."
    discarded: int = event.numbers["discarded"]
    extra = (
        f" Your hand was full, so the oldest card, {CARDS[discarded].name}, was discarded." if discarded >= 0 else ""
    )
    return f"🃏 You drew **{CARDS[event.card].name}**.{extra}"


def card_note(action: Action) -> str:
    verb = "Deployed" if action.kind == DEPLOY else "Played"
    return f"{verb} **{CARDS[action.card].name}**."


def hand_note(slot: int, action: Action, events: list[Event]) -> str:
    """The note a hand view shows after the player's card, with the card they drew at once."""
    note = card_note(action)
    drawn = [e for e in events if e.player == slot and e.kind in ("draw", "draw_failed")]
    if action.kind == PLAY and drawn:
        note += " " + draw_note(drawn[0])
    return note
