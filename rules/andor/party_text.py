"""Plain-text lines for a party fight's events, shared by the bot and the worked example's test: each says who
did what to whom."""

from __future__ import annotations

from rules.andor.party import (
    TIMEOUTS_TO_LEAVE,
    DrinkEvent,
    FleeTryEvent,
    KnockOutEvent,
    LeaveEvent,
    PartyEvent,
    PartyTurnEvent,
    ShareEvent,
    TimeoutEvent,
)
from rules.andor.text import describe_event
from rules.text import Mark, plain, plural

PARTY_ENDS = {
    "won": "Victory for the party",
    "lost": "The party is defeated",
    "fled": "The party left the fight",
    "draw": "A draw: no damage for 20 rounds",
}


def describe_party_event(event: PartyEvent, shown: Mark = plain, strong: Mark = plain) -> str:
    """One line of the party fight's feed; `shown` formats names, `strong` a critical hit, a kill, a knock-out."""
    if isinstance(event, ShareEvent):
        shares = ", ".join(f"{shown(s.member)} +{s.xp} XP +{s.gold}g" for s in event.shares)
        return f"{shown(event.monster)} gave {event.xp} XP and {plural(event.gold, 'gold piece')}: {shares}"
    if isinstance(event, PartyTurnEvent):
        if event.member is None:
            return "The monsters' turn" if event.round else "The monsters strike first"
        return f"Round {event.round}: {shown(event.member)}'s turn, {event.ap} AP"
    if isinstance(event, DrinkEvent):
        return f"{shown(event.member)} drinks a potion: +{event.healed} HP → {event.hp} HP, {event.potions_left} left"
    if isinstance(event, FleeTryEvent):
        if event.escaped:
            return f"{shown(event.member)} flees: rolled {event.roll} ≤ {event.chance}%, escaped"
        return f"{shown(event.member)} tries to flee: rolled {event.roll} > {event.chance}%, failed; the turn ends"
    if isinstance(event, KnockOutEvent):
        return f"{shown(event.member)} is {strong('knocked out')}"
    if isinstance(event, TimeoutEvent):
        return f"{shown(event.member)}'s time ran out ({event.in_a_row} of {TIMEOUTS_TO_LEAVE} in a row)"
    if isinstance(event, LeaveEvent):
        why = {
            "timeouts": f"{TIMEOUTS_TO_LEAVE} turns ran out in a row",
            "removed": "removed by a game master",
            "gone": "left the server",
        }[event.reason]
        return f"{shown(event.member)} leaves the fight ({why})"
    if event.kind == "end":
        return PARTY_ENDS[event.result]
    return describe_event(event, shown, strong)
