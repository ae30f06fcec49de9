"""What /andor shows besides a fight: the bestiary, a monster with the member's odds, the character card, and the
odds of /andor simulate."""

from __future__ import annotations

from collections.abc import Collection, Mapping

import discord

from cogs.andor.render import CHART_FILE, cannot_hurt_line
from cogs.common import COLOR_INFO, EmbedLimits, fit_embed, lines_within, markdown_safe, progress_bar, seed_footer
from rules.andor.models import POTION_COST, POTION_PRICE, Character, Monster
from rules.andor.simulate import SimulationResult
from rules.andor.text import crit_text, percent, simulation_heading, undecided_text
from rules.text import format_number, plural


def monster_line(monster: Monster, own: bool) -> str:
    return (
        f"**{markdown_safe(monster.name)}**{' (this server)' if own else ''}: HP {monster.hp}, "
        f"AC {monster.attack_chance}, damage {monster.damage_min}-{monster.damage_max}, BC {monster.block_chance}, "
        f"DR {monster.damage_resistance}, XP {monster.xp}"
    )


def bestiary_embed(book: Mapping[str, Monster], own: Collection[str]) -> discord.Embed:
    """/andor bestiary: the server's monsters, keyed by `name_key`; `own` are the keys of its uploaded ones."""
    embed = discord.Embed(
        title=f"Bestiary ({len(book)})",
        description=lines_within([monster_line(m, k in own) for k, m in book.items()], EmbedLimits.DESCRIPTION),
        color=COLOR_INFO,
    )
    embed.set_footer(text="/andor bestiary name:<monster> for details · GMs add monsters with /andor monsters upload")
    return fit_embed(embed)


def odds_text(odds: SimulationResult, damage_resistance: int, *, hurt: bool) -> str:
    """The quick odds against one monster, warned when the character (`hurt` False) cannot hurt it."""
    lines = [
        f"won {100 * odds.win_rate:.1f}% of {plural(odds.fights, 'fight')}, {odds.mean_rounds:.1f} rounds on average"
    ]
    if not hurt:
        lines.append(cannot_hurt_line(damage_resistance))
    return "\n".join(lines)


def monster_embed(
    monster: Monster, own: bool, per_attack: list[str], odds: SimulationResult, *, hurt: bool
) -> discord.Embed:
    """/andor bestiary name:…: one monster, what each side's attack does, and the member's quick odds against it
    (`hurt`: whether their character can hurt it)."""
    embed = discord.Embed(title=markdown_safe(monster.name), description=monster_line(monster, own), color=COLOR_INFO)
    for field_name, value in [
        (
            "AP / attack cost",
            f"{monster.ap} / {monster.attack_cost} ({plural(monster.ap // monster.attack_cost, 'attack')} a turn)",
        ),
        ("Critical", crit_text(monster.crit_chance, monster.crit_multiplier)),
    ]:
        embed.add_field(name=field_name, value=value, inline=True)
    embed.add_field(name="Per attack, with your character", value="\n".join(per_attack), inline=False)
    embed.add_field(
        name="Your odds against one", value=odds_text(odds, monster.damage_resistance, hurt=hurt), inline=False
    )
    embed.set_footer(
        text=seed_footer(odds.seed, f"{plural(odds.fights, 'fight')} played by the AI with your character")
    )
    return fit_embed(embed)


def character_embed(character: Character, name: str, title: str | None = None) -> discord.Embed:
    c = character
    embed = discord.Embed(title=title or f"{markdown_safe(name)}'s character", color=COLOR_INFO)
    fields = [
        ("Level", f"{c.level} ({c.xp}/{c.xp_to_next_level} XP)"),
        ("Max HP", f"{c.max_hp} ({c.base_hp} + 5×{c.level} + {c.hp_bonus})"),
        ("AP", f"{c.ap}, attack costs {c.attack_cost} ({plural(c.ap // c.attack_cost, 'attack')} a turn)"),
        ("Attack chance (AC)", str(c.attack_chance)),
        ("Damage", f"{c.damage_min}-{c.damage_max}" + (f" +{c.ad_bonus}%" if c.ad_bonus else "")),
        ("Critical", crit_text(c.crit_chance, c.crit_multiplier)),
        ("Block chance (BC)", str(c.block_chance)),
        ("Damage resistance (DR)", str(c.damage_resistance)),
        ("Armor", f"{c.armor} (takes {format_number(100 - c.armor / 2)}% damage)"),
        ("Potions", f"{c.potions}, heal {c.potion_heal} HP each ({POTION_COST} AP)"),
        ("Gold", f"{c.gold:,} (a potion costs {POTION_PRICE} in /andor shop)"),
    ]
    for field_name, value in fields:
        embed.add_field(name=field_name, value=value, inline=True)
    embed.set_footer(
        text="Change it with /andor character set. Every fight starts at full HP; a potion drunk in it is spent."
    )
    return fit_embed(embed)


def progress_embed(title: str, done: float, fights: int, seed: int) -> discord.Embed:
    """/andor simulate while it runs: how much is done."""
    return discord.Embed(
        title=title, description=f"{progress_bar(done)}\n{plural(fights, 'fight')} · seed {seed}", color=COLOR_INFO
    )


def odds_embed(title: str, result: SimulationResult, per_attack: list[str]) -> discord.Embed:
    """The odds of /andor simulate: what was played in the description, each figure once in the fields."""
    fights = result.fights
    about = [simulation_heading(result, markdown_safe(result.monster), with_seed=False)]  # the footer has the seed
    if result.stopped_early:
        about.append(result.stopped_early)
    embed = discord.Embed(title=title, description="\n".join(about), color=COLOR_INFO)
    drawn = f"{result.draws:,}" + (f"; {undecided}" if (undecided := undecided_text(result)) else "")
    for name, value in [
        ("Win rate", f"{percent(result.wins, fights)} ({result.wins:,} won)"),
        ("Lost", f"{percent(result.losses, fights)} ({result.losses:,})"),
        ("Drawn", drawn),
        ("Mean rounds", f"{result.mean_rounds:.2f}"),
        ("Mean HP left (won)", f"{result.mean_hp_left_won:.2f}" if result.wins else "-"),
    ]:
        embed.add_field(name=name, value=value, inline=True)
    embed.add_field(name="Per attack", value="\n".join(per_attack), inline=False)
    embed.set_image(url=f"attachment://{CHART_FILE}")
    embed.set_footer(
        text=seed_footer(result.seed, "the AI drinks a potion at half HP, attacks the weakest, never flees")
    )
    return fit_embed(embed)
