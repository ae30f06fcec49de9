"""What /andor shows: the fight's message (embed and components), characters, monsters, and the odds."""

from __future__ import annotations

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
    markdown_safe,
    mention,
    plain_text,
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
    QUIET_ROUNDS_FOR_DRAW,
    Action,
    FightState,
    xp_to_next_level,
)
from rules.andor.text import (
    describe_event,
    matchup_lines,
    monster_kind,
    monster_label,
    turn_hint,
)
from rules.text import plural
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
