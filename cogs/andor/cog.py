"""/andor: Andor's Trail fights with buttons, alone or as a party, characters, the bestiary, GM monster uploads,
and the odds. The character and shop commands (`characters`) and the party commands (`party`, `party_turns`)
are mixins this cog's command group takes as its own.

A fight lives in one message, drawn by `render`; its components (`items`) carry the fight's id and version.
Each click loads the fight, plays the move through the engine with the engine's own randomness for that move
(`replay_rng`: a fight replays from its seed and its moves), and saves it with a version check.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.andor.book_render import bestiary_embed, monster_embed, monster_line, odds_embed, progress_embed
from cogs.andor.characters import CharacterCommands
from cogs.andor.desk import FIGHT_OPTION_HELP, PartyClock
from cogs.andor.fight import FightMove, show_live_fight
from cogs.andor.items import COG_NAME, FightButton, PartyButton, PartyTargetSelect, TargetSelect
from cogs.andor.odds import bestiary_odds, simulate_with_chart
from cogs.andor.party import PartyCommands, on_signup, party_odds, refused_elsewhere
from cogs.andor.party_turns import arm
from cogs.andor.party_turns import click as party_click
from cogs.andor.render import CHART_FILE, fight_embed, fight_view
from cogs.common import (
    ProgressMessage,
    defer_thinking,
    gm_only,
    markdown_safe,
    run_long_engine,
    show_result,
    told_if_stopped,
)
from cogs.common.bot import channel_id, guild_id
from cogs.common.cog import GameCog
from cogs.common.events import CHANNEL_GAMES_ENDED, listener
from cogs.common.turns import play_turn
from cogs.common.uploads import RosterWords, UploadedRoster, choices
from rules.andor.bestiary import MAX_GUILD_MONSTERS, builtin_monsters, parse_monsters
from rules.andor.engine import (
    MAX_MONSTERS,
    can_hurt,
    settle,
    start_fight,
    summary,
)
from rules.andor.models import (
    Character,
    Monster,
)
from rules.andor.simulate import MAX_FIGHTS
from rules.roster import name_key
from rules.seeds import MAX_SEED
from storage.andor import AndorRepository, FightAlreadyLive, FightStatus, InAnotherFight
from storage.andor_party import PartyRepository
from storage.errors import StorageOutage

if TYPE_CHECKING:
    from arena.bot import ArenaBot
    from storage.lifecycle import EndedGames

log = logging.getLogger("arena.andor")

PROGRESS_INTERVAL = 1.5  # seconds between two progress edits of /andor simulate


AndorComponent = FightButton | TargetSelect | PartyButton | PartyTargetSelect


@app_commands.guild_only()
class Andor(
    CharacterCommands,
    PartyCommands,
    GameCog[AndorComponent],
    name=COG_NAME,
    group_name="andor",
    group_description="Andor's Trail: fight monsters turn by turn, or see the odds.",
):
    monsters = app_commands.Group(name="monsters", description="GM: this server's own monsters.")

    components = (FightButton, TargetSelect, PartyButton, PartyTargetSelect)

    def __init__(self, bot: ArenaBot):
        super().__init__(bot)
        self.repo = AndorRepository(bot.db)
        self.parties = PartyRepository(bot.db)
        self.party_clock = PartyClock()
        self.monsters_roster = UploadedRoster(
            bot,
            bot.db,
            load=Monster.model_validate_json,
            builtin=builtin_monsters,
            parse=parse_monsters,
            limit=MAX_GUILD_MONSTERS,
            words=RosterWords("monster", "monsters", "bestiary", "/andor bestiary", "/andor monsters remove"),
            describe=lambda m: monster_line(m, own=True),
        )

    async def cog_load(self) -> None:
        await super().cog_load()
        # The party fights' clocks go on from storage: a turn that ran out while the bot was down runs out now.
        try:
            parties = await self.parties.open_parties()
        except StorageOutage:
            log.warning("could not read the party fights; their next click sets their clocks again")
            return
        for party in parties:
            if self.bot.serves_guild(party.guild_id):
                arm(self, party)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.party_clock.close_all()

    @commands.Cog.listener(listener(CHANNEL_GAMES_ENDED))
    async def channel_games_ended(self, ended: EndedGames) -> None:
        """A deleted channel's party fights ended (cogs/lifecycle): their turn clocks no longer run."""
        for party in ended.parties:
            self.party_clock.cancel(party.id)

    async def on_component(self, interaction: discord.Interaction, component: AndorComponent) -> None:
        select = isinstance(component, TargetSelect | PartyTargetSelect)
        value = component.values[0] if select and component.values else None
        if isinstance(component, PartyButton) and component.action in ("join", "leave", "start"):
            await on_signup(self, interaction, component.numeric_id, component.action)
        elif isinstance(component, PartyButton | PartyTargetSelect):
            await party_click(self, interaction, component.numeric_id, component.version, component.action, value)
        else:
            await self.click(interaction, component.numeric_id, component.version, component.action, value)

    # --- helpers ---------------------------------------------------------------------------------------

    async def matchup(
        self, interaction: discord.Interaction, monster: str, seed: int | None
    ) -> tuple[Monster, Character, int]:
        """The monster asked for, the member's character, and the seed (a new one unless given)."""
        chosen = await self.monsters_roster.find(guild_id(interaction), monster)
        return chosen, await self.my_character(interaction), self.seed_or_new(seed)

    async def monster_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        book = await self.monsters_roster.book(guild_id(interaction))
        you = await self.my_character(interaction)

        def label(m: Monster) -> str:
            return f"{m.name} (HP {m.hp}, XP {m.xp})" + ("" if can_hurt(you, m) else " — you cannot hurt it")

        return choices(book.values(), current, label)

    async def own_monster_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self.monsters_roster.uploaded_choices(interaction, current)

    # --- bestiary --------------------------------------------------------------------------------------

    @app_commands.command(name="bestiary", description="This server's monsters, or one monster in detail.")
    @app_commands.describe(
        name="A monster to show in detail, with your odds against it",
        seed="Replay the odds with their seed (default: a new one; the card shows it)",
    )
    @app_commands.autocomplete(name=monster_autocomplete)
    async def bestiary(
        self,
        interaction: discord.Interaction,
        name: str | None = None,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
    ) -> None:
        own = {name_key(m.name) for m in await self.monsters_roster.uploaded(guild_id(interaction))}
        book = await self.monsters_roster.book(guild_id(interaction))
        if name is None:
            await interaction.response.send_message(embed=bestiary_embed(book, own), ephemeral=True)
            return
        monster = await self.monsters_roster.find(guild_id(interaction), name)
        you = await self.my_character(interaction)
        await defer_thinking(interaction, ephemeral=True)
        seed = self.seed_or_new(seed)
        per_attack, odds = await run_long_engine(self.bot, bestiary_odds, you, monster, seed)
        embed = monster_embed(monster, name_key(monster.name) in own, per_attack, odds, hurt=can_hurt(you, monster))
        await interaction.followup.send(embed=embed, ephemeral=True)

    @monsters.command(name="upload", description="GM: add monsters to this server's bestiary, or replace them by name.")
    @app_commands.describe(
        csv="CSV: name, hp, ap, attack_cost, attack_chance, damage_min, damage_max, block_chance, xp [, crit, DR]"
    )
    @gm_only()
    async def monsters_upload(self, interaction: discord.Interaction, csv: discord.Attachment) -> None:
        await self.monsters_roster.upload(interaction, csv)

    @monsters.command(name="remove", description="GM: remove one of this server's own monsters.")
    @app_commands.describe(name="The monster (a built-in one it replaced comes back)")
    @app_commands.autocomplete(name=own_monster_autocomplete)
    @gm_only()
    async def monsters_remove(self, interaction: discord.Interaction, name: str) -> None:
        await self.monsters_roster.remove(interaction, name)

    # --- fights ----------------------------------------------------------------------------------------

    @app_commands.command(
        name="fight", description="Fight monsters with buttons: spend your AP, then the monsters answer."
    )
    @app_commands.describe(**FIGHT_OPTION_HELP)
    @app_commands.autocomplete(monster=monster_autocomplete)
    async def fight(
        self,
        interaction: discord.Interaction,
        monster: str,
        count: app_commands.Range[int, 1, MAX_MONSTERS] = 1,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
        monsters_first: bool = False,
    ) -> None:
        chosen, character, seed = await self.matchup(interaction, monster, seed)
        state, _events = start_fight(character, chosen, count, seed=seed, monsters_first=monsters_first)
        ended = summary(state)  # the monsters' opening turn may end it: then it is settled as it is stored
        try:
            fight = await self.repo.start_fight(
                guild_id(interaction),
                channel_id(interaction),
                interaction.user.id,
                seed,
                state,
                settle=(lambda stored: settle(stored or Character(), ended)) if ended else None,
            )
        except FightAlreadyLive as live:
            await show_live_fight(self, interaction, live.fight)
            return
        except InAnotherFight as elsewhere:
            raise refused_elsewhere(interaction, elsewhere) from None
        await interaction.response.send_message(
            embed=fight_embed(fight, interaction.user.display_name), view=fight_view(fight)
        )
        if fight.status == FightStatus.LIVE:
            await self.repo.set_message(fight.id, channel_id(interaction), (await interaction.original_response()).id)

    async def click(
        self, interaction: discord.Interaction, fight_id: int, version: int, action: str, value: str | None = None
    ) -> None:
        await play_turn(self.bot, interaction, FightMove(self, interaction, fight_id, version, action, value))

    @app_commands.command(
        name="simulate", description="The odds of a fight: many fights played by the AI with your character."
    )
    @app_commands.describe(
        monster=FIGHT_OPTION_HELP["monster"],
        count=FIGHT_OPTION_HELP["count"],
        fights=f"How many fights to play (1-{MAX_FIGHTS:,}, default 10,000)",
        seed="Random seed, to replay the simulation",
        members="A party's odds instead: 2 to 4 members, as mentions (@Ann @Ben), each with their own character",
    )
    @app_commands.autocomplete(monster=monster_autocomplete)
    async def simulate_command(
        self,
        interaction: discord.Interaction,
        monster: str,
        count: app_commands.Range[int, 1, MAX_MONSTERS] = 1,
        fights: app_commands.Range[int, 1, MAX_FIGHTS] = 10_000,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
        members: str | None = None,
    ) -> None:
        if members is not None:
            await party_odds(self, interaction, monster, count, fights, seed, members)
            return
        chosen, character, seed = await self.matchup(interaction, monster, seed)
        title = f"🎲 {markdown_safe(interaction.user.display_name)} vs {markdown_safe(chosen.name)}"
        title += f" ×{count}" if count > 1 else ""
        await defer_thinking(interaction, ephemeral=False)

        async def show(done: float) -> None:
            await interaction.edit_original_response(embed=progress_embed(title, done, fights, seed))

        progress = ProgressMessage(show, what=f"/andor simulate {interaction.id}", min_interval=PROGRESS_INTERVAL)
        async with told_if_stopped(interaction, "this simulation"):
            try:
                result, chart, per_attack = await run_long_engine(
                    self.bot, simulate_with_chart, character, chosen, count, fights, seed, progress.report
                )
            finally:
                await progress.close()
        await show_result(
            interaction,
            embed=odds_embed(title, result, per_attack),
            files=lambda: [discord.File(io.BytesIO(chart), filename=CHART_FILE)],
            what="/andor simulate",
        )
