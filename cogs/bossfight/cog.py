"""/bossfight: GMs spawn a raid boss in a channel; players attack it with their token decks.

Commands that read an attachment or run the engine defer first: the download and a wait for a free engine
worker (the pool is shared with every game's long jobs) could outlast Discord's 3 s limit. Quick refusals
(no boss here, no saved deck) come before the deferral, so they are private without a public "thinking…".
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Never, cast

import discord
from discord import app_commands
from discord.ext import commands

from cogs.bossfight.history import RaidHistory
from cogs.bossfight.render import (
    attack_embed,
    breakdown_file,
    deck_embed,
    describe_boss,
    fallen_embed,
    preview_embed,
    roster_embed,
    spawn_embed,
    status_embed,
)
from cogs.bossfight.roster import RosterUploads
from cogs.bossfight.world import WorldBossCommands, WorldDecks
from cogs.common import (
    UserError,
    answer_shown,
    defer_thinking,
    gm_only,
    hp_figure,
    markdown_safe,
    mention,
    read_attachments,
    read_text_attachment,
    run_engine,
    text_file,
)
from cogs.common.bot import channel_id, guild_id
from cogs.common.cog import GameCog
from cogs.common.uploads import RosterWords, UploadedRoster, choices
from rules.bossfight import BUILTIN_BOSSES, Boss, Deck, calculate_attack, parse_bosses, parse_deck
from rules.bossfight.models import MAX_GUILD_BOSSES
from rules.bossfight.raid import MAX_COOLDOWN_SECONDS, attack_refusal
from rules.csvio import formula_safe_csv
from rules.roster import name_key
from rules.text import format_number as num
from rules.text import plural
from storage.bossfight import (
    BossfightRepository,
    PlayerUpdate,
    Raid,
    RaidAlreadyLive,
    RaidNotLive,
    SavedDeck,
    StoredPlayer,
)
from storage.retry import CONFLICT_ATTEMPTS
from storage.versioned import StaleUpdate

if TYPE_CHECKING:
    from arena.bot import ArenaBot

NO_BOSS_HERE = "There is no boss in this channel. A GM can start a raid with `/bossfight spawn`."
# Discord cuts option help at 100 characters: the column lists are written to fit.
DECK_COLUMNS_HELP = "CSV: token, trait, element, health, then physical_ and magical_ damage, penetration, resistance"


@app_commands.guild_only()
class Bossfight(
    RosterUploads,
    RaidHistory,
    GameCog[Never],
    group_name="bossfight",
    group_description="Raid bosses: spawn one, attack it with your token deck.",
):
    deck = app_commands.Group(name="deck", description="Your saved token deck in this server.")

    def __init__(self, bot: ArenaBot):
        super().__init__(bot)
        self.repo = BossfightRepository(bot.db)
        self.bosses = UploadedRoster(
            bot,
            bot.db,
            load=Boss.model_validate_json,
            builtin=lambda: BUILTIN_BOSSES,
            parse=parse_bosses,
            limit=MAX_GUILD_BOSSES,
            words=RosterWords("boss", "bosses", "roster", "/bossfight roster", "/bossfight remove"),
            describe=describe_boss,
        )
        self.world = WorldBossCommands(
            bot, WorldDecks(self.saved_deck_or_refuse, self.parse_deck_from), lambda: self.clock(), self.bosses.find
        )
        cast(app_commands.Group, self.app_command).add_command(self.world)  # a GroupCog's group: made with it

    async def cog_load(self) -> None:
        await super().cog_load()
        self.world.news.start()

    async def cog_unload(self) -> None:
        self.world.news.stop()
        await self.world.applier.close()
        await super().cog_unload()

    @commands.Cog.listener()
    async def on_world_boss_channel_set(self, guild: int) -> None:
        await self.world.news.tick(only=guild)  # a live boss shows in the new channel at once

    async def roster(self, guild_id: int) -> list[Boss]:
        """The guild's roster by level, then name."""
        return sorted((await self.bosses.book(guild_id)).values(), key=lambda b: (b.level, name_key(b.name)))

    async def boss_autocomplete(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        bosses = await self.roster(guild_id(interaction))
        return choices(bosses, current, lambda b: f"{b.name} (level {num(b.level)}, {b.element})")

    async def saved_deck_or_refuse(self, interaction: discord.Interaction) -> SavedDeck:
        saved = await self.repo.saved_deck(guild_id(interaction), interaction.user.id)
        if saved is None:
            raise UserError("Attach a deck CSV, or save one first with `/bossfight deck save`.")
        return saved

    async def parse_deck_from(self, source: discord.Attachment | SavedDeck) -> Deck:
        """An attached or saved deck, parsed in the engine pool."""
        if isinstance(source, SavedDeck):
            text, name = source.csv_text, source.file_name
        else:
            text, name = await read_text_attachment(source), source.filename
        return await run_engine(self.bot, parse_deck, text, name)

    @app_commands.command(name="roster", description="List the bosses a GM can spawn in this server.")
    async def roster_command(self, interaction: discord.Interaction) -> None:
        bosses = await self.roster(guild_id(interaction))
        await interaction.response.send_message(embed=roster_embed(bosses), ephemeral=True)

    # --- raids -----------------------------------------------------------------------------------------

    @app_commands.command(name="spawn", description="GM: start a raid against a boss in this channel.")
    @app_commands.describe(
        boss="The boss from this server's roster",
        cooldown="Seconds each player must wait between attacks (default 0: no wait)",
        replace="End the channel's live raid and start this one",
    )
    @app_commands.autocomplete(boss=boss_autocomplete)
    @gm_only()
    async def spawn(
        self,
        interaction: discord.Interaction,
        boss: str,
        cooldown: app_commands.Range[int, 0, MAX_COOLDOWN_SECONDS] = 0,
        replace: bool = False,
    ) -> None:
        chosen = await self.bosses.find(guild_id(interaction), boss)
        try:
            raid = await self.repo.spawn(
                guild_id(interaction),
                channel_id(interaction),
                chosen,
                interaction.user.id,
                replace=replace,
                cooldown_seconds=cooldown,
            )
        except RaidAlreadyLive as live:
            raise UserError(
                f"{markdown_safe(live.raid.boss.name)} is still alive here ({hp_figure(live.raid.hp)} HP). "
                "Run the command again with `replace: True` to end that raid and start this one."
            ) from None
        await interaction.response.send_message(embed=spawn_embed(raid))

    @app_commands.command(name="attack", description="Attack this channel's boss with your deck.")
    @app_commands.describe(
        deck="A deck CSV to attack with (default: your saved deck; /bossfight deck save lists the columns)"
    )
    async def attack(self, interaction: discord.Interaction, deck: discord.Attachment | None = None) -> None:
        raid = await self.repo.live_raid(channel_id(interaction))
        if raid is None:
            raise UserError(NO_BOSS_HERE)
        user, now = interaction.user.id, interaction.created_at.timestamp()
        player = await self.allowed_attacker(raid, user, now)
        source = deck if deck is not None else await self.saved_deck_or_refuse(interaction)
        await defer_thinking(interaction, ephemeral=False)
        parsed = await self.parse_deck_from(source)
        # An attack names no moment of the raid, so a lost race is the one rule's second case (cogs/common/turns.py):
        # the attack is worked out again on the player's standing as it is now.
        for _ in range(CONFLICT_ATTEMPTS):
            result = await run_engine(
                self.bot, calculate_attack, raid.boss, parsed, raid.hp, player.standing.damage_taken
            )
            update = PlayerUpdate(result.damage_to_deck, result.deck_hp_after, not result.deck_survives, now)
            try:
                landed = await self.repo.record_attack(raid.id, user, player, result.damage_to_boss, update)
                break
            except RaidNotLive:
                now_live = await self.repo.live_raid(channel_id(interaction))
                what = "fell" if now_live is None else "was replaced by a GM's new raid"
                raise UserError(
                    f"{markdown_safe(raid.boss.name)} {what} before your attack landed; nothing was changed."
                ) from None
            except StaleUpdate:  # another attack of this player landed first: work this one out from there
                player = await self.allowed_attacker(raid, user, now)
        else:
            raise UserError("Your other attacks kept landing first; nothing was changed by this one. Try again.")
        # Others' attacks may have landed since the HP was read: show the HP this attack really hit.
        result = replace(result, boss_hp_before=landed.hp_before)
        embed = attack_embed(interaction.user.display_name, landed, result)
        await interaction.followup.send(embed=embed, file=breakdown_file(result))
        answer_shown(interaction)
        if landed.defeated_now:
            await interaction.followup.send(embed=await self.victory_embed(landed.raid))

    async def allowed_attacker(self, raid: Raid, user_id: int, now: float) -> StoredPlayer:
        """The player's standing in the raid, or a refusal when they are knocked out or cooling down."""
        player = await self.repo.player(raid.id, user_id)
        refusal = attack_refusal(player.standing, raid.cooldown_seconds, now)
        if refusal is not None:
            raise UserError(refusal)
        return player

    @app_commands.command(name="revive", description="GM: bring a player back into this channel's raid, unhurt.")
    @app_commands.describe(member="The player to revive: their next attack starts with no damage taken")
    @gm_only()
    async def revive(self, interaction: discord.Interaction, member: discord.Member) -> None:
        raid = await self.repo.live_raid(channel_id(interaction))
        if raid is None:
            raise UserError(NO_BOSS_HERE)
        taken = await self.repo.revive(raid.id, member.id)
        if taken is None:
            raise UserError(f"{mention(member.id)} has taken no damage in this raid; there is nothing to revive.")
        await interaction.response.send_message(
            f"✨ {mention(member.id)} is back in the raid against {markdown_safe(raid.boss.name)}: their next "
            f"attack starts with no damage taken. The raid's record keeps the {num(round(taken, 2))} the boss "
            "had dealt them."
        )

    async def victory_embed(self, raid: Raid) -> discord.Embed:
        return fallen_embed(raid, await self.repo.leaderboard(raid.id))

    @app_commands.command(name="preview", description="Try a deck against a boss without attacking: nothing changes.")
    @app_commands.describe(
        boss="The boss from this server's roster (this channel's live one is tried at its current HP)",
        deck="The deck CSV to try (/bossfight deck save lists the columns)",
    )
    @app_commands.autocomplete(boss=boss_autocomplete)
    async def preview(self, interaction: discord.Interaction, boss: str, deck: discord.Attachment) -> None:
        live = await self.repo.live_raid(channel_id(interaction))
        # The live boss as it was spawned (a later upload may have changed the roster's) answers to its name.
        chosen = await self.bosses.find(guild_id(interaction), boss, on_top=[live.boss] if live else [])
        if live is not None and chosen is live.boss:
            # at its current HP, against this player as the raid has left them
            hp, max_hp = live.hp, live.max_hp
            taken = (await self.repo.player(live.id, interaction.user.id)).standing.damage_taken
        else:
            hp, max_hp, taken = None, chosen.health, 0.0
        await defer_thinking(interaction, ephemeral=True)
        parsed = await self.parse_deck_from(deck)
        result = await run_engine(self.bot, calculate_attack, chosen, parsed, hp, taken)
        embed = preview_embed(chosen, result, max_hp)
        await interaction.followup.send(embed=embed, file=breakdown_file(result), ephemeral=True)

    @app_commands.command(name="status", description="This channel's boss: its HP and who has hit it.")
    async def status(self, interaction: discord.Interaction) -> None:
        raid = await self.repo.live_raid(channel_id(interaction))
        if raid is None:
            raise UserError(NO_BOSS_HERE)
        totals = await self.repo.leaderboard(raid.id)
        await interaction.response.send_message(embed=status_embed(raid, totals))

    # --- saved decks -----------------------------------------------------------------------------------

    @deck.command(name="save", description="Save your token deck for this server, so attacks need no attachment.")
    @app_commands.describe(deck=DECK_COLUMNS_HELP)
    async def deck_save(self, interaction: discord.Interaction, deck: discord.Attachment) -> None:
        (text,) = await read_attachments(interaction, deck, ephemeral=True)
        parsed = await run_engine(self.bot, parse_deck, text, deck.filename)
        await self.repo.save_deck(guild_id(interaction), interaction.user.id, text, deck.filename)
        await interaction.followup.send(
            f"✅ Saved {markdown_safe(deck.filename)}: {plural(len(parsed.tokens), 'token')}, {plural(len(parsed.rows), 'trait')}, "
            f"{num(parsed.health)} health in all.",
            ephemeral=True,
        )

    @deck.command(name="show", description="Show your saved token deck.")
    async def deck_show(self, interaction: discord.Interaction) -> None:
        saved = await self.repo.saved_deck(guild_id(interaction), interaction.user.id)
        if saved is None:
            raise UserError("You have no saved deck in this server; save one with `/bossfight deck save`.")
        await defer_thinking(interaction, ephemeral=True)
        parsed = await self.parse_deck_from(saved)
        # the player's file as saved, but with any formula neutralized: they may open it in a spreadsheet
        csv_text = await run_engine(self.bot, formula_safe_csv, saved.csv_text, saved.file_name)
        await interaction.followup.send(
            embed=deck_embed(saved, parsed), file=text_file(saved.file_name, csv_text), ephemeral=True
        )
