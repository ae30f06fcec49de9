"""What /andor shows: the fight's message (embed and components), characters, monsters, and the odds."""

from __future__ import annotations

from collections.abc import Collection, Mapping

import discord

from cogs.andor.items import fight_button, target_select
from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    EmbedLimits,
    PlainLimits,
    bold,
    fit_embed,
    hp_bar,
    lines_within,
    markdown_safe,
    mention,
    plain_text,
    progress_bar,
    seed_footer,
    tail_within,
)
from rules.andor.engine import best_hit, legal_actions, stalemate
from rules.andor.models import (
    CALL_DRAW,
    DEATH_XP_LOSS_PERCENT,
    FLEE,
    FLEE_CHANCE,
    POTION,
    POTION_COST,
    POTION_PRICE,
    QUIET_ROUNDS_FOR_DRAW,
    Action,
    Character,
    FightState,
    Monster,
    xp_to_next_level,
)
from rules.andor.simulate import SimulationResult
from rules.andor.text import (
    crit_text,
    describe_event,
    matchup_lines,
    monster_kind,
    monster_label,
    percent,
    simulation_heading,
    turn_hint,
    undecided_text,
)
from rules.text import format_number, plural
from storage.andor import Fight, FightStatus

COLOR_FLED = discord.Color.light_grey()
CHART_FILE = "hp-left.png"
STATUS_COLORS = {
    FightStatus.LIVE: COLOR_INFO,
    FightStatus.WON: COLOR_VICTORY,
    FightStatus.LOST: COLOR_DEFEAT,
    FightStatus.FLED: COLOR_FLED,
    FightStatus.DRAW: COLOR_FLED,
}


def level_text(level: int, xp: int) -> str:
    return f"level {level}, {xp}/{xp_to_next_level(level)} XP"


def loot_text(xp: int, gold: int) -> str:
    return f"+{xp} XP, +{plural(gold, 'gold piece')}"


def result_line(fight: Fight) -> str:
    """The fight's end: the kills' XP and gold are kept whatever the end (RULINGS 6), then the level."""
    state = fight.state
    level = level_text(fight.level_after or 0, fight.xp_after or 0)
    loot = loot_text(state.xp_gained, state.gold_gained)
    if fight.status == FightStatus.WON:
        return f"🏆 **Victory!** {loot} · {level}"
    if fight.status == FightStatus.LOST:
        penalty = state.xp_gained - (fight.xp_change or 0)
        kills = f"Your kills gave {loot}; then y" if state.xp_gained or state.gold_gained else "Y"
        return (
            f"💀 **Defeated.** {kills}ou lose {penalty} XP ({DEATH_XP_LOSS_PERCENT}% of this level's XP) and wake up at "
            f"full HP · {level}"
        )
    kept = f"You keep what your kills gave: {loot} · {level}" if state.xp_gained or state.gold_gained else ""
    if fight.status == FightStatus.DRAW and state.quiet_rounds < QUIET_ROUNDS_FOR_DRAW:
        return f"🤝 **A draw, called:** neither side can hurt the other. {kept}".rstrip()
    if fight.status == FightStatus.DRAW:
        return f"🤝 **A draw:** {QUIET_ROUNDS_FOR_DRAW} rounds without damage on either side. {kept}".rstrip()
    if kept or state.potions_drunk:
        return f"🏃 **You got away.** {kept}".rstrip()
    return "🏃 **You got away.** Nothing gained, nothing lost."


def spent_line(fight: Fight) -> str | None:
    """The potions a finished fight used up: they are gone from the stored character (RULINGS 7)."""
    drunk = fight.state.potions_drunk
    if not drunk:
        return None
    return f"🧪 {plural(drunk, 'potion')} drunk, and spent: buy more in /andor shop."


def fight_embed(fight: Fight, player_name: str) -> discord.Embed:
    """The fight's message; `player_name` is the fighter's display name (the title names them, the text
    mentions them)."""
    state = fight.state
    player = state.player
    head: list[str] = []
    if fight.status != FightStatus.LIVE:
        head.append(result_line(fight))
        if spent := spent_line(fight):
            head.append(spent)
    head.append(f"{mention(fight.user_id)} HP {hp_bar(player.hp, player.max_hp, 12)}")
    if fight.status == FightStatus.LIVE:
        head.append(
            f"AP {hp_bar(state.ap_left, player.ap, 10)} · 🧪 {plural(player.potions, 'potion')}"
            f" (+{player.potion_heal} HP for {POTION_COST} AP, when hurt)"
        )
    target = state.monsters[state.target]
    yours, theirs = matchup_lines(player, target, markdown_safe(monster_kind(state)))
    head += [f"🗡️ {yours}", f"🩸 {'Each ' if len(state.monsters) > 1 else ''}{theirs}"]
    if fight.status == FightStatus.LIVE and (warning := cannot_hurt_warning(state)):
        head.append(warning)
    if fight.status == FightStatus.LIVE and (hint := turn_hint(state, bold)):
        head.append(hint)
    feed = [describe_event(e, markdown_safe, bold) for e in state.feed]
    description = "\n".join(head) + "\n\n**Latest**\n"
    description += tail_within(feed, EmbedLimits.DESCRIPTION - len(description) - 10)
    embed = discord.Embed(
        title=f"⚔️ {markdown_safe(player_name)} vs {markdown_safe(monster_label(state))}",
        description=description,
        color=STATUS_COLORS[fight.status],
    )
    for index, monster in enumerate(state.monsters):
        aimed = fight.status == FightStatus.LIVE and index == state.target and monster.alive and len(state.monsters) > 1
        embed.add_field(
            name=f"{'🎯 ' if aimed else ''}{markdown_safe(monster.name)}",
            value=hp_bar(monster.hp, monster.max_hp, 10) if monster.alive else "☠️ defeated",
            inline=True,
        )
    footer = seed_footer(fight.seed, f"round {state.round}", f"fight #{fight.id}")
    if fight.status == FightStatus.LIVE:
        footer += "\nYour turn ends at 0 AP or with End turn; a failed flee ends it too."
    embed.set_footer(text=footer)
    return fit_embed(embed)


def cannot_hurt_line(resistance: int, *, several: bool = False) -> str:
    """The warning of the bestiary and of a fight against a monster the character's best hit cannot hurt."""
    it, its = ("them", "their") if several else ("it", "its")
    return f"⚠️ You cannot hurt {it}: {its} damage resistance ({resistance}) takes all of your best hit."


def cannot_hurt_warning(state: FightState) -> str | None:
    """Said from the fight's first message while no monster standing can be hurt, with the way out: a draw
    called at once when they cannot hurt you either, else a flight."""
    standing = [m for m in state.monsters if m.alive]
    if any(best_hit(state.player, m) > 0 for m in standing):
        return None
    warning = cannot_hurt_line(standing[0].damage_resistance, several=len(standing) > 1)
    if stalemate(state):
        return f"{warning} Nor can {'they' if len(standing) > 1 else 'it'} hurt you: **Call it a draw** ends the fight now."
    return f"{warning} **Flee** ({FLEE_CHANCE}%) before you fall."


def fight_link(fight: Fight) -> str:
    """The link to the fight's message (built from the stored ids: the guild need not be cached)."""
    return f"https://discord.com/channels/{fight.guild_id}/{fight.channel_id}/{fight.message_id}"


def already_in_a_fight(fight: Fight) -> str:
    """Said privately to a member who starts a fight during one: where it is (its message now up to date)."""
    return (
        f"You are already in a fight: {fight_link(fight)} (it now shows the fight as it is). "
        "Finish it (or flee) before starting another."
    )


def fight_view(fight: Fight) -> discord.ui.View:
    """The fight's buttons (and the target select against several monsters standing); none once it is over."""
    view = discord.ui.View(timeout=None)
    if fight.status != FightStatus.LIVE:
        return view
    state = fight.state
    legal = legal_actions(state)
    living = [(i, m) for i, m in enumerate(state.monsters) if m.alive]
    if len(living) > 1:
        options = [
            discord.SelectOption(
                label=plain_text(f"{m.name} ({m.hp}/{m.max_hp} HP)", PlainLimits.OPTION_LABEL),
                value=str(i),
                default=i == state.target,
            )
            for i, m in living
        ]
        view.add_item(target_select(fight.id, fight.version, options))
    target = state.monsters[state.target]
    buttons = [
        (
            "attack",
            plain_text(f"Attack {target.name}", PlainLimits.BUTTON_LABEL),
            discord.ButtonStyle.danger,
            Action.attack(state.target) in legal,
        ),
        ("potion", f"Potion ({state.player.potions})", discord.ButtonStyle.success, POTION in legal),
        ("flee", f"Flee ({FLEE_CHANCE}%)", discord.ButtonStyle.secondary, FLEE in legal),
        ("end", "End turn", discord.ButtonStyle.primary, True),
    ]
    if CALL_DRAW in legal:  # only while neither side can hurt the other
        buttons.insert(3, ("draw", "Call it a draw", discord.ButtonStyle.secondary, True))
    for action, label, style, enabled in buttons:
        view.add_item(fight_button(fight.id, fight.version, action, label, style, enabled=enabled))
    return view


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
