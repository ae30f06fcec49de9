"""A player's standing in a raid (RULINGS 6): the boss's damage accumulates, 0 or below knocks the player out
until a GM revives them, and a raid may make each player wait between attacks. How a raid ends, as the
contract's `Outcome`: the players win when the boss is felled; a raid replaced by a GM first has no winner."""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from rules.bossfight.models import hp_after
from rules.contract import Outcome
from rules.errors import RuleInputError
from rules.text import format_number as num

MAX_COOLDOWN_SECONDS = 7 * 24 * 3600

RAIDERS = 0  # the players' side, the winner when the boss falls (the boss is no player)


class RaidEnd(StrEnum):
    """Why a raid ended; the values are what storage keeps as an ended raid's status."""

    FELLED = "defeated"  # the boss fell
    REPLACED = "replaced"  # a GM started another raid in the channel before the boss fell
    CLOSED = "closed"  # the raid's channel was deleted before the boss fell


RaidOutcome = Outcome[RaidEnd]


def raid_outcome(ending: RaidEnd) -> RaidOutcome:
    return Outcome(RAIDERS if ending is RaidEnd.FELLED else None, ending)


@dataclass(frozen=True)
class RaidPlayer:
    """What a raid remembers of one player."""

    damage_taken: float = 0.0  # since the raid began or the last revive
    knocked_out: bool = False
    last_attack_at: float | None = None  # unix seconds


def cooldown_left(player: RaidPlayer, cooldown_seconds: int, now: float) -> float:
    """Seconds until the player may attack again (0: now)."""
    if player.last_attack_at is None or cooldown_seconds <= 0:
        return 0.0
    return max(0.0, player.last_attack_at + cooldown_seconds - now)


def duration_text(seconds: float) -> str:
    """'45 s', '2 min 5 s', '1 h 2 min': what a player reads as a wait (rounded up to the second)."""
    total = math.ceil(seconds)
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [
        f"{hours} h" if hours else "",
        f"{minutes} min" if minutes else "",
        f"{secs} s" if secs or not total else "",
    ]
    return " ".join(part for part in parts if part)


def attack_refusal(player: RaidPlayer, cooldown_seconds: int, now: float) -> str | None:
    """Why the player may not attack now, or None."""
    if player.knocked_out:
        return (
            f"You are knocked out of this raid: the boss has dealt you {num(round(player.damage_taken, 2))} since the "
            "raid began or your last revive. A GM can bring you back with `/bossfight revive`."
        )
    left = cooldown_left(player, cooldown_seconds, now)
    if left > 0:
        return (
            f"This raid lets each player attack once every {duration_text(cooldown_seconds)}: "
            f"try again in {duration_text(left)}."
        )
    return None


def check_deck_can_attack(deck_health: float, damage_taken: float) -> None:
    """A deck starts an attack at its health less the damage already taken; at 0 or below it cannot attack."""
    if hp_after(deck_health, damage_taken) <= 0:
        raise RuleInputError(
            f"this deck has {num(deck_health)} health and the boss has dealt you {num(damage_taken)} in this raid, "
            f"so it would start at {num(hp_after(deck_health, damage_taken))}: attack with a deck of more than "
            f"{num(damage_taken)} health"
        )
