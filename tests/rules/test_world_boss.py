"""The world boss's engine (RULINGS 8 and 9): attacks applied in order, credit in whole micro-HP adding up to the
HP exactly, one final blow, nothing credited after the fall or the end time."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.bossfight.world import (
    AttackOutcome,
    PendingAttack,
    WorldBossStatus,
    apply_attacks,
    hp_after_micro,
    spawned_hp,
    to_micro,
)
from rules.errors import RuleInputError

END = 1_000.0


def test_decimal_blows_fell_the_boss_with_credit_adding_up_exactly():
    # 333.3 + 333.3 + 333.4 fell 1000 HP (RULINGS 6); the fourth attack comes after the fall.
    attacks = [PendingAttack(i + 1, d, 10.0) for i, d in enumerate([333.3, 333.3, 333.4, 50.0])]
    done = apply_attacks(to_micro(1000), WorldBossStatus.LIVE, END, attacks)
    assert [(a.outcome, a.credited_micro, a.hp_after_micro) for a in done.attacks] == [
        (AttackOutcome.CREDITED, 333_300_000, 666_700_000),
        (AttackOutcome.CREDITED, 333_300_000, 333_400_000),
        (AttackOutcome.FINAL_BLOW, 333_400_000, 0),
        (AttackOutcome.AFTER_FALL, 0, 0),
    ]
    assert (done.status, done.final_attack_id, done.hp_micro) == (WorldBossStatus.FELLED, 3, 0)


def test_credit_is_the_hp_removed_as_rulings_8_says():
    # 999.9999996 on 1000 HP removes 1000 (the stored HP rounds to 0): credited 1000, the final blow.
    assert hp_after_micro(to_micro(1000), 999.9999996) == 0
    # a blow too small to move the stored HP is credited 0
    (tiny,) = apply_attacks(to_micro(1000), WorldBossStatus.LIVE, END, [PendingAttack(1, 0.0000004, 0.0)]).attacks
    assert (tiny.outcome, tiny.credited_micro) == (AttackOutcome.CREDITED, 0)
    # an overkill is credited the HP that was left
    (last,) = apply_attacks(to_micro(12.5), WorldBossStatus.LIVE, END, [PendingAttack(7, 400.0, 0.0)]).attacks
    assert (last.outcome, last.credited_micro) == (AttackOutcome.FINAL_BLOW, 12_500_000)


def test_an_attack_stored_at_or_after_the_end_time_credits_nothing():
    attacks = [PendingAttack(1, 10.0, END - 0.001), PendingAttack(2, 10.0, END), PendingAttack(3, 10.0, END + 5)]
    done = apply_attacks(to_micro(100), WorldBossStatus.LIVE, END, attacks)
    assert [(a.outcome, a.credited_micro) for a in done.attacks] == [
        (AttackOutcome.CREDITED, 10_000_000),
        (AttackOutcome.AFTER_END, 0),
        (AttackOutcome.AFTER_END, 0),
    ]
    assert done.hp_micro == 90_000_000
    (late,) = apply_attacks(done.hp_micro, WorldBossStatus.EXPIRED, END, [PendingAttack(4, 10.0, 1.0)]).attacks
    assert late.outcome is AttackOutcome.AFTER_END


@given(
    hp=st.floats(min_value=0.000001, max_value=1e9),
    damages=st.lists(st.floats(min_value=0, max_value=1e9), min_size=1, max_size=200),
)
def test_credit_always_adds_up_to_the_hp_removed(hp, damages):
    start = to_micro(hp)
    if start == 0:
        return
    attacks = [PendingAttack(i, d, 0.0) for i, d in enumerate(damages)]
    done = apply_attacks(start, WorldBossStatus.LIVE, END, attacks)
    assert sum(a.credited_micro for a in done.attacks) == start - done.hp_micro
    finals = [a for a in done.attacks if a.outcome is AttackOutcome.FINAL_BLOW]
    assert len(finals) == (done.hp_micro == 0)
    assert all(a.credited_micro >= 0 for a in done.attacks)


def test_spawned_hp_is_given_or_multiplied_within_bounds():
    assert spawned_hp(1000, None, None) == 1000
    assert spawned_hp(1000, None, 2.5) == 2500
    assert spawned_hp(1000, 123.4567891, None) == 123.456789
    with pytest.raises(RuleInputError, match="not both"):
        spawned_hp(1000, 5, 2)
    with pytest.raises(RuleInputError, match="at most"):
        spawned_hp(1000, None, 1e10)
