"""/andor: Andor's Trail fights with buttons, characters, the bestiary, GM monster uploads, and the odds.

A fight lives in one message, drawn by `render`; its components (`items`) carry the fight's id and version.
Each click loads the fight, plays the move through the engine with the engine's own randomness for that move
(`replay_rng`: a fight replays from its seed and its moves), and saves it with a version check.
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.andor.items import COG_NAME, FightButton, TargetSelect
from cogs.andor.render import (
    CHART_FILE,
    already_in_a_fight,
    bestiary_embed,
    character_embed,
    fight_embed,
    fight_link,
    fight_view,
    monster_embed,
    monster_line,
    odds_embed,
    progress_embed,
)
from cogs.common import (
    ProgressMessage,
    UserError,
    defer_thinking,
    gm_only,
    markdown_safe,
    mention,
    run_long_engine,
    show_result,
    told_if_stopped,
)
from cogs.common.bot import channel_id, guild_id
from cogs.common.cog import GameCog
from cogs.common.components import redrawn, require_here
from cogs.common.turns import TurnMove, play_turn
from cogs.common.uploads import RosterWords, UploadedRoster, choices
from rules.andor.bestiary import MAX_GUILD_MONSTERS, builtin_monsters, parse_monsters
from rules.andor.chart import hp_left_chart_png
from rules.andor.engine import (
    CHARACTER_STATS,
    MAX_MONSTERS,
    POTION_LIMIT,
    aimed,
    applied,
    can_hurt,
    legal_actions,
    potion_purchase_problem,
    replay_rng,
    settle,
    start_fight,
    summary,
    updated_character,
    with_potions_bought,
)
from rules.andor.models import (
    CALL_DRAW,
    END_TURN,
    FLEE,
    POTION,
    POTION_PRICE,
    STAT_LIMITS,
    Action,
    Character,
    FightState,
    Monster,
)
from rules.andor.simulate import MAX_FIGHTS, Progress, SimulationResult, simulate
from rules.andor.text import per_attack_lines
from rules.roster import name_key
from rules.seeds import MAX_SEED
from rules.text import format_number, plural
from storage.andor import AndorRepository, Fight, FightAlreadyLive, FightStatus

if TYPE_CHECKING:
    from arena.bot import ArenaBot

PROGRESS_INTERVAL = 1.5  # seconds between two progress edits of /andor simulate


BESTIARY_FIGHTS = 1_000  # the quick odds in /andor bestiary
BESTIARY_WORK = 200_000  # attacks at most: the odds stay quick whatever the monster


def bestiary_odds(character: Character, monster: Monster, seed: int) -> tuple[list[str], SimulationResult]:
    """The per-attack lines and a quick simulation against one of `monster`: one call off the event loop."""
    odds = simulate(character, monster, 1, BESTIARY_FIGHTS, seed, work_limit=BESTIARY_WORK)
    return per_attack_lines(character, monster, markdown_safe(monster.name)), odds


def buy_potions(character: Character, potions: int) -> Character:
    """The character after buying `potions` in the shop; UserError, nothing bought, when short of gold or room."""
    problem = potion_purchase_problem(character, potions)
    if problem is not None:
        raise UserError(problem)
    return with_potions_bought(character, potions)


def simulate_with_chart(
    character: Character, monster: Monster, count: int, fights: int, seed: int, progress: Progress
) -> tuple[SimulationResult, bytes, list[str]]:
    """The simulation, its chart and the per-attack lines: one call off the event loop."""
    result = simulate(character, monster, count, fights, seed, progress=progress)
    return result, hp_left_chart_png(result), per_attack_lines(character, monster, markdown_safe(monster.name))


def _bounds(stat: str) -> tuple[float, float]:
    """The least and the most a `/andor character set` option takes (`Range` casts them to its type)."""
    limit = STAT_LIMITS[stat]
    return limit.minimum, limit.maximum


def stat_description(stat: str) -> str:
    """The help of a `/andor character set` option: what the stat does, its allowed range and its default."""
    limit = STAT_LIMITS[stat]
    low, high = (f"{value:,}" if limit.integer else format_number(value) for value in (limit.minimum, limit.maximum))
    return f"{limit.help} ({low} to {high}, default {format_number(Character.model_fields[stat].default)})"


@app_commands.guild_only()
class Andor(
    GameCog[FightButton | TargetSelect],
    name=COG_NAME,
    group_name="andor",
    group_description="Andor's Trail: fight monsters turn by turn, or see the odds.",
):
    character = app_commands.Group(name="character", description="Your Andor's Trail character in this server.")
    monsters = app_commands.Group(name="monsters", description="GM: this server's own monsters.")

    components = (FightButton, TargetSelect)

    def __init__(self, bot: ArenaBot):
        super().__init__(bot)
        self.repo = AndorRepository(bot.db)
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

    async def on_component(self, interaction: discord.Interaction, component: FightButton | TargetSelect) -> None:
        value = component.values[0] if isinstance(component, TargetSelect) and component.values else None
        await self.click(interaction, component.numeric_id, component.version, component.action, value)

    # --- helpers ---------------------------------------------------------------------------------------

    async def my_character(self, interaction: discord.Interaction) -> Character:
        return await self.repo.character(guild_id(interaction), interaction.user.id) or Character()

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

    # --- character -------------------------------------------------------------------------------------

    @character.command(name="show", description="Show your character: level, XP, HP, AP and combat stats.")
    async def character_show(self, interaction: discord.Interaction) -> None:
        character = await self.my_character(interaction)
        await interaction.response.send_message(
            embed=character_embed(character, interaction.user.display_name), ephemeral=True
        )

    @character.command(name="set", description="Change some of your character's stats (the others stay as they are).")
    @app_commands.describe(**{stat: stat_description(stat) for stat in CHARACTER_STATS})
    async def character_set(
        self,
        interaction: discord.Interaction,
        level: app_commands.Range[int, *_bounds("level")] | None = None,
        xp: app_commands.Range[int, *_bounds("xp")] | None = None,
        base_hp: app_commands.Range[int, *_bounds("base_hp")] | None = None,
        hp_bonus: app_commands.Range[int, *_bounds("hp_bonus")] | None = None,
        ap: app_commands.Range[int, *_bounds("ap")] | None = None,
        attack_cost: app_commands.Range[int, *_bounds("attack_cost")] | None = None,
        attack_chance: app_commands.Range[int, *_bounds("attack_chance")] | None = None,
        damage_min: app_commands.Range[int, *_bounds("damage_min")] | None = None,
        damage_max: app_commands.Range[int, *_bounds("damage_max")] | None = None,
        crit_chance: app_commands.Range[int, *_bounds("crit_chance")] | None = None,
        crit_multiplier: app_commands.Range[float, *_bounds("crit_multiplier")] | None = None,
        block_chance: app_commands.Range[int, *_bounds("block_chance")] | None = None,
        damage_resistance: app_commands.Range[int, *_bounds("damage_resistance")] | None = None,
        ad_bonus: app_commands.Range[int, *_bounds("ad_bonus")] | None = None,
        armor: app_commands.Range[int, *_bounds("armor")] | None = None,
        potions: app_commands.Range[int, *_bounds("potions")] | None = None,
        potion_heal: app_commands.Range[int, *_bounds("potion_heal")] | None = None,
    ) -> None:
        given = {name: value for name, value in locals().items() if name in CHARACTER_STATS and value is not None}
        if not given:
            raise UserError("Give at least one stat to change, e.g. `/andor character set attack_chance:90`.")
        character = await self.repo.update_character(
            guild_id(interaction), interaction.user.id, lambda stored: updated_character(stored or Character(), given)
        )
        changed = ", ".join(f"{name} {format_number(value)}" for name, value in given.items())
        await interaction.response.send_message(
            embed=character_embed(character, interaction.user.display_name, title=f"✅ Saved: {changed}"[:256]),
            ephemeral=True,
        )

    @character.command(name="reset", description="Start over with the default character (level 1).")
    async def character_reset(self, interaction: discord.Interaction) -> None:
        await self.repo.delete_character(guild_id(interaction), interaction.user.id)
        await interaction.response.send_message(
            embed=character_embed(Character(), interaction.user.display_name, title="✅ Back to the default character"),
            ephemeral=True,
        )

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

    # --- the shop --------------------------------------------------------------------------------------

    @app_commands.command(
        name="shop", description=f"Buy potions with the gold your kills dropped ({POTION_PRICE} gold each)."
    )
    @app_commands.describe(potions=f"How many potions to buy, at {POTION_PRICE} gold each")
    async def shop(self, interaction: discord.Interaction, potions: app_commands.Range[int, 1, POTION_LIMIT]) -> None:
        bought = await self.repo.update_character(
            guild_id(interaction), interaction.user.id, lambda stored: buy_potions(stored or Character(), potions)
        )
        await interaction.response.send_message(
            embed=character_embed(
                bought,
                interaction.user.display_name,
                title=f"✅ Bought {plural(potions, 'potion')} for {potions * POTION_PRICE:,} gold",
            ),
            ephemeral=True,
        )

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
    @app_commands.describe(
        monster="The monster to fight",
        count=f"How many of them (1-{MAX_MONSTERS})",
        seed="Random seed, to replay a fight",
        monsters_first="The monsters take the first turn (aggressive monsters always do)",
    )
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
            await self.show_live_fight(interaction, live.fight)
            return
        await interaction.response.send_message(
            embed=fight_embed(fight, interaction.user.display_name), view=fight_view(fight)
        )
        if fight.status == FightStatus.LIVE:
            await self.repo.set_message(fight.id, channel_id(interaction), (await interaction.original_response()).id)

    async def show_live_fight(self, interaction: discord.Interaction, fight: Fight) -> None:
        """`/andor fight` during a fight: its one message is brought up to date and pointed to. Only when that
        message is gone (or unknown, for a fight started before messages were kept) is it posted again, and the
        new copy becomes the fight's: a click on any other copy retires that copy (`FightMove`)."""
        embed, view = fight_embed(fight, interaction.user.display_name), fight_view(fight)
        again = "You are already in a fight: here it is again. Finish it (or flee) before starting another."
        if fight.message_id is None:
            await interaction.response.send_message(again, embed=embed, view=view)
            await self.repo.set_message(fight.id, channel_id(interaction), (await interaction.original_response()).id)
            return
        # Answered first: the edit of the fight's message may wait on Discord's rate limits past the 3 s.
        await interaction.response.send_message(already_in_a_fight(fight), ephemeral=True)
        channel = self.bot.get_partial_messageable(fight.channel_id, guild_id=fight.guild_id)
        try:
            await channel.get_partial_message(fight.message_id).edit(embed=embed, view=view)
            return
        except discord.HTTPException:
            pass  # gone, or no longer ours to edit: posted again here
        sent = await interaction.followup.send(again, embed=embed, view=view, wait=True)
        await self.repo.set_message(fight.id, channel_id(interaction), sent.id)
        moved = replace(fight, channel_id=channel_id(interaction), message_id=sent.id)
        await interaction.edit_original_response(content=already_in_a_fight(moved))

    async def click(
        self, interaction: discord.Interaction, fight_id: int, version: int, action: str, value: str | None = None
    ) -> None:
        await play_turn(self.bot, interaction, FightMove(self, interaction, fight_id, version, action, value))

    @app_commands.command(
        name="simulate", description="The odds of a fight: many fights played by the AI with your character."
    )
    @app_commands.describe(
        monster="The monster to fight",
        count=f"How many of them (1-{MAX_MONSTERS})",
        fights=f"How many fights to play (1-{MAX_FIGHTS:,}, default 10,000)",
        seed="Random seed, to replay the simulation",
    )
    @app_commands.autocomplete(monster=monster_autocomplete)
    async def simulate_command(
        self,
        interaction: discord.Interaction,
        monster: str,
        count: app_commands.Range[int, 1, MAX_MONSTERS] = 1,
        fights: app_commands.Range[int, 1, MAX_FIGHTS] = 10_000,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
    ) -> None:
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


class FightMove(TurnMove[Fight, FightState]):
    """A click on a fight's buttons or its target select, by the fight's member."""

    what = "fight"

    def __init__(
        self, cog: Andor, interaction: discord.Interaction, fight_id: int, version: int, action: str, value: str | None
    ):
        super().__init__(fight_id, version)
        self.cog, self.action, self.value = cog, action, value
        self.name = interaction.user.display_name
        self.message_id = interaction.message.id if interaction.message is not None else None

    def is_copy(self, fight: Fight) -> bool:
        """Whether the click came from a copy older than the fight's message (one posted again replaced it). Ids grow
        with time: a newer copy is the one being recorded as the fight's message, not a stale one."""
        if fight.message_id is None:
            return False
        return self.message_id is None or self.message_id < fight.message_id

    async def load(self) -> Fight | None:
        return await self.cog.repo.fight(self.game_id)

    def check_place(self, interaction: discord.Interaction, fight: Fight) -> None:
        # a fight is its member's, wherever they show it (`/andor fight` posts a live one again): the server only
        require_here(interaction, "fight", fight)
        if interaction.user.id != fight.user_id:
            raise UserError(f"This is {mention(fight.user_id)}'s fight; start your own with `/andor fight`.")

    def is_retired(self, interaction: discord.Interaction, fight: Fight) -> bool:
        return fight.status == FightStatus.LIVE and self.is_copy(fight)

    async def show_retired(self, interaction: discord.Interaction, fight: Fight) -> None:
        # never two live boards: this copy shows the fight without buttons and points to the one that has them
        await interaction.response.edit_message(embed=fight_embed(fight, self.name), view=None)
        await interaction.followup.send(
            f"⌛ This copy of the fight is retired, so nothing was changed: the fight goes on at {fight_link(fight)}.",
            ephemeral=True,
        )

    def is_stale(self, fight: Fight) -> bool:
        return super().is_stale(fight) or fight.status != FightStatus.LIVE

    async def show_stale(self, interaction: discord.Interaction, fight: Fight) -> None:
        # The message is behind the stored fight (a double click, or a move saved before the message could show
        # it): bring it up to date, then say what happened.
        await interaction.response.edit_message(embed=fight_embed(fight, self.name), view=fight_view(fight))
        await interaction.followup.send(redrawn("fight"), ephemeral=True)

    def chosen(self, state: FightState) -> Action:
        actions = {"attack": Action.attack(state.target), "potion": POTION, "flee": FLEE, "draw": CALL_DRAW}
        return actions[self.action] if self.action != "end" else END_TURN

    def check(self, fight: Fight) -> None:
        state = fight.state
        if self.action != "target" and self.chosen(state) not in legal_actions(state):
            raise UserError(f"You cannot do that now ({state.ap_left} AP left).")

    def play(self, fight: Fight) -> FightState:
        state = fight.state
        if self.action == "target":
            return aimed(state, int(self.value) if self.value is not None and self.value.isdecimal() else -1)
        return applied(state, self.chosen(state), replay_rng(state))[0]

    async def save(self, fight: Fight, played: FightState) -> Fight:
        ended = summary(played)
        return await self.cog.repo.update_fight(
            fight, played, settle=(lambda stored: settle(stored or Character(), ended)) if ended else None
        )

    async def show_played(
        self, interaction: discord.Interaction, before: Fight, saved: Fight, played: FightState
    ) -> None:
        await interaction.response.edit_message(embed=fight_embed(saved, self.name), view=fight_view(saved))
