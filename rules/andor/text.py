"""Plain-text lines for fight events and simulation summaries, shared by the CLI and the bot."""

from __future__ import annotations

from rules.andor.engine import damage_range, hit_chance, legal_actions, mean_damage, monster_fighters, player_fighter
from rules.andor.models import (
    FLEE,
    FLEE_COST,
    PLAYER_NAME,
    POTION,
    AttackEvent,
    Character,
    Event,
    Fighter,
    FightState,
    FleeEvent,
    Monster,
    PotionEvent,
    TurnEvent,
    hundredths,
)
from rules.andor.simulate import MAX_ROUNDS, SimulationResult
from rules.text import Mark, format_number, plain, plural


def describe_event(event: Event, shown: Mark = plain, strong: Mark = plain) -> str:
    """One line of the fight's feed; `shown` formats the fighters' names (the bot escapes them, the CLI not),
    `strong` a critical hit and a kill (the bot in bold)."""
    if isinstance(event, AttackEvent):
        head = f"{shown(event.attacker)} → {shown(event.target)}"
        if not event.hit:
            return f"{head}: miss (rolled {event.roll} > {event.hit_chance}%)"
        crit = ""
        if event.critical:
            crit = f", {strong('CRITICAL')} (crit roll {event.crit_roll} ≤ {event.crit_chance}%)"
        elif event.crit_roll is not None:
            crit = f", crit roll {event.crit_roll} > {event.crit_chance}%"
        end = strong("killed") if event.killed else f"{event.target_hp} HP left"
        if event.killed and event.attacker == PLAYER_NAME:  # XP and gold are the player's at each kill (RULINGS 6)
            end += f": +{event.xp} XP, +{plural(event.gold, 'gold piece')}"
        return (
            f"{head}: hit (rolled {event.roll} ≤ {event.hit_chance}%), damage {event.damage}"
            f" (rolled {event.base_damage}{crit}); {end}"
        )
    if isinstance(event, PotionEvent):
        return f"Potion: +{event.healed} HP → {event.hp} HP, {event.potions_left} left"
    if isinstance(event, FleeEvent):
        if event.escaped:
            return f"Flee: rolled {event.roll} ≤ {event.chance}%, escaped"
        return f"Flee: rolled {event.roll} > {event.chance}%, failed; the turn ends"
    if isinstance(event, TurnEvent):
        if event.side == "player":
            return f"Round {event.round}: your turn, {event.ap} AP"
        return "The monsters' turn"
    draw = "A draw, called: neither side can hurt the other" if event.called else "A draw: no damage for 20 rounds"
    return {"won": "Victory", "lost": "Defeat", "fled": "You got away", "draw": draw}[event.result] + (
        f" (kills: +{event.xp} XP, +{plural(event.gold, 'gold piece')})" if event.xp or event.gold else ""
    )


def damage_text(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def attack_text(attacker: Fighter, target: Fighter, target_name: str, *, with_mean: bool = False) -> str:
    """`78% to hit you for 3-6`, with the critical hits and (on request) the mean damage of an attack."""
    text = f"{hit_chance(attacker.attack_chance, target.block_chance)}% to hit {target_name}"
    text += f" for {damage_text(*damage_range(attacker, target))}"
    if attacker.crit_chance > 0:
        critical = damage_range(attacker, target, critical=True)
        text += f" ({attacker.crit_chance}% of hits critical, for {damage_text(*critical)})"
    if with_mean:
        text += f", on average {mean_damage(attacker, target):.2f} per attack"
    return text


def crit_text(chance: int, multiplier: float) -> str:
    if chance <= 0:
        return "none"
    return f"{chance}% x{format_number(hundredths(multiplier) / 100)}"


def percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.2f}%" if whole else "-"


def simulation_heading(result: SimulationResult, monster_name: str, *, with_seed: bool = True) -> str:
    """What was simulated: `Wolf x2: 10,000 fights (seed 4), player max HP 45`."""
    seed = f" (seed {result.seed})" if with_seed else ""
    return f"{monster_name} x{result.count}: {plural(result.fights, 'fight')}{seed}, player max HP {result.max_hp}"


def undecided_text(result: SimulationResult) -> str | None:
    """The fights still going at the round limit, when there are some."""
    return f"undecided after {MAX_ROUNDS:,} rounds {result.undecided:,}" if result.undecided else None


def summary_lines(result: SimulationResult, monster_name: str) -> list[str]:
    """The odds in four lines or fewer; `monster_name` as the reader sees it."""
    fights = result.fights
    undecided = undecided_text(result)
    lines = [
        simulation_heading(result, monster_name),
        f"won {percent(result.wins, fights)} ({result.wins:,}), lost {percent(result.losses, fights)}"
        f" ({result.losses:,}), drawn {result.draws:,}" + (f", {undecided}" if undecided else ""),
        f"mean rounds {result.mean_rounds:.2f}; mean HP left when won "
        + (f"{result.mean_hp_left_won:.2f}" if result.wins else "-"),
    ]
    if result.stopped_early:
        lines.append(result.stopped_early)
    return lines


def matchup_lines(player: Fighter, monster: Fighter, monster_name: str, *, with_mean: bool = False) -> list[str]:
    """What each side's attack does to the other, and how often it comes."""
    attacks = monster.ap // monster.attack_cost
    return [
        f"You: {attack_text(player, monster, monster_name, with_mean=with_mean)}; {player.attack_cost} AP an attack",
        f"{monster_name}: {attack_text(monster, player, 'you', with_mean=with_mean)};"
        f" {plural(attacks, 'attack')} a turn",
    ]


def per_attack_lines(character: Character, monster: Monster, monster_name: str) -> list[str]:
    """The matchup of a character and one monster, with the mean damage of an attack (cost grows with the
    damage ranges, so a bot runs it off the event loop)."""
    return matchup_lines(player_fighter(character), monster_fighters(monster, 1)[0], monster_name, with_mean=True)


def monster_kind(state: FightState) -> str:
    """The bestiary name of the fight's monsters (several are copies named "Wolf 1", "Wolf 2", ...)."""
    first = state.monsters[0].name
    return first if len(state.monsters) == 1 else first.rsplit(" ", 1)[0]


def monster_label(state: FightState) -> str:
    """The fight's monsters in a title: "Wolf", or "Wolf ×3"."""
    count = len(state.monsters)
    return monster_kind(state) if count == 1 else f"{monster_kind(state)} ×{count}"


def turn_hint(state: FightState, strong: Mark = plain) -> str | None:
    """Says why the turn goes on when no attack is affordable: it ends by itself only at 0 AP (RULINGS 4);
    `strong` marks the button to press."""
    cost = state.player.attack_cost
    if state.ap_left == 0 or state.ap_left >= cost:
        return None
    legal = legal_actions(state)
    still = [name for action, name in ((POTION, "drink a potion"), (FLEE, f"flee ({FLEE_COST} AP)")) if action in legal]
    return (
        f"⏳ {state.ap_left} AP left, too few to attack ({cost} AP). You can still {' or '.join(still)};"
        f" press {strong('End turn')} to let the monsters act."
    )
