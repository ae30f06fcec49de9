"""Plain-text lines for fight events and simulation summaries, shared by the CLI and the bot."""

from __future__ import annotations

from rules.andor.models import AttackEvent, EndEvent, Event, FleeEvent, PotionEvent, TurnEvent, hundredths
from rules.andor.simulate import SimulationResult
from rules.csvio import format_number


def describe_event(event: Event) -> str:
    if isinstance(event, AttackEvent):
        head = f"{event.attacker} → {event.target}"
        if not event.hit:
            return f"{head}: miss (rolled {event.roll} > {event.hit_chance}%)"
        crit = ""
        if event.critical:
            crit = f", **CRITICAL** (crit roll {event.crit_roll} ≤ {event.crit_chance}%)"
        elif event.crit_roll is not None:
            crit = f", crit roll {event.crit_roll} > {event.crit_chance}%"
        end = "**killed**" if event.killed else f"{event.target_hp} HP left"
        return (
            f"{head}: hit (rolled {event.roll} ≤ {event.hit_chance}%), damage {event.damage}"
            f" (rolled {event.base_damage}{crit}); {end}"
        )
    if isinstance(event, PotionEvent):
        return f"Potion: +{event.healed} HP → {event.hp} HP, {event.potions_left} left"
    if isinstance(event, FleeEvent):
        if event.escaped:
            return f"Flee: rolled {event.roll} ≤ {event.chance}, escaped"
        return f"Flee: rolled {event.roll} > {event.chance}, failed; the turn ends"
    if isinstance(event, TurnEvent):
        if event.side == "player":
            return f"Round {event.round}: your turn, {event.ap} AP"
        return "The monsters' turn"
    if isinstance(event, EndEvent):
        return {"won": f"Victory: +{event.xp} XP", "lost": "Defeat", "fled": "You got away"}[event.result]
    raise TypeError(f"unknown event {event!r}")


def crit_text(chance: int, multiplier: float) -> str:
    if chance <= 0:
        return "none"
    return f"{chance}% x{format_number(hundredths(multiplier) / 100)}"


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f}%" if whole else "-"


def summary_lines(result: SimulationResult) -> list[str]:
    fights = result.fights
    lines = [
        f"{result.monster} x{result.count}: {fights:,} fights (seed {result.seed}), player max HP {result.max_hp}",
        f"won {percent(result.wins, fights)} ({result.wins:,}), lost {percent(result.losses, fights)}"
        f" ({result.losses:,}), undecided {result.undecided:,}",
        f"mean rounds {result.mean_rounds:.2f}; mean HP left when won "
        + (f"{result.mean_hp_left_won:.2f}" if result.wins else "-"),
    ]
    if result.stopped_early:
        lines.append(result.stopped_early)
    return lines


def hp_buckets(result: SimulationResult, buckets: int = 10) -> list[tuple[str, int]]:
    """The HP-left distribution in at most `buckets` ranges: dead (0) first, then equal slices of 1..max."""
    counts = result.hp_left_counts
    rows = [("0 (dead)", counts[0])]
    top = len(counts) - 1
    width = max(1, -(-top // (buckets - 1)))
    for low in range(1, top + 1, width):
        high = min(top, low + width - 1)
        rows.append((str(low) if low == high else f"{low}-{high}", sum(counts[low : high + 1])))
    return rows
