"""Plain-text lines for MMA Warriors events (the action feed), with the numbers behind each result.

Public lines never name a drawn card: the feed is shown to both players.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rules.mma.cards import CARDS
from rules.mma.state import NO_ONE, EndReason, Event, GameState
from rules.text import Mark, plain, plural

# The rules in short, a heading and its text a line: `rules_summary` joins them.
_RULES = (
    (
        "MMA Warriors",
        "— two corners, one 75-card deck each (15 fighters, 24 techniques ×2, 3 corner cards ×4).",
    ),
    (
        "Start:",
        "100 health; an opening hand of 1 fighter (deployed at once) + 4 cards. Player 1 goes first.",
    ),
    (
        "Your turn:",
        "energy = 8 + 2 per turn after the first (max 16, never carried over); both start on 8. "
        "Bleed ticks, then Draw (or Skip draw), then play cards and End turn.",
    ),
    (
        "Drawing:",
        "hand limit 10 (a draw into a full hand discards the oldest card); at most 2 fighters in hand, "
        "a third is passed under the deck. An empty deck at your draw step loses (deck out).",
    ),
    (
        "Strikes:",
        "card + striking + Intense Training − defense (+2 Striker), at least the card's damage. "
        "Any strike but Ground and Pound stands the fight up.",
    ),
    (
        "Ground and Pound:",
        "needs your advantage; the strike's sum gains 3 + grappling/4 before the card-damage "
        "minimum is applied; keeps the position.",
    ),
    (
        "Takedowns:",
        "chance 50% + 10% per point of (grappling + card bonus + 2 Grappler) over the defender's "
        "grappling (−1/−2/−3 below 70/50/30% stamina), 10–90%. Success: you get the advantage and deal card + "
        "grappling/3 − their grappling/3. Win or lose, their waiting defense card is gone.",
    ),
    (
        "Submissions:",
        "need the ground; card damage (60% from the bottom) + your grappling (+2 Grappler) − "
        "theirs, at least the base.",
    ),
    (
        "Defense:",
        "Block −5; Parry −3, counter 3 + striking/4; Slip Counter −8, counter 4. One waits at a time "
        "for the next strike or submission; every hit does at least 1. Cutting Elbow (bleed 2 × 2 turns) and "
        "Spinning Back Fist (skip a turn) need a clean hit.",
    ),
    (
        "Corner:",
        "Master Coach +1 all stats for good and draw 1; Intense Training +3 striking until your next "
        "strike; Ringside Medic +10 stamina.",
    ),
    (
        "KO:",
        "at 0 stamina the fighter is out, you lose 20 health and pick a fighter from your hand; a fighter "
        "who bleeds out at the start of your turn is replaced after your Draw (or Skip draw), so the card drawn may "
        "be the one.",
    ),
    (
        "You lose",
        "at 0 health, with no fighter in hand after a KO, or by deck out. After 100 turns each the "
        "judges give it to the higher health (equal: a draw). An idle opponent (15 minutes) can be claimed.",
    ),
)


def rules_summary(strong: Mark = plain) -> str:
    """The rules in short, one paragraph a rule, its heading marked with `strong`."""
    return "\n".join(f"{strong(heading)} {text}" for heading, text in _RULES)


def _name(card: int) -> str:
    return CARDS[card].name if card != NO_ONE else "nobody"


def _fighter_hint(numbers: Mapping[str, Any]) -> str:
    return f" → stamina {numbers['stamina']}" if "stamina" in numbers else ""


def _floored(raw: int, floor: int) -> str:
    """`= raw`, and the floor when it lifts the damage (damage is never below the card's)."""
    return f" = {raw}" + (f" → at least {floor}" if raw < floor else "")


def _defended(numbers: Mapping[str, Any]) -> str:
    """The waiting defense card's part of an attack's sum, if there was one."""
    if numbers["guard"] == NO_ONE:
        return ""
    left = numbers["before_defense"] - numbers["reduction"]
    return f", − {numbers['reduction']} {_name(numbers['guard'])} = {left}" + (" → at least 1" if left < 1 else "")


def shared_fighters(state: GameState) -> frozenset[int]:
    """The fighters both corners have sent in during the match (a mirror match): a line naming one of them
    must say whose it is."""
    first, second = state.players
    return frozenset(first.fielded) & frozenset(second.fielded)


@dataclass(frozen=True)
class _Scene:
    """What a feed line may say about its event, worked out once: the names and the marked parts."""

    event: Event
    who: str  # the event's player
    card: str  # the event's card, marked
    damage: str  # the damage, marked ("" where the event has none)
    owned: str  # the event's card as a fighter: in the events that name one, the event's player is its owner
    target: str  # the fighter hit, as `owned` names it
    strong: Mark

    @property
    def numbers(self) -> Mapping[str, Any]:
        return self.event.numbers


def _turn(s: _Scene) -> str:
    return f"— {s.who}, turn {s.numbers['turn']}: {s.numbers['energy']} energy"


def _end_turn(s: _Scene) -> None:
    return None


def _deploy(s: _Scene) -> str:
    return f"{s.who} sends in {s.card} ({s.numbers['stamina']} stamina)"


def _draw(s: _Scene) -> str:
    n = s.numbers
    extra: list[str] = []
    if n["fighters_skipped"]:
        extra.append(f"{plural(n['fighters_skipped'], 'fighter')} passed under the deck")
    if n["discarded"] != NO_ONE:
        extra.append(f"full hand: discards the oldest card, {_name(n['discarded'])}")
    return f"{s.who} draws ({n['deck']} left in deck)" + (f"; {'; '.join(extra)}" if extra else "")


def _draw_failed(s: _Scene) -> str:
    return f"{s.who} cannot draw: only fighters left in the deck and two already in hand"


def _skip_draw(s: _Scene) -> str:
    return f"{s.who} skips the draw"


def _bleed(s: _Scene) -> str:
    n = s.numbers
    return f"{s.owned} bleeds for {n['damage']} ({plural(n['ticks_left'], 'tick')} left) → stamina {n['stamina']}"


def _staggered(s: _Scene) -> str:
    return f"{s.owned} is staggered: {s.who} skips this turn"


def _strike(s: _Scene) -> str:
    n = s.numbers
    parts = [f"{n['card']} card", f"+ {n['striking']} STR"]
    if n["bonus"]:
        parts.append(f"+ {n['bonus']} training")
    parts.append(f"− {n['defense']} DEF")
    if n["style"]:
        parts.append(f"+ {n['style']} Striker")
    if n["ground_and_pound"]:
        parts.append(f"+ {n['ground_and_pound']} G&P")
    formula = " ".join(parts) + _floored(n["raw"], n["card"])
    return f"{s.who}: {s.card} hits {s.target} for {s.damage} ({formula}{_defended(n)}){_fighter_hint(n)}"


def _submission(s: _Scene) -> str:
    n = s.numbers
    position = "from top" if n["on_top"] else f"from bottom (60% of {n['card']})"
    formula = f"base {n['base']} {position} + {n['grappling']} GRP − {n['defense']} GRP" + _floored(n["raw"], n["base"])
    return f"{s.who}: {s.card} on {s.target} for {s.damage} ({formula}{_defended(n)}){_fighter_hint(n)}"


def _takedown(s: _Scene) -> str:
    n = s.numbers
    penalty = n["penalty"]
    defender = f"({n['defender_score'] + penalty} − {penalty} tired)" if penalty else f"{n['defender_score']}"
    unclamped = 50 + 10 * (n["attacker_score"] - n["defender_score"])
    chance = n["chance_tenths"] * 10
    odds = f"50% + 10% × ({n['attacker_score']} − {defender}) = {unclamped}%"
    if unclamped != chance:
        odds += f", held to {chance}%"
    if "roll" in n:  # a takedown foreseen (the hand view's preview) has not been rolled
        # Success is roll * 100 < chance, so the whole-number part of the roll is the honest figure to show.
        odds += f"; rolled {int(n['roll'] * 100)}, needs under {chance}"
    cleared = f"; clears {_name(n['cleared'])}" if n["cleared"] != NO_ONE else ""
    if not n["success"]:
        return f"{s.who}: {s.card} stuffed ({odds}){cleared}"
    return f"{s.who}: {s.card} lands ({odds}): on top, {n['impact']} damage{_fighter_hint(n)}{cleared}"


def _counter(s: _Scene) -> str:
    return f"{s.who}'s {s.card} counters for {s.damage} → attacker stamina {s.numbers['stamina']}"


def _bleeding(s: _Scene) -> str:
    return f"{s.owned} is cut: bleeds 2 a turn for {s.numbers['ticks']} turns"


def _stagger(s: _Scene) -> str:
    return f"{s.owned} is staggered: {s.who} skips the next turn"


def _guard(s: _Scene) -> str:
    replaced = s.numbers["replaced"]
    return f"{s.who} readies {s.card}" + (f" (replaces {_name(replaced)})" if replaced != NO_ONE else "")


def _coach(s: _Scene) -> str:
    coach = s.numbers["coach"]
    return f"{s.who}: {s.strong('Master Coach')}, +1 striking, grappling and defense for good (now +{coach})"


def _training(s: _Scene) -> str:
    return f"{s.who}: {s.strong('Intense Training')}, +{s.numbers['bonus']} striking waiting for the next strike"


def _medic(s: _Scene) -> str:
    n = s.numbers
    return f"{s.who}: {s.strong('Ringside Medic')}, +{n['healed']} stamina → {n['stamina']}"


def _knockout(s: _Scene) -> str:
    n = s.numbers
    return f"💥 {s.strong('KO!')} {s.owned} is out; {s.who} loses {n['health_lost']} health ({n['health']} left)"


def _over(s: _Scene) -> str:
    reason = EndReason(s.numbers["reason"]).label
    if s.event.player == NO_ONE:
        return f"🏁 Draw — {reason}"
    return f"🏆 {s.who} wins — {reason}"


# The feed line of each kind of event (rules.mma.engine makes them); None: bookkeeping, not shown.
_LINES: Mapping[str, Callable[[_Scene], str | None]] = {
    "turn": _turn,
    "end_turn": _end_turn,
    "deploy": _deploy,
    "draw": _draw,
    "draw_failed": _draw_failed,
    "skip_draw": _skip_draw,
    "bleed": _bleed,
    "staggered": _staggered,
    "strike": _strike,
    "submission": _submission,
    "takedown": _takedown,
    "counter": _counter,
    "bleeding": _bleeding,
    "stagger": _stagger,
    "guard": _guard,
    "coach": _coach,
    "training": _training,
    "medic": _medic,
    "knockout": _knockout,
    "over": _over,
}


def describe(event: Event, players: Sequence[str], shared: Collection[int] = (), strong: Mark = plain) -> str | None:
    """One feed line for `event` (`players` are the two display names), or None for bookkeeping. A fighter in
    `shared` (`shared_fighters`) is named with its player: "Bob's Tom Aspinall". The card played and the damage
    it did are marked with `strong`."""
    who = players[event.player] if event.player in (0, 1) else ""
    other = players[1 - event.player] if event.player in (0, 1) else ""
    n = event.numbers

    def fighter(card: int, owner: str) -> str:
        return f"{owner}'s {_name(card)}" if card in shared else _name(card)

    scene = _Scene(
        event=event,
        who=who,
        card=strong(_name(event.card)),
        damage=strong(str(n["damage"])) if "damage" in n else "",
        owned=fighter(event.card, who),
        target=fighter(n["target"], other) if "target" in n else f"{other}'s fighter",
        strong=strong,
    )
    line = _LINES.get(event.kind)
    return line(scene) if line is not None else f"{who}: {event.kind}"
