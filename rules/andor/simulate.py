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
from rules.andor.models import POTION_COST, QUIET_ROUNDS_FOR_DRAW, Character, FightState, Monster, hundredths
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
    rand = rng.random
    # The player's attack on a monster and a monster's attack on the player never change within a fight.
    p_hit = hit_chance(character.attack_chance, monster.block_chance)
    p_low, p_span = character.damage_min, character.damage_max - character.damage_min + 1
    p_cc, p_crit, p_ad = character.crit_chance, hundredths(character.crit_multiplier), character.ad_bonus
    p_cost, p_ap, p_max = character.attack_cost, character.ap, character.max_hp
    heal, potions0 = character.potion_heal, character.potions
    m_hit = hit_chance(monster.attack_chance, character.block_chance)
    m_low, m_span = monster.damage_min, monster.damage_max - monster.damage_min + 1
    m_cc, m_crit = monster.crit_chance, hundredths(monster.crit_multiplier)
    m_attacks, m_hp0, m_dr = monster.ap // monster.attack_cost, monster.hp, monster.damage_resistance
    p_dr, p_armor = character.damage_resistance, character.armor
    monsters = range(count)
    opening = monsters_first or monster.aggressive  # the monsters' turn 0 comes first (engine.start_fight)

    results: list[FightResult] = []
    attacks = 0
    reported = 0
    for played in range(fights):
        if attacks >= work_limit:
            return results, True
        if progress is not None and attacks - reported >= PROGRESS_EVERY:
            reported = attacks
            progress(max(played / fights, attacks / work_limit))
        hp, potions = p_max, potions0
        m_hp = [m_hp0] * count
        alive = count
        rounds = -1 if opening else 0
        quiet = 0
        result = None
        while result is None:
            rounds += 1
            if rounds > max_rounds:
                rounds, result = max_rounds, UNDECIDED
                break
            hurt = False
            ap = p_ap if rounds > 0 else 0  # round 0: the monsters' opening turn alone
            # the player's turn (ai.choose_action)
            while True:
                if potions and ap >= POTION_COST and hp * 2 <= p_max:
                    ap -= POTION_COST
                    potions -= 1
                    hp = min(p_max, hp + heal)
                elif ap >= p_cost:
                    ap -= p_cost
                    attacks += 1
                    target = 0 if count == 1 else min((i for i in monsters if m_hp[i] > 0), key=m_hp.__getitem__)
                    if int(rand() * 100) + 1 <= p_hit:
                        base = p_low + int(rand() * p_span)
                        crit = p_crit if p_cc > 0 and int(rand() * 100) + 1 <= p_cc else 100
                        damage = final_damage(base, p_ad, crit, m_dr, 0)
                        hurt = hurt or damage > 0
                        left = m_hp[target] - damage
                        if left <= 0:
                            m_hp[target] = 0
                            alive -= 1
                            if alive == 0:
                                result = WON
                                break
                        else:
                            m_hp[target] = left
                else:
                    break
            if result is not None:
                break
            # the monsters' turn
            for i in monsters:
                if m_hp[i] <= 0:
                    continue
                for _ in range(m_attacks):
                    attacks += 1
                    if int(rand() * 100) + 1 <= m_hit:
                        base = m_low + int(rand() * m_span)
                        crit = m_crit if m_cc > 0 and int(rand() * 100) + 1 <= m_cc else 100
                        damage = final_damage(base, 0, crit, p_dr, p_armor)
                        hurt = hurt or damage > 0
                        hp -= damage
                        if hp <= 0:
                            hp, result = 0, LOST
                            break
                if result is not None:
                    break
            if rounds > 0:  # engine._end_round: the opening turn is not a round
                quiet = 0 if hurt else quiet + 1
                if quiet >= QUIET_ROUNDS_FOR_DRAW:
                    result = DRAW
        results.append(FightResult(result, rounds, hp))
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
