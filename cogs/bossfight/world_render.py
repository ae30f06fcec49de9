"""The world boss's messages: its spawn, an attack's reply, its status and its end. A member is named only in their
own server (RULINGS 9); other servers by their name where this process serves them, else as another server."""

from __future__ import annotations

from collections.abc import Callable

import discord

from cogs.bossfight.render import timestamp
from cogs.common import hp_figure, markdown_safe, mention
from cogs.common.embeds import COLOR_DEFEAT, COLOR_INFO, COLOR_VICTORY, fit_embed, medal_lines
from rules.bossfight import AttackBreakdown
from rules.bossfight.raid import duration_text
from rules.bossfight.world import AttackOutcome, WorldBossStatus
from rules.text import format_number as num
from rules.text import plural
from storage.tables import FORMER_SERVER
from storage.world_boss_records import AttackResult, MemberCredit, ServerCredit, WorldBoss

BOARD_SHOWN = 10
ServerName = Callable[[int], str]  # a server's name as shown here


def server_label(guild_id: int, here: int, name: ServerName) -> str:
    if guild_id == here:
        return "**this server**"
    if guild_id == FORMER_SERVER:
        return "a former server"
    return name(guild_id)


def place_text(world: list[ServerCredit], here: int) -> str:
    for place, entry in enumerate(world, 1):
        if entry.guild_id == here:
            return f"{place} of {len(world)}"
    return "not on the board yet"


def hp_text(boss: WorldBoss, hp_micro: int | None = None) -> str:
    return f"{hp_figure((boss.hp_micro if hp_micro is None else hp_micro) / 1_000_000)}/{num(boss.max_hp)}"


def spawn_embed(boss: WorldBoss) -> discord.Embed:
    embed = discord.Embed(
        title=f"🌍 A world boss appears: {markdown_safe(boss.boss.name)}",
        description=(
            f"Every server taking part fights it at once. HP **{hp_text(boss)}**; it leaves "
            f"<t:{int(boss.ends_at_unix)}:R>. Attack it here with `/bossfight world attack`."
        ),
        color=COLOR_INFO,
    )
    if boss.cooldown_seconds:
        embed.add_field(name="Cooldown", value=f"one attack a member every {duration_text(boss.cooldown_seconds)}")
    return fit_embed(embed)


def attack_embed(
    attacker: str, boss: WorldBoss, result: AttackResult, figures: AttackBreakdown, place: str
) -> discord.Embed:
    felled = result.outcome is AttackOutcome.FINAL_BLOW
    title = f"⚔️ {markdown_safe(attacker)} hits {markdown_safe(boss.boss.name)} for {num(figures.damage_to_boss)}"
    embed = discord.Embed(title=title, color=COLOR_VICTORY if felled else COLOR_INFO)
    if result.outcome is AttackOutcome.AFTER_FALL:
        credited = "nothing: your attack was stored after the boss fell"
    elif result.outcome is AttackOutcome.AFTER_END:
        credited = "nothing: your attack was stored after the boss's end time"
    else:
        credited = f"**{num(result.credited)}**" + (" - the final blow!" if felled else "")
    embed.add_field(name="Credited", value=credited, inline=False)
    embed.add_field(name="World boss HP", value=hp_text(boss, result.hp_after_micro))
    embed.add_field(name="Damage your deck took", value=num(figures.damage_to_deck))
    embed.add_field(name="This server's place", value=place)
    return fit_embed(embed)


def board_lines(board: list[MemberCredit]) -> str:
    rows = [f"{mention(m.user_id)}: {num(m.credited)} ({plural(m.attacks, 'attack')})" for m in board[:BOARD_SHOWN]]
    return "\n".join(medal_lines(rows)) or "Nobody here has attacked yet."


def world_lines(world: list[ServerCredit], here: int, name: ServerName) -> str:
    rows = [
        f"{server_label(s.guild_id, here, name)}: {num(s.credited)} ({plural(s.members, 'member')})"
        for s in world[:BOARD_SHOWN]
    ]
    return "\n".join(medal_lines(rows)) or "No server has attacked yet."


def status_embed(
    boss: WorldBoss,
    now: float,
    board: list[MemberCredit],
    world: list[ServerCredit],
    here: int,
    name: ServerName,
) -> discord.Embed:
    left = max(0.0, boss.ends_at_unix - now)
    embed = discord.Embed(
        title=f"🌍 {markdown_safe(boss.boss.name)}: {hp_text(boss)} HP",
        description=f"Time left: {duration_text(left)}. This server's place: {place_text(world, here)}.",
        color=COLOR_INFO,
    )
    embed.add_field(name="This server's board", value=board_lines(board), inline=False)
    embed.add_field(name="The world's board", value=world_lines(world, here, name), inline=False)
    return fit_embed(embed)


def end_embed(
    boss: WorldBoss,
    final: AttackResult | None,
    board: list[MemberCredit],
    world: list[ServerCredit],
    here: int,
    name: ServerName,
) -> discord.Embed:
    if boss.status is WorldBossStatus.FELLED and final is not None:
        by = server_label(final.guild_id, here, name)
        who = f" ({mention(final.user_id)})" if final.guild_id == here else ""
        title, color = f"🏆 {markdown_safe(boss.boss.name)} has fallen!", COLOR_VICTORY
        description = f"The final blow came from {by}{who}."
    else:
        title, color = f"⌛ {markdown_safe(boss.boss.name)} got away", COLOR_DEFEAT
        description = f"Its time ran out with {hp_text(boss)} HP left."
    embed = discord.Embed(
        title=title, description=f"{description} This server's place: {place_text(world, here)}.", color=color
    )
    embed.add_field(name="This server's board", value=board_lines(board), inline=False)
    embed.add_field(name="The world's top servers", value=world_lines(world, here, name), inline=False)
    return fit_embed(embed)


def history_embed(bosses: list[WorldBoss]) -> discord.Embed:
    lines = [
        f"#{b.id} {markdown_safe(b.boss.name)}: {'felled' if b.status is WorldBossStatus.FELLED else 'got away'} "
        f"({num(b.max_hp)} HP, ended {timestamp(b.ended_at)})"
        for b in bosses
    ]
    embed = discord.Embed(
        title="🌍 Past world bosses", description="\n".join(lines) or "No world boss has ended yet.", color=COLOR_INFO
    )
    return fit_embed(embed)
