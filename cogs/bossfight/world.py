"""/bossfight world: the world boss (RULINGS 9), fought by every server that took part in /arena-settings.

An attack goes through `WorldBossApplier` (storage/world_boss_applier.py): stored (acknowledged), then applied
with every process's attacks in the order they were stored; the reply shows what it was credited. `WorldBossNews`
is each process's poller: every NEWS_SECONDS it reads the world boss and posts its spawn and its end in the
channels of the servers this process serves (the post's row says which process posts it, once).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.bossfight.world_render import attack_embed, end_embed, history_embed, place_text, spawn_embed, status_embed
from cogs.common import UserError, defer_thinking, markdown_safe, mention, run_engine
from cogs.common.bot import channel_id, guild_id
from cogs.common.checks import require_gm
from cogs.common.posts import done_or_logged
from cogs.common.web_links import with_page_link, world_boss_path
from rules.bossfight import AttackBreakdown, Boss, Deck, calculate_attack
from rules.bossfight.world import MAX_COOLDOWN_SECONDS, MAX_DAYS, WorldBossStatus, spawned_hp
from rules.errors import RuleInputError
from storage.bossfight import SavedDeck
from storage.guild_settings import GuildSettingsRepository
from storage.world_boss import WorldBossRepository
from storage.world_boss_applier import AttackRefused, WorldBossApplier
from storage.world_boss_boards import WorldBossBoards
from storage.world_boss_records import WorldBoss, WorldBossAlreadyLive

if TYPE_CHECKING:
    from arena.bot import ArenaBot

log = logging.getLogger("arena.world_boss")

NEWS_SECONDS = 5.0  # how often each process reads the world boss for its servers' announcements
HISTORY_SHOWN = 10
FindBoss = Callable[[int, str], Awaitable[Boss]]  # a boss of a server's roster, by name (or a refusal)
NO_WORLD_BOSS = "There is no world boss now. The bot's owners spawn one with `/bossfight world spawn`."


class WorldBossNews:
    """One process's announcements: a world boss's spawn and end, in each taking-part server it serves."""

    def __init__(self, bot: ArenaBot, repo: WorldBossRepository, applier: WorldBossApplier):
        self.bot, self.repo, self.applier = bot, repo, applier
        self.boards = WorldBossBoards(bot.db)
        self._timer: asyncio.TimerHandle | None = None
        self._running: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        self._timer = asyncio.get_running_loop().call_later(NEWS_SECONDS, self._tick_now)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def _tick_now(self) -> None:
        task = asyncio.get_running_loop().create_task(self.tick())
        self._running.add(task)
        task.add_done_callback(self._running.discard)
        self.start()

    def server_name(self, guild: int) -> str:
        found = self.bot.get_guild(guild)
        return f"**{markdown_safe(found.name)}**" if found else "another server"

    async def tick(self, only: int | None = None) -> None:
        """Post what is due: the live boss's spawn, or the ended boss's end (where its spawn was posted)."""
        try:
            boss = await self.repo.latest()
            if boss is None:
                return
            if boss.status is WorldBossStatus.LIVE:
                await self.applier.settle(boss.id)  # its end time may have come; attacks of a dead process
                boss = await self.repo.get(boss.id) or boss
            kind = "spawn" if boss.status is WorldBossStatus.LIVE else "end"
            announced = await self.boards.posted(boss.id, "spawn")
            for guild, channel in (await self.boards.taking_part()).items():
                if self.bot.get_guild(guild) is None or (only is not None and guild != only):
                    continue
                if kind == "end" and guild not in announced:
                    continue
                if await self.boards.claim_post(boss.id, guild, kind, channel, self.applier.clock()):
                    await self.post(boss, guild, channel, kind)
        except Exception:
            log.exception("the world boss's announcements failed; the next round tries again")

    async def post(self, boss: WorldBoss, guild: int, channel: int, kind: str) -> None:
        if kind == "spawn":
            embed = spawn_embed(boss)
        else:
            final = None if boss.final_attack_id is None else await self.boards.attack(boss.final_attack_id)
            board, world = await self.boards.server_board(boss.id, guild), await self.boards.world_board(boss.id)
            embed = end_embed(boss, final, board, world, guild, self.server_name)
        message = self.bot.get_partial_messageable(channel, guild_id=guild).send(embed=embed)
        await done_or_logged(message, "the world boss's %s post in channel %s", kind, channel)


@dataclass(frozen=True)
class WorldDecks:
    """A member's deck as the raid's commands read it: their saved one (or a refusal), parsed in the engine pool."""

    saved_or_refuse: Callable[[discord.Interaction], Awaitable[SavedDeck]]
    parse: Callable[[discord.Attachment | SavedDeck], Awaitable[Deck]]


class WorldBossCommands(app_commands.Group):
    def __init__(self, bot: ArenaBot, decks: WorldDecks, clock: Callable[[], float], find_boss: FindBoss):
        super().__init__(name="world", description="The world boss: one boss fought by every server at once.")
        self.bot, self.decks, self.find_boss = bot, decks, find_boss
        self.repo, self.boards = WorldBossRepository(bot.db), WorldBossBoards(bot.db)
        metrics = bot.observer.metrics
        self.applier = WorldBossApplier(
            self.repo, clock=clock, on_batch=lambda b, took: metrics.world_boss_batch(b.count, took, b.lag_seconds)
        )
        self.news = WorldBossNews(bot, self.repo, self.applier)

    async def live_or_refuse(self) -> WorldBoss:
        boss = await self.repo.live()
        if boss is None:
            raise UserError(NO_WORLD_BOSS)
        return boss

    async def owner_or_refuse(self, interaction: discord.Interaction) -> None:
        owners = self.bot.settings.owners
        if interaction.user.id in owners or (not owners and await self.bot.is_owner(interaction.user)):
            return
        who = "the members listed in OWNER_IDS" if owners else "the application's owner (or its team)"
        raise UserError(f"Only the bot's owners can spawn a world boss: {who}.")

    @app_commands.command(name="spawn", description="Owners: spawn the world boss, fought by every server at once.")
    @app_commands.describe(
        boss="A boss of this server's roster",
        hp="Its HP (default: the boss's health)",
        multiplier="Or its health times this",
        days="Days until it leaves (at most 14)",
        cooldown="Seconds each member waits between attacks",
    )
    async def spawn(
        self,
        interaction: discord.Interaction,
        boss: str,
        hp: app_commands.Range[float, 0.000001, 1e12] | None = None,
        multiplier: app_commands.Range[float, 0.000001, 1e9] | None = None,
        days: app_commands.Range[float, 0.001, float(MAX_DAYS)] = 1.0,
        cooldown: app_commands.Range[int, 0, MAX_COOLDOWN_SECONDS] = 0,
    ) -> None:
        await self.owner_or_refuse(interaction)
        chosen = await self.find_boss(guild_id(interaction), boss)
        try:
            health = spawned_hp(chosen.health, hp, multiplier)
        except RuleInputError as problem:
            raise UserError(f"{problem}.") from None
        now = self.applier.clock()
        try:
            spawned = await self.repo.spawn(
                chosen, health, spawned_by=interaction.user.id, now=now, ends_at=now + days * 86400,
                cooldown_seconds=cooldown,
            )  # fmt: skip
        except WorldBossAlreadyLive as live:
            raise UserError(f"{markdown_safe(live.boss.boss.name)} is the world boss still: one at a time.") from None
        # Private: the announcement is posted in every taking-part channel (here at once, elsewhere within seconds).
        await interaction.response.send_message(embed=spawn_embed(spawned), ephemeral=True)
        await self.news.tick()

    @app_commands.command(name="attack", description="Attack the world boss with your deck, in the world-boss channel.")
    @app_commands.describe(deck="A deck CSV (default: your saved deck)")
    async def attack(self, interaction: discord.Interaction, deck: discord.Attachment | None = None) -> None:
        boss = await self.live_or_refuse()
        here = guild_id(interaction)
        channel = (await GuildSettingsRepository(self.bot.db).get(here)).world_boss_channel_id
        if channel != channel_id(interaction):
            where = f"in <#{channel}>" if channel else "once a game master picks a channel in `/arena-settings`"
            raise UserError(f"The world boss is fought {where}.")
        parsed = await self.deck_of(interaction, deck)

        async def work_out(taken: float) -> AttackBreakdown:
            return await run_engine(self.bot, calculate_attack, boss.boss, parsed, None, taken)

        try:
            attack_id, figures = await self.applier.attack(
                boss, here, interaction.user.id, self.applier.clock(), work_out
            )
        except AttackRefused as refused:
            raise UserError(str(refused)) from None
        result = await self.applier.credit(boss.id, attack_id)
        place = place_text(await self.boards.world_board(boss.id), here)
        embed = attack_embed(interaction.user.display_name, boss, result, figures, place)
        await interaction.followup.send(embed=embed)

    async def deck_of(self, interaction: discord.Interaction, attached: discord.Attachment | None) -> Deck:
        source = attached if attached is not None else await self.decks.saved_or_refuse(interaction)
        await defer_thinking(interaction, ephemeral=False)
        return await self.decks.parse(source)

    @app_commands.command(
        name="revive", description="GM: bring a member of this server back into the world boss fight."
    )
    @app_commands.describe(member="The member: their next attack starts with no damage taken")
    async def revive(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await require_gm(interaction)
        boss = await self.live_or_refuse()
        taken = await self.repo.revive(boss.id, guild_id(interaction), member.id)
        if taken is None:
            raise UserError(f"{mention(member.id)} has taken no damage from the world boss; nothing to revive.")
        await interaction.response.send_message(f"✨ {mention(member.id)} is back in the fight against the world boss.")

    @app_commands.command(
        name="status", description="The world boss: HP, time left, this server's and the world's boards."
    )
    async def status(self, interaction: discord.Interaction) -> None:
        boss = await self.live_or_refuse()
        here = guild_id(interaction)
        board, world = await self.boards.server_board(boss.id, here), await self.boards.world_board(boss.id)
        embed = status_embed(boss, self.applier.clock(), board, world, here, self.news.server_name)
        link = await with_page_link(self.bot, here, None, world_boss_path()) or discord.utils.MISSING
        await interaction.response.send_message(embed=embed, view=link, ephemeral=True)

    @app_commands.command(name="history", description="Past world bosses.")
    async def history(self, interaction: discord.Interaction) -> None:
        embed = history_embed(await self.boards.finished(HISTORY_SHOWN))
        await interaction.response.send_message(embed=embed, ephemeral=True)
