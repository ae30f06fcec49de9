"""Many fights played by the AI policy (rules.andor.ai), summarized as odds.

`fight_results` is the lean loop: it plays exactly what `engine.apply_in_place` + `ai.choose_action` would play
(same formulas, same random draws in the same order, no events), so for one generator both give the
same fights; `logged_fight_results` plays through the state machine and is the reference it is tested
against.

Limits: a fight still undecided after MAX_ROUNDS rounds counts as undecided; a simulation stops starting
new fights once WORK_LIMIT attacks have been rolled and says how many fights it played.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from rules.andor import ai
from rules.andor.engine import (
    apply_in_place,
    final_damage,
    hit_chance,
    monster_fighters,
    outcome,
    start_fight,
    summary,
)
from rules.andor.models import (
    POTION_COST,
    QUIET_ROUNDS_FOR_DRAW,
    Character,
    CombatStats,
    FightState,
    Monster,
    hundredths,
)
from rules.errors import RuleInputError
from rules.seeds import new_seed

MAX_FIGHTS = 100_000
MAX_ROUNDS = 1_000
WORK_LIMIT = 5_000_000  # attacks rolled, over all fights of one simulation
PROGRESS_EVERY = 200_000  # attacks between two progress reports

# Told the fraction of the simulation done (0..1) now and then, from the thread that runs it.
Progress = Callable[[float], None]

WON, LOST, DRAW, UNDECIDED = "won", "lost", "draw", "undecided"


@dataclass(frozen=True)
class FightResult:
    result: str  # won, lost, draw (QUIET_ROUNDS_FOR_DRAW rounds without damage) or undecided (MAX_ROUNDS)
    rounds: int
    hp_left: int


@dataclass(frozen=True)
class SimulationResult:
    monster: str
    count: int
    seed: int
    max_hp: int
    fights_requested: int
    fights: int  # played; fewer than requested only when the work limit was reached
    wins: int
    losses: int
    draws: int
    undecided: int
    total_rounds: int
    hp_left_counts: tuple[int, ...]  # index = the player's HP at the end of a fight (0 = dead)
    won_hp_total: int  # HP left summed over the fights won
    stopped_early: str | None = None

    @property
    def win_rate(self) -> float:
        return self.wins / self.fights if self.fights else 0.0

    @property
    def mean_rounds(self) -> float:
        return self.total_rounds / self.fights if self.fights else 0.0

    @property
    def mean_hp_left_won(self) -> float:
        """Mean HP left in the fights won (0 when none was won)."""
        return self.won_hp_total / self.wins if self.wins else 0.0

    def hp_left_buckets(self, buckets: int) -> list[tuple[int, int, int]]:
        """(lowest HP, highest HP, fights) in at most `buckets` ranges: dead (0) alone, then equal slices of 1..max."""
        counts = self.hp_left_counts
        top = len(counts) - 1
        width = max(1, -(-top // (buckets - 1)))
        return [(0, 0, counts[0])] + [
            (low, min(top, low + width - 1), sum(counts[low : low + width])) for low in range(1, top + 1, width)
        ]


def check_fights(fights: int) -> None:
    if not 1 <= fights <= MAX_FIGHTS:
        raise RuleInputError(f"fights must be between 1 and {MAX_FIGHTS:,}, not {fights:,}")


@dataclass(frozen=True, slots=True)
class SideAttack:
    """One side's attack on the other: it never changes within a fight."""

    hit: int  # the chance to hit, in percent
    low: int  # the lowest base damage
    span: int  # how many base damages there are
    crit_chance: int  # in percent
    crit: int  # the critical multiplier, in hundredths
    bonus: int  # attack damage bonus, in percent
    resistance: int  # the defender's damage resistance
    armor: int  # the defender's armor

    @classmethod
    def between(cls, attacker: CombatStats, defender: CombatStats, *, bonus: int, armor: int) -> SideAttack:
        """`attacker`'s attack on `defender`, with the attack damage bonus and the armor that count (only a
        character has them)."""
        return cls(
            hit=hit_chance(attacker.attack_chance, defender.block_chance),
            low=attacker.damage_min,
            span=attacker.damage_max - attacker.damage_min + 1,
            crit_chance=attacker.crit_chance,
            crit=hundredths(attacker.crit_multiplier),
            bonus=bonus,
            resistance=defender.damage_resistance,
            armor=armor,
        )

    def damage(self, rand: Callable[[], float]) -> int:
        """One attack's damage, with the engine's rolls in the engine's order; 0 for a miss, which changes no
        more than a hit for 0 does."""
        if int(rand() * 100) + 1 > self.hit:
            return 0
        base = self.low + int(rand() * self.span)
        crit = self.crit if self.crit_chance > 0 and int(rand() * 100) + 1 <= self.crit_chance else 100
        return final_damage(base, self.bonus, crit, self.resistance, self.armor)


@dataclass(frozen=True, slots=True)
class _Matchup:
    """What every fight of a simulation starts from."""

    player: SideAttack
    monster: SideAttack
    max_hp: int
    ap: int
    attack_cost: int
    potions: int
    potion_heal: int
    count: int
    monster_hp: int
    monster_attacks: int  # each monster's attacks a turn
    opening: bool  # the monsters' turn 0 comes first (engine.start_fight)

    @classmethod
    def of(cls, character: Character, monster: Monster, count: int, monsters_first: bool) -> _Matchup:
        return cls(
            player=SideAttack.between(character, monster, bonus=character.ad_bonus, armor=0),
            monster=SideAttack.between(monster, character, bonus=0, armor=character.armor),
            max_hp=character.max_hp,
            ap=character.ap,
            attack_cost=character.attack_cost,
            potions=character.potions,
            potion_heal=character.potion_heal,
            count=count,
            monster_hp=monster.hp,
            monster_attacks=monster.ap // monster.attack_cost,
            opening=monsters_first or monster.aggressive,
        )


@dataclass(slots=True)
class _Fight:
    """The figures of one fight that change as it goes."""

    hp: int
    potions: int
    monster_hp: list[int]
    alive: int  # monsters standing
    attacks: int = 0  # rolled so far
    result: str | None = None  # WON or LOST once a side falls


def _player_turn(matchup: _Matchup, fight: _Fight, ap: int, rand: Callable[[], float]) -> bool:
    """The player's turn as ai.choose_action plays it: a potion at half HP or below, else an attack on the
    weakest monster standing, while the AP last. Whether it hurt a monster."""
    hurt = False
    monster_hp = fight.monster_hp
    while True:
        if fight.potions and ap >= POTION_COST and fight.hp * 2 <= matchup.max_hp:
            ap -= POTION_COST
            fight.potions -= 1
            fight.hp = min(matchup.max_hp, fight.hp + matchup.potion_heal)
        elif ap >= matchup.attack_cost:
            ap -= matchup.attack_cost
            fight.attacks += 1
            if matchup.count == 1:
                target = 0
            else:
                target = min((i for i in range(matchup.count) if monster_hp[i] > 0), key=monster_hp.__getitem__)
            damage = matchup.player.damage(rand)
            if damage > 0:
                hurt = True
                left = monster_hp[target] - damage
                if left > 0:
                    monster_hp[target] = left
                else:
                    monster_hp[target] = 0
                    fight.alive -= 1
                    if fight.alive == 0:
                        fight.result = WON
                        return hurt
        else:
            return hurt


def _monsters_turn(matchup: _Matchup, fight: _Fight, rand: Callable[[], float]) -> bool:
    """Every monster standing attacks its number of times. Whether they hurt the player."""
    hurt = False
    for hp in fight.monster_hp:
        if hp <= 0:
            continue
        for _ in range(matchup.monster_attacks):
            fight.attacks += 1
            damage = matchup.monster.damage(rand)
            if damage > 0:
                hurt = True
                fight.hp -= damage
                if fight.hp <= 0:
                    fight.hp, fight.result = 0, LOST
                    return hurt
    return hurt


def _one_fight(matchup: _Matchup, rand: Callable[[], float], max_rounds: int) -> tuple[FightResult, int]:
    """A fight played to its end, and the attacks rolled in it."""
    fight = _Fight(matchup.max_hp, matchup.potions, [matchup.monster_hp] * matchup.count, matchup.count)
    rounds = -1 if matchup.opening else 0
    quiet = 0
    while True:
        rounds += 1
        if rounds > max_rounds:
            return FightResult(UNDECIDED, max_rounds, fight.hp), fight.attacks
        hurt = _player_turn(matchup, fight, matchup.ap if rounds > 0 else 0, rand)  # round 0: the monsters alone
        if fight.result is None:
            hurt = _monsters_turn(matchup, fight, rand) or hurt
        if fight.result is not None:
            return FightResult(fight.result, rounds, fight.hp), fight.attacks
        if rounds > 0:  # engine._end_round: the opening turn is not a round
            quiet = 0 if hurt else quiet + 1
            if quiet >= QUIET_ROUNDS_FOR_DRAW:
                return FightResult(DRAW, rounds, fight.hp), fight.attacks


def fight_results(
    character: Character,
    monster: Monster,
    count: int,
    fights: int,
    rng: random.Random,
    *,
    max_rounds: int = MAX_ROUNDS,
    work_limit: int = WORK_LIMIT,
    progress: Progress | None = None,
    monsters_first: bool = False,
) -> tuple[list[FightResult], bool]:
    """The fights, and whether the work limit stopped them early.

    `progress` hears the fraction done (fights played, or attacks against the work limit when that is
    further along) about every PROGRESS_EVERY attacks.
    """
    matchup = _Matchup.of(character, monster, count, monsters_first)
    results: list[FightResult] = []
    attacks = 0
    reported = 0
    for played in range(fights):
        if attacks >= work_limit:
            return results, True
        if progress is not None and attacks - reported >= PROGRESS_EVERY:
            reported = attacks
            progress(max(played / fights, attacks / work_limit))
        result, rolled = _one_fight(matchup, rng.random, max_rounds)
        results.append(result)
        attacks += rolled
    return results, False


def logged_fight_results(
    character: Character,
    monster: Monster,
    count: int,
    fights: int,
    rng: random.Random,
    *,
    max_rounds: int = MAX_ROUNDS,
    monsters_first: bool = False,
) -> list[FightResult]:
    """The same fights played through the state machine, action by action (slow; the reference)."""
    results: list[FightResult] = []
    for _ in range(fights):
        state, _events = start_fight(character, monster, count, rng, monsters_first=monsters_first)
        state = play_out(state, rng, max_rounds=max_rounds)
        done = summary(state)
        if done is None:
            results.append(FightResult(UNDECIDED, max_rounds, state.player.hp))
        else:
            results.append(FightResult(done.ending, done.rounds, done.hp_left))
    return results


def play_out(state: FightState, rng: random.Random, *, max_rounds: int = MAX_ROUNDS) -> FightState:
    """The AI plays the fight to its end (or to the round limit): the state it ends in (`state` is unchanged)."""
    state = state.model_copy(deep=True)
    while outcome(state) is None and state.round <= max_rounds:
        apply_in_place(state, ai.choose_action(state), rng)
    return state


def simulate(
    character: Character,
    monster: Monster,
    count: int = 1,
    fights: int = 10_000,
    seed: int | None = None,
    *,
    max_rounds: int = MAX_ROUNDS,
    work_limit: int = WORK_LIMIT,
    progress: Progress | None = None,
    monsters_first: bool = False,
) -> SimulationResult:
    check_fights(fights)
    if seed is None:
        seed = new_seed()
    monster_fighters(monster, count)  # refuses a bad count
    results, stopped = fight_results(
        character,
        monster,
        count,
        fights,
        random.Random(seed),
        max_rounds=max_rounds,
        work_limit=work_limit,
        progress=progress,
        monsters_first=monsters_first,
    )
    counts = [0] * (character.max_hp + 1)
    wins = losses = draws = rounds = won_hp = 0
    for r in results:
        counts[r.hp_left] += 1
        rounds += r.rounds
        if r.result == WON:
            wins += 1
            won_hp += r.hp_left
        elif r.result == LOST:
            losses += 1
        elif r.result == DRAW:
            draws += 1
    return SimulationResult(
        monster=monster.name,
        count=count,
        seed=seed,
        max_hp=character.max_hp,
        fights_requested=fights,
        fights=len(results),
        wins=wins,
        losses=losses,
        draws=draws,
        undecided=len(results) - wins - losses - draws,
        total_rounds=rounds,
        hp_left_counts=tuple(counts),
        stopped_early=(
            f"stopped after {len(results):,} of {fights:,} fights: the limit of {work_limit:,} attacks was reached"
            if stopped
            else None
        ),
        won_hp_total=won_hp,
    )
