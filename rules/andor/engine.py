"""The Andor's Trail fight as a state machine, on the turn-based contract of `rules.contract`: `start_fight`,
`legal_actions`, `apply_in_place` (changes the state) and `applied` (a changed copy), `aim_in_place` and `aimed` (the monster the
player's attacks go to), `outcome` (the contract's `Outcome`), `summary` (what a finished fight
leaves), `replay_rng`, and `settle` (the character after the fight).

Formulas (RULINGS 4) live in `hit_chance` and `final_damage`; the fast simulator uses the same functions
and draws its random numbers in the same order, so both give identical fights for the same generator.

Random draws, in order, from `rng.random()`:
- an attack: d100 to hit; on a hit the damage in [min, max]; then, only if the attacker's critical
  chance is above 0, d100 for the critical;
- a flee: d100 (escaped when <= 80).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Literal

from rules.andor.models import (
    CALL_DRAW,
    DEATH_XP_LOSS_PERCENT,
    FEED_LENGTH,
    FLEE_CHANCE,
    FLEE_COST,
    MAX_LEVEL,
    PLAYER_NAME,
    POTION_COST,
    POTION_PRICE,
    QUIET_ROUNDS_FOR_DRAW,
    STAT_LIMITS,
    Action,
    AttackEvent,
    Character,
    EndEvent,
    Ending,
    Event,
    Fighter,
    FightOutcome,
    FightState,
    FightSummary,
    FleeEvent,
    Monster,
    PlayerFighter,
    PotionEvent,
    TurnEvent,
    hundredths,
    stat_problem,
    xp_to_next_level,
)
from rules.contract import Outcome
from rules.errors import InputProblem, RuleInputError
from rules.seeds import ReplayStream, move_rng
from rules.text import plural

MAX_MONSTERS = 5
REPLAY_STREAM = ReplayStream.TEXT  # every stored fight replays from it: never change it
PLAYER = 0  # the fight's one player; the monsters act on their own after the player's turn


# --- formulas -------------------------------------------------------------------------------------------


def hit_chance(attack_chance: int, block_chance: int) -> int:
    """trunc(50 * (1 + (2/pi) * atan((AC - BC - 50) / 40))), within 0..100."""
    value = 50 * (1 + (2 / math.pi) * math.atan((attack_chance - block_chance - 50) / 40))
    return min(100, max(0, math.trunc(value)))


def final_damage(base: int, ad_bonus: int, crit_hundredths: int, resistance: int, armor: int) -> int:
    """base x (1 + AD/100) x crit multiplier - DR, then x (1 - armor/200), truncated, never below 0.

    Exact integer arithmetic: every factor is a whole number of percent or hundredths, so there is no
    float rounding at the truncation (`crit_hundredths` is 100 for a normal hit).
    """
    scaled = base * (100 + ad_bonus) * crit_hundredths - resistance * 10_000  # in 1/10,000 HP
    if scaled <= 0:
        return 0
    return scaled * (200 - armor) // 2_000_000


def damage_range(attacker: Fighter, target: Fighter, *, critical: bool = False) -> tuple[int, int]:
    """The least and the most damage one hit of `attacker` does to `target` (damage grows with the roll)."""
    multiplier = hundredths(attacker.crit_multiplier) if critical else 100

    def damage(base: int) -> int:
        return final_damage(base, attacker.ad_bonus, multiplier, target.damage_resistance, target.armor)

    return damage(attacker.damage_min), damage(attacker.damage_max)


def best_hit(attacker: Fighter, target: Fighter) -> int:
    """The most damage one hit of `attacker` does to `target` (a critical one, when it can crit)."""
    return damage_range(attacker, target, critical=attacker.crit_chance > 0)[1]


def can_hurt(character: Character, monster: Monster) -> bool:
    """Whether the character's best hit does any damage to the monster."""
    return best_hit(player_fighter(character), monster_fighters(monster, 1)[0]) > 0


def stalemate(state: FightState) -> bool:
    """Whether neither side can ever damage the other: the player's best hit does nothing to any monster
    standing, and theirs nothing to the player. Such a fight can only end in a flight or, after
    QUIET_ROUNDS_FOR_DRAW rounds, a draw, which the player may call at once (CALL_DRAW)."""
    standing = [m for m in state.monsters if m.alive]
    return all(best_hit(state.player, m) == 0 and best_hit(m, state.player) == 0 for m in standing)


def mean_damage(attacker: Fighter, target: Fighter) -> float:
    """The damage one attack does on average, misses and criticals included (exact; cost grows with the range)."""
    crit = min(attacker.crit_chance, 100) / 100
    multiplier = hundredths(attacker.crit_multiplier)
    total = 0.0
    for base in range(attacker.damage_min, attacker.damage_max + 1):
        normal = final_damage(base, attacker.ad_bonus, 100, target.damage_resistance, target.armor)
        critical = final_damage(base, attacker.ad_bonus, multiplier, target.damage_resistance, target.armor)
        total += (1 - crit) * normal + crit * critical
    per_hit = total / (attacker.damage_max - attacker.damage_min + 1)
    return hit_chance(attacker.attack_chance, target.block_chance) / 100 * per_hit


def drink_potion_in_place(player: PlayerFighter) -> int:
    """The player drinks one potion (section 4): it heals up to their max HP. The HP it healed."""
    healed = min(player.potion_heal, player.max_hp - player.hp)
    player.hp += healed
    player.potions -= 1
    return healed


def flee_roll(rng: random.Random) -> tuple[int, bool]:
    """A try to flee: the d100 roll, and whether it escaped (FLEE_CHANCE or under)."""
    roll = d100(rng)
    return roll, roll <= FLEE_CHANCE


def d100(rng: random.Random) -> int:
    return int(rng.random() * 100) + 1


def uniform(rng: random.Random, low: int, high: int) -> int:
    return low + int(rng.random() * (high - low + 1))


# --- levels ---------------------------------------------------------------------------------------------


def with_xp(character: Character, xp: int) -> Character:
    """The character holding `xp` within its level, levelling up as soon as the XP is there."""
    level = character.level
    while level < MAX_LEVEL and xp >= xp_to_next_level(level):
        xp -= xp_to_next_level(level)
        level += 1
    if level == MAX_LEVEL:
        xp = min(xp, xp_to_next_level(level) - 1)
    return character.model_copy(update={"level": level, "xp": xp})


def updated_character(character: Character, changes: Mapping[str, float]) -> Character:
    """The character with some stats changed by its player, checked; XP beyond the level levels it up."""
    problems: list[InputProblem] = []
    for name, value in changes.items():
        if name not in CHARACTER_STATS:
            problems.append(InputProblem(f"{name}: no such stat; the stats are {', '.join(CHARACTER_STATS)}"))
        elif message := stat_problem(name, value):
            problems.append(InputProblem(f"{name}: {message}"))
    if problems:
        raise RuleInputError(problems)
    if "level" in changes and "xp" not in changes and changes["level"] != character.level:
        # XP counts within the level, so the old level's XP would level a lowered character right back up.
        changes = {**changes, "xp": 0}
    candidate = Character.model_validate({**character.model_dump(), **changes})
    problems = [InputProblem(f"{name}: {message}") for name, message in candidate.problems()]
    if problems:
        raise RuleInputError(problems)
    return with_xp(candidate, candidate.xp)


CHARACTER_STATS = tuple(name for name in Character.model_fields if name in STAT_LIMITS)  # gold is earned, not set


POTION_LIMIT = int(STAT_LIMITS["potions"].maximum)  # potions a character can carry


def potion_purchase_problem(character: Character, potions: int) -> str | None:
    """Why the character cannot buy `potions` in the shop (POTION_PRICE gold each), or None if it can."""
    price = potions * POTION_PRICE
    if price > character.gold:
        return (
            f"{plural(potions, 'potion')} {'costs' if potions == 1 else 'cost'} {price:,} gold ({POTION_PRICE} each); "
            f"you have {character.gold:,}."
        )
    if character.potions + potions > POTION_LIMIT:
        room = POTION_LIMIT - character.potions
        return f"You carry {plural(character.potions, 'potion')} and can carry at most {POTION_LIMIT}; " + (
            f"buy {room} at most." if room else "you have no room for more."
        )
    return None


def with_potions_bought(character: Character, potions: int) -> Character:
    """The character after buying `potions` in the shop; RuleInputError when it cannot (potion_purchase_problem)."""
    problem = potion_purchase_problem(character, potions)
    if problem is not None:
        raise RuleInputError(problem)
    price = potions * POTION_PRICE
    return character.model_copy(update={"gold": character.gold - price, "potions": character.potions + potions})


def death_penalty(xp: int) -> int:
    """XP lost on death: 30% of the XP within the current level, rounded down, so never a level."""
    return xp * DEATH_XP_LOSS_PERCENT // 100


# --- the fight ------------------------------------------------------------------------------------------


def player_fighter(character: Character, name: str = PLAYER_NAME) -> PlayerFighter:
    return PlayerFighter(
        name=name,
        max_hp=character.max_hp,
        hp=character.max_hp,
        **character.model_dump(
            include=(set(Fighter.model_fields) | {"potions", "potion_heal"}) - {"name", "max_hp", "hp", "xp"}
        ),
    )


def monster_fighters(monster: Monster, count: int) -> list[Fighter]:
    if not 1 <= count <= MAX_MONSTERS:
        raise RuleInputError(f"a fight has 1 to {MAX_MONSTERS} monsters, not {count}")
    stats = monster.model_dump(exclude={"name", "hp", "gold_min", "gold_max", "aggressive"})
    gold_min, gold_max = monster.gold_range
    return [
        Fighter(
            name=monster.name if count == 1 else f"{monster.name} {i + 1}",
            max_hp=monster.hp,
            hp=monster.hp,
            gold_min=gold_min,
            gold_max=gold_max,
            **stats,
        )
        for i in range(count)
    ]


def start_fight(
    character: Character,
    monster: Monster,
    count: int = 1,
    rng: random.Random | None = None,
    *,
    monsters_first: bool = False,
    seed: int = 0,
) -> tuple[FightState, list[Event]]:
    """A fresh fight at full HP. The player engages, so the player starts, unless `monsters_first` (or the
    monster is aggressive: RULINGS 6). `seed` is the fight's, from which `replay_rng` derives the randomness
    of each move; the monsters' opening turn is move 0, drawn from `rng` when given."""
    state = FightState(
        player=player_fighter(character), monsters=monster_fighters(monster, count), ap_left=character.ap, seed=seed
    )
    events: list[Event] = []
    if monsters_first or monster.aggressive:
        if rng is None:
            rng = replay_rng(state)
            state.moves = 1
        state.round = 0  # the monsters' opening turn comes before the player's first round
        _monsters_turn(state, rng, events)
        state.hurt_this_round = False  # the opening is not a round: the rounds without damage count from round 1
        if state.phase == "player":
            state.round = 1
            _start_player_turn(state, events)
    else:
        events.append(TurnEvent(round=1, side="player", ap=state.ap_left))
    _remember(state, events)
    return state, events


def legal_actions(state: FightState, player: int = PLAYER) -> list[Action]:
    if player != PLAYER or state.phase != "player":
        return []
    fighter, ap = state.player, state.ap_left
    actions: list[Action] = []
    if ap >= fighter.attack_cost:
        actions += [Action.attack(i) for i, m in enumerate(state.monsters) if m.alive]
    if fighter.potions > 0 and ap >= POTION_COST and fighter.hp < fighter.max_hp:
        actions.append(Action("potion"))
    if ap >= FLEE_COST:
        actions.append(Action("flee"))
    if stalemate(state):
        actions.append(CALL_DRAW)
    actions.append(Action("end_turn"))
    return actions


def apply_in_place(state: FightState, action: Action, rng: random.Random) -> list[Event]:
    """The player's action, then (when the player's turn is over) the monsters' turn, on `state` itself.
    An action that is not legal raises RuleInputError and changes nothing."""
    if action not in legal_actions(state):
        raise RuleInputError(f"'{action}' is not possible now")
    player = state.player
    events: list[Event] = []
    turn_over = False
    if action.kind == "attack":
        state.ap_left -= player.attack_cost
        index = action.target or 0
        target = state.monsters[index]
        attack = roll_attack(player, target, state.round, rng)
        events.append(attack)
        state.hurt_this_round |= attack.damage > 0
        if attack.killed:
            _loot(state, index, attack)
        if not any(m.alive for m in state.monsters):
            _finish(state, "won", events)
    elif action.kind == "potion":
        state.ap_left -= POTION_COST
        healed = drink_potion_in_place(player)
        state.potions_drunk += 1
        events.append(PotionEvent(round=state.round, healed=healed, hp=player.hp, potions_left=player.potions))
    elif action.kind == "flee":
        state.ap_left -= FLEE_COST
        roll, escaped = flee_roll(rng)
        events.append(FleeEvent(round=state.round, roll=roll, chance=FLEE_CHANCE, escaped=escaped))
        if escaped:
            _finish(state, "fled", events)
        turn_over = True
    elif action.kind == "call_draw":
        _finish(state, "draw", events, called=True)
    else:
        turn_over = True
    # the turn ends by itself when nothing but End turn is left (calling a draw spends no AP, so it does not count)
    left = [a for a in legal_actions(state) if a != CALL_DRAW]
    if state.phase == "player" and (turn_over or left == [Action("end_turn")]):
        _monsters_turn(state, rng, events)
        if state.phase == "player":
            _end_round(state, events)
        if state.phase == "player":
            state.round += 1
            _start_player_turn(state, events)
    if not state.monsters[state.target].alive:  # the aimed monster died: aim at the first one standing
        state.target = next((i for i, m in enumerate(state.monsters) if m.alive), state.target)
    state.moves += 1
    _remember(state, events)
    return events


def applied(state: FightState, action: Action, rng: random.Random) -> tuple[FightState, list[Event]]:
    """`apply_in_place` on a copy: the new state and what happened; `state` is left as it was."""
    new = state.model_copy(deep=True)
    return new, apply_in_place(new, action, rng)


def abandon_in_place(state: FightState) -> list[Event]:
    """The fight's channel was deleted: the fight ends as if the player fled, on `state` itself (no roll and no
    move: the kills' XP and gold so far stand, as after an escape). A fight already over is left as it is."""
    events: list[Event] = []
    if state.phase == "player":
        _finish(state, "fled", events)
        _remember(state, events)
    return events


def abandoned(state: FightState) -> FightState:
    """`abandon_in_place` on a copy; `state` is left as it was."""
    new = state.model_copy(deep=True)
    abandon_in_place(new)
    return new


def aim_in_place(state: FightState, index: int) -> None:
    """Aim the player's attacks at monster `index`, on `state` itself (a move: the next move's randomness
    changes with it)."""
    if state.phase != "player" or not (0 <= index < len(state.monsters) and state.monsters[index].alive):
        raise RuleInputError("That monster cannot be attacked any more.")
    state.target = index
    state.moves += 1


def aimed(state: FightState, index: int) -> FightState:
    """`aim_in_place` on a copy; `state` is left as it was."""
    new = state.model_copy(deep=True)
    aim_in_place(new, index)
    return new


def replay_rng(state: FightState) -> random.Random:
    """The randomness of the fight's next move: move n of a fight with seed s draws from Random(f"{s}:{n}"),
    so a saved fight goes on exactly as it would have without the save, and replays from its seed and moves."""
    return move_rng(REPLAY_STREAM, state.seed, state.moves)


def outcome(state: FightState) -> FightOutcome | None:
    """None while the fight goes on; else who won (the player when the monsters are all dead, nobody
    otherwise: the monsters are no player) and how it ended."""
    if state.phase == "player":
        return None
    ending = Ending(state.phase)
    return Outcome(PLAYER if ending is Ending.WON else None, ending)


def summary(state: FightState) -> FightSummary | None:
    """What a finished fight leaves for its reader and for `settle`; None while it goes on."""
    if state.phase == "player":
        return None
    return FightSummary(
        Ending(state.phase),
        state.round,
        state.player.hp,
        state.xp_gained,
        state.gold_gained,
        state.potions_drunk,
        sum(not monster.alive for monster in state.monsters),
    )


def settle(character: Character, fight: FightSummary) -> tuple[Character, int]:
    """The stored character after the fight, and its XP change: the kills' XP (and gold) whatever the end,
    then, on a defeat, the death penalty on the XP held at that moment (RULINGS 6). The potions drunk are
    spent, however the fight ends (RULINGS 7), from the count stored now (never below 0).

    Fights start at full HP, so only XP, level, gold and potions change.
    """
    after_kills = with_xp(character, character.xp + fight.xp).model_copy(
        update={"gold": character.gold + fight.gold, "potions": max(0, character.potions - fight.potions_drunk)}
    )
    if fight.ending is Ending.LOST:
        lost = death_penalty(after_kills.xp)
        return after_kills.model_copy(update={"xp": after_kills.xp - lost}), fight.xp - lost
    return after_kills, fight.xp


# --- internals ------------------------------------------------------------------------------------------


def roll_attack(attacker: Fighter, target: Fighter, round_: int, rng: random.Random) -> AttackEvent:
    """One attack of `attacker` on `target`, on `target` itself (its HP), with the draws in the module's order
    (a party fight rolls its attacks with it too)."""
    chance = hit_chance(attacker.attack_chance, target.block_chance)
    roll = d100(rng)
    if roll > chance:
        return AttackEvent(
            round=round_,
            attacker=attacker.name,
            target=target.name,
            hit_chance=chance,
            roll=roll,
            hit=False,
            target_hp=target.hp,
        )
    base = uniform(rng, attacker.damage_min, attacker.damage_max)
    crit_roll = d100(rng) if attacker.crit_chance > 0 else None
    critical = crit_roll is not None and crit_roll <= attacker.crit_chance
    multiplier = hundredths(attacker.crit_multiplier) if critical else 100
    damage = final_damage(base, attacker.ad_bonus, multiplier, target.damage_resistance, target.armor)
    target.hp = max(0, target.hp - damage)
    return AttackEvent(
        round=round_,
        attacker=attacker.name,
        target=target.name,
        hit_chance=chance,
        roll=roll,
        hit=True,
        base_damage=base,
        crit_chance=attacker.crit_chance if crit_roll is not None else None,
        crit_roll=crit_roll,
        critical=critical,
        damage=damage,
        target_hp=target.hp,
        killed=target.hp == 0,
    )


def _monsters_turn(state: FightState, rng: random.Random, events: list[Event]) -> None:
    events.append(TurnEvent(round=state.round, side="monsters"))
    for monster in state.monsters:
        if not monster.alive:
            continue
        for _ in range(monster.ap // monster.attack_cost):
            attack = roll_attack(monster, state.player, state.round, rng)
            events.append(attack)
            state.hurt_this_round |= attack.damage > 0
            if not state.player.alive:
                _finish(state, "lost", events)
                return


def _start_player_turn(state: FightState, events: list[Event]) -> None:
    state.ap_left = state.player.ap
    events.append(TurnEvent(round=state.round, side="player", ap=state.ap_left))


def _finish(
    state: FightState, result: Literal["won", "lost", "fled", "draw"], events: list[Event], *, called: bool = False
) -> None:
    state.phase = result
    events.append(EndEvent(round=state.round, result=result, xp=state.xp_gained, gold=state.gold_gained, called=called))


def _loot(state: FightState, index: int, kill: AttackEvent) -> None:
    """A monster killed by the player: its XP, and gold drawn apart from the fight's own dice (so the
    combat plays exactly as without loot): uniform in the monster's range, from the fight's seed, the move
    and the monster."""
    monster = state.monsters[index]
    kill.xp = monster.xp
    loot_rng = move_rng(REPLAY_STREAM, state.seed, state.moves, "loot", index)
    kill.gold = uniform(loot_rng, monster.gold_min, monster.gold_max)
    state.xp_gained += kill.xp
    state.gold_gained += kill.gold


def _end_round(state: FightState, events: list[Event]) -> None:
    """After the monsters' turn: QUIET_ROUNDS_FOR_DRAW rounds in a row without damage end the fight (RULINGS 6)."""
    state.quiet_rounds = 0 if state.hurt_this_round else state.quiet_rounds + 1
    state.hurt_this_round = False
    if state.quiet_rounds >= QUIET_ROUNDS_FOR_DRAW:
        _finish(state, "draw", events)


def _remember(state: FightState, events: Sequence[Event]) -> None:
    state.feed = (list(state.feed) + list(events))[-FEED_LENGTH:]
