"""The world boss (RULINGS 9): one boss fought by every server that takes part, its attacks applied in the order
they were stored, each credited with the HP it removed (RULINGS 8).

The boss's HP is kept in micro-HP, whole millionths: RULINGS 8 rounds the stored HP to 6 decimals, so an integer
count of millionths is that HP without float noise, and the credits of many thousands of attacks from every server
add up to the boss's HP exactly, as integers, however many there are.

An attack's damage to the boss and the boss's damage to the deck do not depend on the boss's HP, so an attack is
worked out when it is made (`calculate_attack`) and only its credit waits for its turn: `apply_attacks` takes the
boss as stored and the attacks stored since, in their order, and says what each one did.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from enum import StrEnum

from rules.bossfight.raid import RaidPlayer, cooldown_left, duration_text
from rules.errors import RuleInputError
from rules.text import format_number as num

MICRO = 1_000_000  # micro-HP in one HP
MAX_WORLD_HP = 1e12  # the largest HP a world boss may be spawned with (micro-HP then fit a 64-bit integer)
MAX_DAYS = 14  # a world boss's end time is at most this far ahead of its spawn
MAX_COOLDOWN_SECONDS = 24 * 3600


class WorldBossStatus(StrEnum):
    LIVE = "live"
    FELLED = "felled"  # an attack brought its HP to 0: the final blow
    EXPIRED = "expired"  # its end time came first


class AttackOutcome(StrEnum):
    """What an applied attack did; the values are what storage keeps."""

    CREDITED = "credited"  # it hit the live boss (perhaps for 0, too small to move the stored HP)
    FINAL_BLOW = "final_blow"  # it brought the boss to 0 HP
    AFTER_FALL = "after_fall"  # stored after the boss fell: credits nothing
    AFTER_END = "after_end"  # stored after the end time: credits nothing


def to_micro(hp: float) -> int:
    """An HP as whole micro-HP, rounded to 6 decimals as RULINGS 8 rounds the stored HP."""
    return int((Decimal(hp) * MICRO).to_integral_value(ROUND_HALF_EVEN))


def from_micro(micro: int) -> float:
    return micro / MICRO


def hp_after_micro(hp_micro: int, damage: float) -> int:
    """The boss's HP after `damage`, in micro-HP: the exact decimal difference rounded to 6 decimals, never below
    0 (RULINGS 7 and 8). Exact: a float converts to Decimal without loss."""
    left = (Decimal(hp_micro) - Decimal(damage) * MICRO).to_integral_value(ROUND_HALF_EVEN)
    return max(0, int(left))


@dataclass(frozen=True)
class PendingAttack:
    """An attack as stored, waiting for its credit."""

    id: int
    damage: float
    at: float  # unix seconds, when it was stored


@dataclass(frozen=True)
class AppliedAttack:
    id: int
    outcome: AttackOutcome
    credited_micro: int  # the HP it removed (0 for an attack after the fall or the end)
    hp_after_micro: int  # the boss's HP after it


@dataclass(frozen=True)
class Application:
    """The boss after a batch of attacks, and what each of them did, in order."""

    hp_micro: int
    status: WorldBossStatus
    final_attack_id: int | None
    attacks: tuple[AppliedAttack, ...]


def apply_attacks(hp_micro: int, status: WorldBossStatus, ends_at: float, attacks: list[PendingAttack]) -> Application:
    """Apply `attacks` in their order to a boss at `hp_micro`: each attack on the live boss stored before its end
    time is credited with the HP it removed; the one that brings it to 0 is the final blow; every attack after
    that, or stored at or after the end time, credits nothing."""
    applied: list[AppliedAttack] = []
    final: int | None = None
    for attack in attacks:
        if status is WorldBossStatus.FELLED:
            applied.append(AppliedAttack(attack.id, AttackOutcome.AFTER_FALL, 0, hp_micro))
        elif status is WorldBossStatus.EXPIRED or attack.at >= ends_at:
            applied.append(AppliedAttack(attack.id, AttackOutcome.AFTER_END, 0, hp_micro))
        else:
            after = hp_after_micro(hp_micro, attack.damage)
            outcome = AttackOutcome.CREDITED
            if after == 0:
                status, final, outcome = WorldBossStatus.FELLED, attack.id, AttackOutcome.FINAL_BLOW
            applied.append(AppliedAttack(attack.id, outcome, hp_micro - after, after))
            hp_micro = after
    return Application(hp_micro, status, final, tuple(applied))


def expired(status: WorldBossStatus, ends_at: float, now: float) -> bool:
    """The live boss's end time has come: attacks stored from now on credit nothing."""
    return status is WorldBossStatus.LIVE and now >= ends_at


def spawned_hp(health: float, hp: float | None, multiplier: float | None) -> float:
    """The world boss's HP: as given, else the boss's health times the multiplier (default 1)."""
    if hp is not None and multiplier is not None:
        raise RuleInputError("give the HP or a multiplier of the boss's health, not both")
    chosen = hp if hp is not None else health * (1.0 if multiplier is None else multiplier)
    if not 0 < chosen <= MAX_WORLD_HP or to_micro(chosen) == 0:
        raise RuleInputError(f"a world boss's HP must be above 0 and at most {num(MAX_WORLD_HP)}, not {num(chosen)}")
    return from_micro(to_micro(chosen))


def world_attack_refusal(player: RaidPlayer, cooldown_seconds: int, now: float) -> str | None:
    """Why the member may not attack the world boss now, or None."""
    if player.knocked_out:
        return (
            f"You are knocked out: the world boss has dealt you {num(round(player.damage_taken, 2))} since the event "
            "began or your last revive. A game master of this server can bring you back with "
            "`/bossfight world revive`."
        )
    left = cooldown_left(player, cooldown_seconds, now)
    if left > 0:
        return (
            f"The world boss lets each member attack once every {duration_text(cooldown_seconds)}: "
            f"try again in {duration_text(left)}."
        )
    return None
