"""/bossfight's rendering: every embed and file the game sends (bosses, attacks, leaderboards, decks)."""

from __future__ import annotations

import discord

from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    EmbedLimits,
    clip,
    fit_embed,
    hp_bar,
    lines_within,
    markdown_safe,
    medal_lines,
    mention,
    text_file,
)
from rules.bossfight import AttackBreakdown, Boss, Deck
from rules.bossfight.raid import duration_text
from rules.bossfight.report import format_breakdown, format_modifier
from rules.text import format_number as num
from rules.text import plural
from storage.bossfight import DamageTotal, FinishedRaid, LandedAttack, Raid, RaidStatus, SavedDeck
from storage.times import unix_time

ELEMENT_ICONS = {"Water": "💧", "Fire": "🔥", "Air": "🌪️", "Lightning": "⚡", "Earth": "🪨", "None": "◽"}


def describe_boss(boss: Boss) -> str:
    def traits(penetration: bool, resistance: bool) -> str:
        marks = [m for m, on in (("pen", penetration), ("res", resistance)) if on]
        return f" ({', '.join(marks)})" if marks else ""

    return (
        f"{ELEMENT_ICONS[boss.element]} **{markdown_safe(boss.name)}**: level {num(boss.level)} {boss.element}, "
        f"HP {num(boss.health)}, "
        f"physical {num(boss.physical_damage)}{traits(boss.physical_penetration, boss.physical_resistance)}, "
        f"magical {num(boss.magical_damage)}{traits(boss.magical_penetration, boss.magical_resistance)}"
    )


def leaderboard_lines(totals: list[DamageTotal], *, live: bool = False) -> list[str]:
    """Each attacker, most credited damage first, with the raid's record of them (RULINGS 7): the damage the
    boss's HP absorbed, the overkill apart, the damage taken over the whole raid and the knock-outs. While the
    raid is `live`, also what their next attack starts from where a revive made it differ."""

    def line(t: DamageTotal) -> str:
        overkill = f"; overkill {num(round(t.overkill, 2))} not counted" if round(t.overkill, 2) > 0 else ""
        text = (
            f"{mention(t.user_id)}: {num(round(t.damage, 2))} damage dealt ({plural(t.attacks, 'attack')}{overkill}), "
            f"{num(round(t.taken, 2))} taken"
        )
        if live and round(t.taken_now, 2) != round(t.taken, 2):
            text += f" ({num(round(t.taken_now, 2))} since the last revive)"
        if t.knockouts:
            text += " · 💀 knocked out" + (f" {t.knockouts} times" if t.knockouts > 1 else "")
            if live:
                text += ", waiting for a revive" if t.out_now else ", revived"
        return text

    return medal_lines(line(t) for t in totals)


LEADERBOARD_NOTE = "(damage the boss's HP absorbed; overkill, dealt beyond the HP left, is not counted)"


def token_table(result: AttackBreakdown) -> str:
    def cell(text: str, width: int) -> str:
        return clip(text.replace("`", "'"), width)  # a backtick would end the code block

    # The token's element, then the modifiers: ×phys ×mag ×elem on its damage to the boss, ×you on the boss's
    # magic to the deck (every header names its own column).
    rows = [
        f"{cell(t.name, 14):<14} {cell(t.element, 9):<9} {format_modifier(t.boss_physical_modifier):>5} "
        f"{format_modifier(t.boss_magical_modifier):>5} {format_modifier(t.boss_element_modifier):>5} "
        f"{format_modifier(t.player_element_modifier):>5} {num(round(t.damage_dealt, 2)):>9}"
        for t in result.tokens
    ]
    header = f"{'token':<14} {'element':<9} {'×phys':>5} {'×mag':>5} {'×elem':>5} {'×you':>5} {'dealt':>9}"
    return "```\n" + lines_within([header, *rows], EmbedLimits.FIELD_VALUE - 8) + "\n```"


def breakdown_fields(embed: discord.Embed, result: AttackBreakdown) -> None:
    boss = result.boss
    mod = format_modifier
    embed.add_field(
        name="Damage per token (modifiers: the boss takes ×phys ×mag ×elem, your deck takes ×you)",
        value=token_table(result),
        inline=False,
    )
    embed.add_field(
        name="Stacked modifiers of your deck",
        value=f"physical ×{mod(result.deck_physical_modifier)} · magical ×{mod(result.deck_magical_modifier)} · "
        f"element ×{mod(result.deck_element_modifier)} (over {plural(len(result.traits), 'trait')}; each trait's are in "
        "attack-breakdown.txt)",
        inline=False,
    )
    embed.add_field(
        name="Damage your deck took",
        value=f"{num(boss.physical_damage)} × {mod(result.deck_physical_modifier)} + {num(boss.magical_damage)} × "
        f"{mod(result.deck_magical_modifier)} × {mod(result.deck_element_modifier)} = **{num(result.damage_to_deck)}**",
        inline=False,
    )
    verdict = (
        "still in the raid ✅"
        if result.deck_survives
        else "💀 knocked out of the raid: a GM can bring you back with `/bossfight revive`"
    )
    embed.add_field(
        name="Your deck",
        value=f"health {num(result.deck_health)} − taken earlier in the raid {num(result.damage_taken_before)} − "
        f"this attack {num(result.damage_to_deck)} = **{num(result.deck_hp_after)}** left\n"
        f"{hp_bar(max(result.deck_hp_after, 0), result.deck_health)}\n{verdict}",
        inline=False,
    )


def breakdown_file(result: AttackBreakdown) -> discord.File:
    return text_file("attack-breakdown.txt", format_breakdown(result) + "\n")


def roster_embed(bosses: list[Boss]) -> discord.Embed:
    embed = discord.Embed(
        title=f"Boss roster ({len(bosses)})",
        description=lines_within([describe_boss(b) for b in bosses], EmbedLimits.DESCRIPTION),
        color=COLOR_INFO,
    )
    embed.set_footer(
        text="GMs: /bossfight spawn to start a raid, /bossfight upload to add bosses, "
        "/bossfight remove to take uploaded ones out."
    )
    return fit_embed(embed)


def spawn_embed(raid: Raid) -> discord.Embed:
    boss = raid.boss
    embed = discord.Embed(
        title=f"{ELEMENT_ICONS[boss.element]} {markdown_safe(boss.name)} appears!",
        description=f"{describe_boss(boss)}\n\n{hp_bar(raid.hp, raid.max_hp)}",
        color=COLOR_DEFEAT,
    )
    rules = "The boss's damage to you adds up over the raid; at 0 you are out until a GM revives you."
    if raid.cooldown_seconds:
        rules += f" Each player attacks at most once every {duration_text(raid.cooldown_seconds)}."
    embed.add_field(name="Raid rules", value=rules, inline=False)
    embed.set_footer(text="Attack with /bossfight attack (attach a deck CSV or use your saved deck).")
    return fit_embed(embed)


def attack_embed(attacker: str, landed: LandedAttack, result: AttackBreakdown) -> discord.Embed:
    """The public reply to an attack; `attacker` is the player's display name, `result` the engine's breakdown
    at the HP the attack really hit."""
    raid = landed.raid
    embed = discord.Embed(
        title=f"⚔️ {markdown_safe(attacker)} hits {markdown_safe(raid.boss.name)} "
        f"for {num(round(result.damage_to_boss, 2))}",
        description=f"**Boss HP**\n{hp_bar(raid.hp, raid.max_hp)}",
        color=COLOR_VICTORY if landed.defeated_now else COLOR_INFO,
    )
    if round(landed.overkill, 2) > 0:
        embed.description = (embed.description or "") + (
            f"\nThe boss had {num(round(landed.hp_before, 2))} HP left: {num(round(landed.credited, 2))} is "
            f"credited to you, {num(round(landed.overkill, 2))} is overkill (shown apart, not counted)."
        )
    breakdown_fields(embed, result)
    return fit_embed(embed)


def fallen_embed(raid: Raid, totals: list[DamageTotal]) -> discord.Embed:
    embed = discord.Embed(
        title=f"🏆 {markdown_safe(raid.boss.name)} has fallen!",
        description=f"**Damage leaderboard** {LEADERBOARD_NOTE}\n"
        + lines_within(leaderboard_lines(totals), EmbedLimits.DESCRIPTION - 120),
        color=COLOR_VICTORY,
    )
    embed.set_footer(text="The raid is kept in /bossfight history. A GM can spawn the next boss with /bossfight spawn.")
    return fit_embed(embed)


def preview_embed(boss: Boss, result: AttackBreakdown, max_hp: float) -> discord.Embed:
    embed = discord.Embed(
        title=f"🔍 Preview: your deck against {markdown_safe(boss.name)} would deal "
        f"{num(round(result.damage_to_boss, 2))}",
        description=f"**Boss HP after**\n{hp_bar(result.boss_hp_after, max_hp)}\n(dry run: nothing was changed)",
        color=COLOR_INFO,
    )
    breakdown_fields(embed, result)
    return fit_embed(embed)


def status_embed(raid: Raid, totals: list[DamageTotal]) -> discord.Embed:
    embed = discord.Embed(
        title=f"{ELEMENT_ICONS[raid.boss.element]} {markdown_safe(raid.boss.name)}",
        description=f"{describe_boss(raid.boss)}\n\n**HP**\n{hp_bar(raid.hp, raid.max_hp)}",
        color=COLOR_DEFEAT,
    )
    embed.add_field(
        name=f"Attackers ({len(totals)})",
        value=lines_within(leaderboard_lines(totals, live=True), EmbedLimits.FIELD_VALUE) if totals else "No one yet.",
        inline=False,
    )
    return fit_embed(embed)


def deck_embed(saved: SavedDeck, deck: Deck) -> discord.Embed:
    lines = [
        f"{ELEMENT_ICONS[t.element]} **{markdown_safe(t.name)}** ({t.element}): {plural(len(t.traits), 'trait')}, "
        f"HP {num(t.health)}, physical {num(t.physical_damage)}, magical {num(t.magical_damage)}"
        for t in deck.tokens
    ]
    embed = discord.Embed(
        title=f"Your deck: {markdown_safe(saved.file_name)}",
        description=lines_within(lines, EmbedLimits.DESCRIPTION),
        color=COLOR_INFO,
    )
    embed.set_footer(
        text=f"{plural(len(deck.tokens), 'token')}, {num(deck.health)} health; saved {saved.saved_at[:16]} UTC"
    )
    return fit_embed(embed)


HISTORY_LISTED = 10  # earlier raids named under the one shown


def ended_text(raid: Raid) -> str:
    """'felled', 'replaced' or 'closed', with the day it ended (UTC), for lists and autocomplete."""
    outcome = {RaidStatus.DEFEATED: "felled", RaidStatus.CLOSED: "closed: its channel was deleted"}.get(
        raid.status, "replaced by a GM"
    )
    return f"{outcome} {(raid.ended_at or raid.spawned_at)[:10]}"


def raid_choice_label(raid: Raid) -> str:
    """An autocomplete choice for a finished raid (plain text: choices render no markdown)."""
    return f"#{raid.id} {raid.boss.name} · {ended_text(raid)}"


def timestamp(text: str | None) -> str:
    """A stored UTC time as a Discord timestamp, which every reader sees in their own time zone."""
    if not text:
        return "unknown"
    return f"<t:{int(unix_time(text))}:f>"


def history_embed(finished: FinishedRaid, others: list[Raid], total: int) -> discord.Embed:
    """One finished raid of the channel (RULINGS 7: boss, players, credited damage, overkill, damage taken,
    knock-outs, final blow, start and end), and the channel's other finished raids, newest first; `total` is
    how many finished raids the channel has."""
    raid = finished.raid
    felled = raid.status is RaidStatus.DEFEATED
    outcome = {
        RaidStatus.DEFEATED: "has fallen",
        RaidStatus.CLOSED: "was closed when its channel was deleted",
    }.get(raid.status, "was replaced by a GM before it fell")
    head = [
        f"Raid #{raid.id} in this channel: started {timestamp(raid.spawned_at)}, ended {timestamp(raid.ended_at)}",
        f"**HP** {hp_bar(raid.hp, raid.max_hp)}",
    ]
    if finished.final_blow_by is not None:
        head.append(f"Final blow: {mention(finished.final_blow_by)}")
    board = (
        lines_within(leaderboard_lines(finished.totals), EmbedLimits.DESCRIPTION - 600)
        if finished.totals
        else "No one attacked."
    )
    embed = discord.Embed(
        title=f"📜 {markdown_safe(raid.boss.name)} {outcome}",
        description="\n".join(head) + f"\n\n**Damage leaderboard** {LEADERBOARD_NOTE}\n{board}",
        color=COLOR_VICTORY if felled else COLOR_INFO,
    )
    if others:
        listed = [f"#{r.id} {markdown_safe(r.boss.name)} · {ended_text(r)}" for r in others]
        if total > len(others) + 1:
            listed.append(f"… and {total - len(others) - 1} older")
        embed.add_field(
            name="Other finished raids here", value=lines_within(listed, EmbedLimits.FIELD_VALUE), inline=False
        )
    embed.set_footer(text="/bossfight history raid:<#number or boss> shows another; times are in your time zone.")
    return fit_embed(embed)
