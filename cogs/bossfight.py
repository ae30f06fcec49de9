"""/bossfight: GMs spawn a raid boss in a channel; players attack it with their token decks."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    EmbedLimits,
    UserError,
    fit_embed,
    gm_only,
    hp_bar,
    lines_within,
    read_text_attachment,
    run_engine,
    text_file,
)
from rules.bossfight import BUILTIN_BOSSES, AttackBreakdown, Boss, Deck, calculate_attack, find_boss, parse_bosses, parse_deck
from rules.bossfight.report import format_breakdown
from rules.csvio import format_number as num
from storage.bossfight import BossfightRepository, DamageTotal, Raid, RaidAlreadyLive, RaidNotLive

ELEMENT_ICONS = {"Water": "💧", "Fire": "🔥", "Air": "🌪️", "Lightning": "⚡", "Earth": "🪨", "None": "◽"}


def describe_boss(boss: Boss) -> str:
    def traits(penetration: bool, resistance: bool) -> str:
        marks = [m for m, on in (("pen", penetration), ("res", resistance)) if on]
        return f" ({', '.join(marks)})" if marks else ""

    return (
        f"{ELEMENT_ICONS[boss.element]} **{boss.name}**: level {num(boss.level)} {boss.element}, HP {num(boss.health)}, "
        f"physical {num(boss.physical_damage)}{traits(boss.physical_penetration, boss.physical_resistance)}, "
        f"magical {num(boss.magical_damage)}{traits(boss.magical_penetration, boss.magical_resistance)}"
    )


def leaderboard_lines(totals: list[DamageTotal]) -> list[str]:
    medals = {0: "🥇", 1: "🥈", 2: "🥉"}
    return [
        f"{medals.get(i, f'{i + 1}.')} <@{t.user_id}>: {num(round(t.damage, 2))} damage "
        f"({t.attacks} attack{'s' if t.attacks != 1 else ''})"
        for i, t in enumerate(totals)
    ]


def token_table(result: AttackBreakdown) -> str:
    rows = [
        f"{t.name[:14]:<14} {t.element[:5]:<5} {num(t.boss_physical_modifier):>4} {num(t.boss_magical_modifier):>4} "
        f"{num(t.boss_element_modifier):>4} {num(t.player_element_modifier):>4} {num(round(t.damage_dealt, 2)):>9}"
        for t in result.tokens
    ]
    header = f"{'token':<14} {'elem':<5} {'phys':>4} {'mag':>4} {'elem':>4} {'you':>4} {'dealt':>9}"
    return "```\n" + lines_within([header, *rows], EmbedLimits.FIELD_VALUE - 8) + "\n```"


def breakdown_fields(embed: discord.Embed, result: AttackBreakdown) -> None:
    boss = result.boss
    embed.add_field(name="Damage per token (modifiers: boss takes phys / mag / elem, you take elem)",
                    value=token_table(result), inline=False)
    embed.add_field(
        name="Stacked modifiers of your deck",
        value=f"physical ×{num(result.deck_physical_modifier)} · magical ×{num(result.deck_magical_modifier)} · "
        f"element ×{num(result.deck_element_modifier)} (over {len(result.traits)} traits)",
        inline=False,
    )
    embed.add_field(
        name="Damage your deck took",
        value=f"{num(boss.physical_damage)} × {num(result.deck_physical_modifier)} + {num(boss.magical_damage)} × "
        f"{num(result.deck_magical_modifier)} × {num(result.deck_element_modifier)} = **{num(result.damage_to_deck)}**",
        inline=False,
    )
    verdict = "survives ✅" if result.deck_survives else "is destroyed 💀"
    embed.add_field(
        name="Your deck",
        value=f"{hp_bar(max(result.deck_hp_after, 0), result.deck_health)}\nleftover {num(result.deck_hp_after)}: {verdict}",
        inline=False,
    )


def breakdown_file(result: AttackBreakdown) -> discord.File:
    return text_file("attack-breakdown.txt", format_breakdown(result) + "\n")


@app_commands.guild_only()
class Bossfight(commands.GroupCog, group_name="bossfight", group_description="Raid bosses: spawn one, attack it with your token deck."):
    deck = app_commands.Group(name="deck", description="Your saved token deck in this server.")

    def __init__(self, bot: commands.Bot):
        self.bot = bot
        self.repo = BossfightRepository(bot.db)

    # --- helpers ---------------------------------------------------------------------------------------

    async def roster(self, guild_id: int) -> list[Boss]:
        """Built-in bosses, with the guild's uploads added or replacing them by name."""
        by_name = {b.name.lower(): b for b in BUILTIN_BOSSES}
        by_name.update({b.name.lower(): b for b in await self.repo.uploaded_bosses(guild_id)})
        return sorted(by_name.values(), key=lambda b: (b.level, b.name.lower()))

    async def find_roster_boss(self, guild_id: int, name: str) -> Boss:
        boss = find_boss(name, await self.roster(guild_id))
        if boss is None:
            raise UserError(f"There is no boss called '{name}' in this server's roster; `/bossfight roster` lists them.")
        return boss

    async def boss_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        bosses = await self.roster(interaction.guild_id)
        wanted = current.strip().lower()
        return [
            app_commands.Choice(name=f"{b.name} (level {num(b.level)}, {b.element})"[:100], value=b.name)
            for b in bosses
            if wanted in b.name.lower()
        ][:25]

    async def read_deck(self, interaction: discord.Interaction, attachment: discord.Attachment | None) -> Deck:
        if attachment is not None:
            text, name = await read_text_attachment(attachment), attachment.filename
        else:
            saved = await self.repo.saved_deck(interaction.guild_id, interaction.user.id)
            if saved is None:
                raise UserError("Attach a deck CSV, or save one first with `/bossfight deck save`.")
            text, name = saved.csv_text, saved.file_name
        return await run_engine(self.bot, parse_deck, text, name)

    # --- commands --------------------------------------------------------------------------------------

    @app_commands.command(name="roster", description="List the bosses a GM can spawn in this server.")
    async def roster_command(self, interaction: discord.Interaction) -> None:
        bosses = await self.roster(interaction.guild_id)
        embed = discord.Embed(
            title=f"Boss roster ({len(bosses)})",
            description=lines_within([describe_boss(b) for b in bosses], EmbedLimits.DESCRIPTION),
            color=COLOR_INFO,
        )
        embed.set_footer(text="GMs: /bossfight spawn to start a raid, /bossfight upload to add bosses.")
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)

    @app_commands.command(name="upload", description="GM: add bosses to this server's roster, or replace them by name.")
    @app_commands.describe(
        bosses="CSV: name, level, element, health, physical_damage, physical_penetration, physical_resistance, "
        "magical_damage, magical_penetration, magical_resistance"
    )
    @gm_only()
    async def upload(self, interaction: discord.Interaction, bosses: discord.Attachment) -> None:
        text = await read_text_attachment(bosses)
        parsed = await run_engine(self.bot, parse_bosses, text, bosses.filename)
        await self.repo.save_bosses(interaction.guild_id, parsed, interaction.user.id)
        embed = discord.Embed(
            title=f"Roster updated: {len(parsed)} boss{'es' if len(parsed) != 1 else ''} saved",
            description=lines_within([describe_boss(b) for b in parsed], EmbedLimits.DESCRIPTION),
            color=COLOR_VICTORY,
        )
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)

    @app_commands.command(name="spawn", description="GM: start a raid against a boss in this channel.")
    @app_commands.describe(boss="The boss from this server's roster", replace="End the channel's live raid and start this one")
    @app_commands.autocomplete(boss=boss_autocomplete)
    @gm_only()
    async def spawn(self, interaction: discord.Interaction, boss: str, replace: bool = False) -> None:
        chosen = await self.find_roster_boss(interaction.guild_id, boss)
        try:
            raid = await self.repo.spawn(
                interaction.guild_id, interaction.channel_id, chosen, interaction.user.id, replace=replace
            )
        except RaidAlreadyLive as live:
            raise UserError(
                f"{live.raid.boss.name} is still alive here ({num(round(live.raid.hp, 2))} HP). "
                "Run the command again with `replace: True` to end that raid and start this one."
            ) from None
        embed = discord.Embed(
            title=f"{ELEMENT_ICONS[chosen.element]} {chosen.name} appears!",
            description=f"{describe_boss(chosen)}\n\n{hp_bar(raid.hp, raid.max_hp)}",
            color=COLOR_DEFEAT,
        )
        embed.set_footer(text="Attack with /bossfight attack (attach a deck CSV or use your saved deck).")
        await interaction.response.send_message(embed=fit_embed(embed))

    @deck.command(name="save", description="Save your token deck for this server, so attacks need no attachment.")
    @app_commands.describe(
        deck="CSV: token, trait, element, health, physical_damage, physical_penetration, physical_resistance, "
        "magical_damage, magical_penetration, magical_resistance"
    )
    async def deck_save(self, interaction: discord.Interaction, deck: discord.Attachment) -> None:
        text = await read_text_attachment(deck)
        parsed = await run_engine(self.bot, parse_deck, text, deck.filename)
        await self.repo.save_deck(interaction.guild_id, interaction.user.id, text, deck.filename)
        await interaction.response.send_message(
            f"✅ Saved {deck.filename}: {len(parsed.tokens)} tokens, {len(parsed.rows)} traits, "
            f"{num(parsed.health)} health in all.",
            ephemeral=True,
        )

    @deck.command(name="show", description="Show your saved token deck.")
    async def deck_show(self, interaction: discord.Interaction) -> None:
        saved = await self.repo.saved_deck(interaction.guild_id, interaction.user.id)
        if saved is None:
            raise UserError("You have no saved deck in this server; save one with `/bossfight deck save`.")
        parsed = parse_deck(saved.csv_text, saved.file_name)
        lines = [
            f"{ELEMENT_ICONS[t.element]} **{t.name}** ({t.element}): {len(t.traits)} traits, HP {num(t.health)}, "
            f"physical {num(t.physical_damage)}, magical {num(t.magical_damage)}"
            for t in parsed.tokens
        ]
        embed = discord.Embed(
            title=f"Your deck: {saved.file_name}",
            description=lines_within(lines, EmbedLimits.DESCRIPTION),
            color=COLOR_INFO,
        )
        embed.set_footer(text=f"{len(parsed.tokens)} tokens, {num(parsed.health)} health; saved {saved.saved_at[:16]} UTC")
        await interaction.response.send_message(
            embed=fit_embed(embed), file=text_file(saved.file_name, saved.csv_text), ephemeral=True
        )

    @app_commands.command(name="attack", description="Attack this channel's boss with your deck.")
    @app_commands.describe(deck="A deck CSV to attack with (default: your saved deck)")
    async def attack(self, interaction: discord.Interaction, deck: discord.Attachment | None = None) -> None:
        raid = await self.repo.live_raid(interaction.channel_id)
        if raid is None:
            raise UserError("There is no boss in this channel. A GM can start a raid with `/bossfight spawn`.")
        parsed = await self.read_deck(interaction, deck)
        result = await run_engine(self.bot, calculate_attack, raid.boss, parsed, raid.hp)
        try:
            record = await self.repo.record_attack(
                interaction.channel_id, interaction.user.id, result.damage_to_boss, result.deck_hp_after
            )
        except RaidNotLive:
            raise UserError(f"{raid.boss.name} fell before your attack landed; nothing was changed.") from None
        embed = discord.Embed(
            title=f"⚔️ {interaction.user.display_name} hits {raid.boss.name} for {num(round(result.damage_to_boss, 2))}",
            description=f"**Boss HP**\n{hp_bar(record.raid.hp, record.raid.max_hp)}",
            color=COLOR_VICTORY if record.defeated_now else COLOR_INFO,
        )
        breakdown_fields(embed, result)
        await interaction.response.send_message(embed=fit_embed(embed), file=breakdown_file(result))
        if record.defeated_now:
            await interaction.followup.send(embed=await self.victory_embed(record.raid))

    async def victory_embed(self, raid: Raid) -> discord.Embed:
        totals = await self.repo.leaderboard(raid.id)
        embed = discord.Embed(
            title=f"🏆 {raid.boss.name} has fallen!",
            description="**Damage leaderboard**\n" + lines_within(leaderboard_lines(totals), EmbedLimits.DESCRIPTION - 30),
            color=COLOR_VICTORY,
        )
        embed.set_footer(text="The raid is archived. A GM can spawn the next boss with /bossfight spawn.")
        return fit_embed(embed)

    @app_commands.command(name="preview", description="Try a deck against a boss without attacking: nothing changes.")
    @app_commands.describe(boss="The boss from this server's roster", deck="The deck CSV to try")
    @app_commands.autocomplete(boss=boss_autocomplete)
    async def preview(self, interaction: discord.Interaction, boss: str, deck: discord.Attachment) -> None:
        chosen = await self.find_roster_boss(interaction.guild_id, boss)
        parsed = await self.read_deck(interaction, deck)
        live = await self.repo.live_raid(interaction.channel_id)
        hp = live.hp if live is not None and live.boss.name.lower() == chosen.name.lower() else None
        result = await run_engine(self.bot, calculate_attack, chosen, parsed, hp)
        embed = discord.Embed(
            title=f"🔍 Preview: your deck against {chosen.name} would deal {num(round(result.damage_to_boss, 2))}",
            description=f"**Boss HP after**\n{hp_bar(result.boss_hp_after, chosen.health)}\n(dry run: nothing was changed)",
            color=COLOR_INFO,
        )
        breakdown_fields(embed, result)
        await interaction.response.send_message(embed=fit_embed(embed), file=breakdown_file(result), ephemeral=True)

    @app_commands.command(name="status", description="This channel's boss: its HP and who has hit it.")
    async def status(self, interaction: discord.Interaction) -> None:
        raid = await self.repo.live_raid(interaction.channel_id)
        if raid is None:
            raise UserError("There is no boss in this channel. A GM can start a raid with `/bossfight spawn`.")
        totals = await self.repo.leaderboard(raid.id)
        embed = discord.Embed(
            title=f"{ELEMENT_ICONS[raid.boss.element]} {raid.boss.name}",
            description=f"{describe_boss(raid.boss)}\n\n**HP**\n{hp_bar(raid.hp, raid.max_hp)}",
            color=COLOR_DEFEAT,
        )
        embed.add_field(
            name=f"Attackers ({len(totals)})",
            value=lines_within(leaderboard_lines(totals), EmbedLimits.FIELD_VALUE) if totals else "No one yet.",
            inline=False,
        )
        await interaction.response.send_message(embed=fit_embed(embed))


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Bossfight(bot))
