"""Statistics over `simulate_odds` results: rates with 95% Wilson score intervals, and a text summary."""

from __future__ import annotations

from rules.mfd.models import OddsResult
from rules.stats import wilson_interval
from rules.text import plural


def rate_text(successes: int, trials: int) -> str:
    low, high = wilson_interval(successes, trials)
    return f"{successes / trials:.1%} (95% CI {low:.1%} to {high:.1%})"


def outcome_rows(odds: OddsResult) -> list[tuple[str, int]]:
    rows = [("Heroes win", odds.heroes_wins), ("Villains win", odds.villains_wins), ("Draw", odds.draws)]
    if odds.unfinished:
        rows.append((f"Both standing after {plural(odds.max_rounds, 'round')}", odds.unfinished))
    return rows


def mean_rounds(odds: OddsResult) -> float:
    return sum(r * c for r, c in odds.rounds_histogram.items()) / odds.battles


def describe_odds(odds: OddsResult) -> str:
    lines = [f"{plural(odds.battles, 'battle')} (seed {odds.seed})"]
    lines += [f"{label}: {rate_text(count, odds.battles)}" for label, count in outcome_rows(odds)]
    lines.append(
        f"Rounds: mean {mean_rounds(odds):.2f}; " + ", ".join(f"{r}: {c}" for r, c in odds.rounds_histogram.items())
    )
    for side, names, survivals in (
        ("Heroes", odds.hero_names, odds.hero_survivals),
        ("Villains", odds.villain_names, odds.villain_survivals),
    ):
        lines.append(f"{side} survival:")
        lines += [f"  {name}: {count / odds.battles:.1%}" for name, count in zip(names, survivals, strict=True)]
    return "\n".join(lines)
