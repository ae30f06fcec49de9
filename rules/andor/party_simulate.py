"""The odds of a party fight: many fights played by the party AI, summarized (`/andor simulate members:`).

The AI plays every member as the solo AI plays the player (`rules.andor.ai`): a potion at half HP or below, else
an attack on the monster standing with the fewest HP (the first of equals), else End turn; it never flees. The
lean loop `party_results` plays exactly what `rules.andor.party` plays with those choices when one generator
drives every move (the same formulas, the same draws in the same order, no events): `engine_results` plays
through the state machine and is the reference the tests compare it with.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.andor.engine import final_damage
from rules.andor.models import POTION_COST, QUIET_ROUNDS_FOR_DRAW, Character, Monster
from rules.andor.party import (
    ATTACK,
    END_TURN,
    POTION,
    PartyAction,
    PartyState,
    aim,
    apply_in_place,
    legal_actions,
    start_party,
)
from rules.andor.simulate import MAX_ROUNDS, check_fights
from rules.andor.simulate import SideAttack as Attack

WON, LOST, DRAW, UNDECIDED = "won", "lost", "draw", "undecided"


@dataclass(frozen=True)
class PartyFightResult:
    result: str  # won, lost, draw or undecided (MAX_ROUNDS)
    rounds: int
    knocked_out: tuple[bool, ...]  # each member's, in join order


@dataclass(frozen=True)
class PartyOdds:
    monster: str
    count: int
    seed: int
    fights: int
    wins: int
    losses: int
    draws: int
    undecided: int
    total_rounds: int
    knock_outs: tuple[int, ...]  # fights in which each member was knocked out

    @property
    def win_rate(self) -> float:
        return self.wins / self.fights if self.fights else 0.0

    @property
    def mean_rounds(self) -> float:
        return self.total_rounds / self.fights if self.fights else 0.0


def choose_party_action(state: PartyState) -> PartyAction:
    """The party AI's choice for the member whose turn it is."""
    legal = legal_actions(state, state.turn)
    fighter = state.current.fighter
    if POTION in legal and fighter.hp * 2 <= fighter.max_hp:
        return POTION
    if ATTACK not in legal:
        return END_TURN
    weakest = min((i for i, m in enumerate(state.monsters) if m.alive), key=lambda i: state.monsters[i].hp)
    return ATTACK if weakest == state.target else aim(weakest)


def engine_results(
    characters: Sequence[Character], monster: Monster, count: int, fights: int, seed: int
) -> list[PartyFightResult]:
    """The reference: each fight through the state machine, one generator for every move."""
    rng = random.Random(seed)
    members = [(i, f"member {i + 1}", c) for i, c in enumerate(characters)]
    results: list[PartyFightResult] = []
    for _ in range(fights):
        state = start_party(members, monster, count, rng=rng)
        while state.phase == "playing" and state.round <= MAX_ROUNDS:
            apply_in_place(state, choose_party_action(state), rng)
        result = state.phase if state.phase != "playing" else UNDECIDED
        knocked = tuple(m.status == "knocked_out" for m in state.members)
        results.append(PartyFightResult(result, min(state.round, MAX_ROUNDS), knocked))
    return results


# One side's attack on the other, as the lean loop rolls it: (hit %, base damages, crit %, damage of each base
# damage, critical damage of each); the damages come from the engine's own formula (simulate.SideAttack).
Roll = tuple[int, int, int, tuple[int, ...], tuple[int, ...]]


def _roll(attack: Attack) -> Roll:
    bases = range(attack.low, attack.low + attack.span)
    normal = tuple(final_damage(b, attack.bonus, 100, attack.resistance, attack.armor) for b in bases)
    critical = tuple(final_damage(b, attack.bonus, attack.crit, attack.resistance, attack.armor) for b in bases)
    return attack.hit, attack.span, attack.crit_chance, normal, critical


@dataclass(frozen=True, slots=True)
class _Member:
    attack: Roll  # on the monsters
    defence: Roll  # a monster's attack on this member
    max_hp: int
    ap: int
    cost: int
    potions: int
    heal: int


def _members(characters: Sequence[Character], monster: Monster) -> list[_Member]:
    return [
        _Member(
            _roll(Attack.between(c, monster, bonus=c.ad_bonus, armor=0)),
            _roll(Attack.between(monster, c, bonus=0, armor=c.armor)),
            c.max_hp,
            c.ap,
            c.attack_cost,
            c.potions,
            c.potion_heal,
        )
        for c in characters
    ]


def party_results(
    characters: Sequence[Character], monster: Monster, count: int, fights: int, seed: int
) -> list[PartyFightResult]:
    """The lean loop: the same fights as `engine_results`, much faster."""
    rand = random.Random(seed).random
    members = _members(characters, monster)
    monster_attacks = monster.ap // monster.attack_cost
    return [_one_fight(members, monster.hp, count, monster_attacks, monster.aggressive, rand) for _ in range(fights)]


def _damage(roll: Roll, rand: Callable[[], float]) -> int:
    """One attack with the engine's draws in its order: d100 to hit, the base damage, d100 for a critical."""
    hit, span, crit_chance, normal, critical = roll
    if int(rand() * 100) >= hit:
        return 0
    base = int(rand() * span)
    if crit_chance > 0 and int(rand() * 100) < crit_chance:
        return critical[base]
    return normal[base]


def _members_turns(
    members: list[_Member], hp: list[int], potions: list[int], damage: list[list[int]], mhp: list[int],
    rand: Callable[[], float],
) -> tuple[bool, bool]:  # fmt: skip
    """Every standing member's turn as the AI plays it: whether a monster was hurt, and whether all are dead."""
    hurt = False
    for i, member in enumerate(members):
        if hp[i] <= 0:
            continue
        ap, max_hp, cost = member.ap, member.max_hp, member.cost
        target = _weakest(mhp)
        while True:
            if potions[i] and ap >= POTION_COST and hp[i] * 2 <= max_hp:  # at half HP or below: hurt, so legal
                ap -= POTION_COST
                potions[i] -= 1
                hp[i] = min(max_hp, hp[i] + member.heal)
            elif ap >= cost:
                ap -= cost
                dealt = _damage(member.attack, rand)
                if dealt:
                    hurt = True
                    left = mhp[target] - dealt
                    mhp[target] = left if left > 0 else 0
                    damage[target][i] += dealt  # as the engine counts it: the whole hit
                    if left <= 0:  # a hit on the weakest keeps it the weakest until it dies
                        if not any(mhp):
                            return hurt, True
                        target = _weakest(mhp)
            else:
                break
    return hurt, False


def _monsters_turn(
    members: list[_Member], hp: list[int], damage: list[list[int]], mhp: list[int], attacks: int,
    rand: Callable[[], float],
) -> tuple[bool, bool]:  # fmt: skip
    """The monsters' turn, each attack on the standing member who dealt that monster the most (a draw among
    equals): whether a member was hurt, and whether none stands."""
    hurt = False
    for j, monster_hp in enumerate(mhp):
        if monster_hp <= 0:
            continue
        candidates = _threats(damage[j], hp)  # the damage dealt does not change in the monsters' turn
        for _ in range(attacks):
            i = candidates[0] if len(candidates) == 1 else candidates[int(rand() * len(candidates))]
            dealt = _damage(members[i].defence, rand)
            if dealt:
                hurt = True
                hp[i] = max(0, hp[i] - dealt)
                if hp[i] == 0:
                    if not any(hp):
                        return hurt, True
                    candidates = _threats(damage[j], hp)
    return hurt, False


def _weakest(mhp: list[int]) -> int:
    """The monster standing with the fewest HP, the first of equals."""
    best, weakest = 0, -1
    for j, h in enumerate(mhp):
        if h > 0 and (weakest < 0 or h < best):
            best, weakest = h, j
    return weakest


def _threats(dealt: list[int], hp: list[int]) -> list[int]:
    """The standing members who dealt a monster the most damage (`dealt`: each member's), in join order."""
    most, found = -1, []
    for i, h in enumerate(hp):
        if h > 0:
            if dealt[i] > most:
                most, found = dealt[i], [i]
            elif dealt[i] == most:
                found.append(i)
    return found


def _one_fight(
    members: list[_Member], monster_hp: int, count: int, attacks: int, opening: bool, rand: Callable[[], float]
) -> PartyFightResult:
    hp = [m.max_hp for m in members]
    potions = [m.potions for m in members]
    damage = [[0] * len(members) for _ in range(count)]  # by monster, then member
    mhp = [monster_hp] * count
    quiet = 0
    round_ = 0 if opening else 1
    while True:
        hurt = False
        if round_ > 0:
            hurt, won = _members_turns(members, hp, potions, damage, mhp, rand)
            if won:
                return PartyFightResult(WON, round_, tuple(h == 0 for h in hp))
        hit, lost = _monsters_turn(members, hp, damage, mhp, attacks, rand)
        if lost:
            return PartyFightResult(LOST, round_, tuple(h == 0 for h in hp))
        if round_ > 0:
            quiet = 0 if hurt or hit else quiet + 1
            if quiet >= QUIET_ROUNDS_FOR_DRAW:
                return PartyFightResult(DRAW, round_, tuple(h == 0 for h in hp))
            if round_ >= MAX_ROUNDS:
                return PartyFightResult(UNDECIDED, MAX_ROUNDS, tuple(h == 0 for h in hp))
        round_ += 1


def simulate_party(characters: Sequence[Character], monster: Monster, count: int, fights: int, seed: int) -> PartyOdds:
    check_fights(fights)
    results = party_results(characters, monster, count, fights, seed)
    return PartyOdds(
        monster=monster.name,
        count=count,
        seed=seed,
        fights=fights,
        wins=sum(r.result == WON for r in results),
        losses=sum(r.result == LOST for r in results),
        draws=sum(r.result == DRAW for r in results),
        undecided=sum(r.result == UNDECIDED for r in results),
        total_rounds=sum(r.rounds for r in results),
        knock_outs=tuple(sum(r.knocked_out[i] for r in results) for i in range(len(characters))),
    )
