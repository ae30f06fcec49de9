"""/andor: Andor's Trail fights with buttons, characters, the bestiary, GM monster uploads, and the odds.

A fight lives in one message. Its buttons carry `andor:<fight id>:<version>:<action>`, registered as
dynamic items at start-up, so they work after a restart; a click whose version is not the fight's
current one (an older message, a double click) changes nothing. Click n of a fight draws its random
numbers from random.Random(f"{seed}:{n}"), so a fight replays from its seed and its clicks.
"""

from __future__ import annotations

import io
import random

import discord
from discord import app_commands
from discord.ext import commands
from discord.utils import escape_markdown

from cogs.common import (
    COLOR_DEFEAT,
    COLOR_INFO,
    COLOR_VICTORY,
    EmbedLimits,
    ProgressMessage,
    UserError,
    clip,
    defer_thinking,
    error_reply,
    fit_embed,
    gm_only,
    hp_bar,
    lines_within,
    progress_bar,
    run_engine,
    run_long_engine,
    tail_within,
)
from cogs.common.uploads import RosterWords, UploadedRoster, choices
from rules.andor.bestiary import MAX_GUILD_MONSTERS, builtin_monsters, parse_monsters
from rules.andor.engine import MAX_MONSTERS, apply, legal_actions, outcome, settle, start_fight, updated_character
from rules.andor.models import (
    DEATH_XP_LOSS_PERCENT,
    END_TURN,
    FLEE,
    FLEE_CHANCE,
    FLEE_COST,
    POTION,
    POTION_COST,
    STAT_LIMITS,
    Action,
    Character,
    FightState,
    Monster,
    xp_to_next_level,
)
from rules.andor.simulate import MAX_FIGHTS, Progress, SimulationResult, simulate
from rules.andor.text import crit_text, describe_event, matchup_lines, per_attack_lines, summary_lines
from rules.roster import name_key
from rules.seeds import MAX_SEED, new_seed
from rules.text import format_number as num
from rules.text import plural
from storage.andor import AndorRepository, Fight, FightAlreadyLive
from storage.database import StaleUpdate

COLOR_FLED = discord.Color.light_grey()
PROGRESS_INTERVAL = 1.5  # seconds between two progress edits of /andor simulate
CHART_FILE = "hp-left.png"


# --- rendering ------------------------------------------------------------------------------------------


def monster_kind(state: FightState) -> str:
    """The bestiary name of the fight's monsters (several are copies named "Wolf 1", "Wolf 2", ...)."""
    first = state.monsters[0].name
    return first if len(state.monsters) == 1 else first.rsplit(" ", 1)[0]


def monster_label(state: FightState) -> str:
    count = len(state.monsters)
    return monster_kind(state) if count == 1 else f"{monster_kind(state)} ×{count}"


def turn_hint(state: FightState) -> str | None:
    """Says why the turn goes on when no attack is affordable: it ends by itself only at 0 AP (RULINGS 4)."""
    cost = state.player.attack_cost
    if state.ap_left == 0 or state.ap_left >= cost:
        return None
    legal = legal_actions(state)
    still = [name for action, name in ((POTION, "drink a potion"), (FLEE, f"flee ({FLEE_COST} AP)")) if action in legal]
    return (
        f"⏳ {state.ap_left} AP left, too few to attack ({cost} AP). You can still {' or '.join(still)};"
        " press **End turn** to let the monsters act."
    )


def result_line(fight: Fight) -> str:
    if fight.status == "won":
        return f"🏆 **Victory!** +{fight.xp_change} XP · {level_text(fight.level_after, fight.xp_after)}"
    if fight.status == "lost":
        return (
            f"💀 **Defeated.** You lose {-fight.xp_change} XP ({DEATH_XP_LOSS_PERCENT}% of this level's XP) and wake up at full HP · "
            f"{level_text(fight.level_after, fight.xp_after)}"
        )
    return "🏃 **You got away.** Nothing gained, nothing lost."


def level_text(level: int, xp: int) -> str:
    return f"level {level}, {xp}/{xp_to_next_level(level)} XP"


def fight_embed(fight: Fight, player_name: str) -> discord.Embed:
    state = fight.state
    player = state.player
    head = []
    if fight.status != "live":
        head.append(result_line(fight))
    head.append(f"**{escape_markdown(player_name)}** HP {hp_bar(player.hp, player.max_hp, 12)}")
    if fight.status == "live":
        head.append(
            f"AP {hp_bar(state.ap_left, player.ap, 10)} · 🧪 {plural(player.potions, 'potion')}"
            f" (+{player.potion_heal} HP for {POTION_COST} AP, when hurt)"
        )
    target = state.monsters[fight.target] if 0 <= fight.target < len(state.monsters) else state.monsters[0]
    yours, theirs = matchup_lines(player, target, escape_markdown(monster_kind(state)))
    head += [f"🗡️ {yours}", f"🩸 {'Each ' if len(state.monsters) > 1 else ''}{theirs}"]
    if fight.status == "live" and (hint := turn_hint(state)):
        head.append(hint)
    feed = [describe_event(e) for e in state.feed]
    description = "\n".join(head) + "\n\n**Latest**\n"
    description += tail_within(feed, EmbedLimits.DESCRIPTION - len(description) - 10)
    color = {"live": COLOR_INFO, "won": COLOR_VICTORY, "lost": COLOR_DEFEAT, "fled": COLOR_FLED}[fight.status]
    embed = discord.Embed(
        title=f"⚔️ {escape_markdown(player_name)} vs {escape_markdown(monster_label(state))}",
        description=description,
        color=color,
    )
    for index, monster in enumerate(state.monsters):
        aimed = fight.status == "live" and index == fight.target and monster.alive and len(state.monsters) > 1
        embed.add_field(
            name=f"{'🎯 ' if aimed else ''}{monster.name}",
            value=hp_bar(monster.hp, monster.max_hp, 10) if monster.alive else "☠️ defeated",
            inline=True,
        )
    footer = f"Round {state.round} · fight #{fight.id} · seed {fight.seed}"
    if fight.status == "live":
        footer += "\nYour turn ends at 0 AP or with End turn; a failed flee ends it too."
    embed.set_footer(text=footer)
    return fit_embed(embed)


def fight_view(fight: Fight) -> discord.ui.View | None:
    if fight.status != "live":
        return None
    state = fight.state
    legal = legal_actions(state)
    view = discord.ui.View(timeout=None)
    living = [(i, m) for i, m in enumerate(state.monsters) if m.alive]
    if len(living) > 1:
        options = [
            discord.SelectOption(
                label=clip(f"{m.name} ({m.hp}/{m.max_hp} HP)", 100), value=str(i), default=i == fight.target
            )
            for i, m in living
        ]
        view.add_item(
            TargetSelect(
                discord.ui.Select(
                    custom_id=f"andor:{fight.id}:{fight.version}:target",
                    placeholder="Choose whom to attack",
                    options=options,
                    row=0,
                )
            )
        )
    target = state.monsters[fight.target]
    buttons = [
        ("attack", clip(f"Attack {target.name}", 80), discord.ButtonStyle.danger, Action.attack(fight.target) in legal),
        ("potion", f"Potion ({state.player.potions})", discord.ButtonStyle.success, POTION in legal),
        ("flee", f"Flee ({FLEE_CHANCE}%)", discord.ButtonStyle.secondary, FLEE in legal),
        ("end", "End turn", discord.ButtonStyle.primary, True),
    ]
    for action, label, style, enabled in buttons:
        view.add_item(
            FightButton(
                discord.ui.Button(
                    label=label,
                    style=style,
                    disabled=not enabled,
                    custom_id=f"andor:{fight.id}:{fight.version}:{action}",
                    row=1,
                )
            )
        )
    return view


def monster_line(monster: Monster, own: bool) -> str:
    return (
        f"**{escape_markdown(monster.name)}**{' (this server)' if own else ''}: HP {monster.hp}, AC {monster.attack_chance}, "
        f"damage {monster.damage_min}-{monster.damage_max}, BC {monster.block_chance}, DR {monster.damage_resistance}, "
        f"XP {monster.xp}"
    )


def character_embed(character: Character, name: str, title: str | None = None) -> discord.Embed:
    c = character
    embed = discord.Embed(title=title or f"{escape_markdown(name)}'s character", color=COLOR_INFO)
    fields = [
        ("Level", f"{c.level} ({c.xp}/{c.xp_to_next_level} XP)"),
        ("Max HP", f"{c.max_hp} ({c.base_hp} + 5×{c.level} + {c.hp_bonus})"),
        ("AP", f"{c.ap}, attack costs {c.attack_cost} ({c.ap // c.attack_cost} a turn)"),
        ("Attack chance (AC)", str(c.attack_chance)),
        ("Damage", f"{c.damage_min}-{c.damage_max}" + (f" +{c.ad_bonus}%" if c.ad_bonus else "")),
        ("Critical", crit_text(c.crit_chance, c.crit_multiplier)),
        ("Block chance (BC)", str(c.block_chance)),
        ("Damage resistance (DR)", str(c.damage_resistance)),
        ("Armor", f"{c.armor} (takes {num(100 - c.armor / 2)}% damage)"),
        ("Potions", f"{c.potions}, heal {c.potion_heal} HP each ({POTION_COST} AP)"),
    ]
    for field_name, value in fields:
        embed.add_field(name=field_name, value=value, inline=True)
    embed.set_footer(text="Change it with /andor character set; every fight starts at full HP with these potions.")
    return fit_embed(embed)


def hp_left_chart(result: SimulationResult) -> bytes:
    """A bar chart of the player's HP at the end of the fights (0 = dead), as PNG."""
    from matplotlib.figure import Figure  # on first use: the bot starts without matplotlib (about 40 MB)

    buckets = result.hp_left_buckets(50)
    width = buckets[1][1] - buckets[1][0] + 1  # HP per bar (max HP is at least 6, so there is a second bucket)
    xs, heights = [low for low, _, _ in buckets], [count for _, _, count in buckets]
    top = buckets[-1][1]
    figure = Figure(figsize=(8, 4), dpi=100)
    axes = figure.subplots()
    colors = ["#d9534f"] + ["#5cb85c"] * (len(xs) - 1)
    axes.bar(
        xs, heights, width=width * 0.9 if width > 1 else 0.8, align="edge" if width > 1 else "center", color=colors
    )
    axes.set_xlabel("your HP left at the end (0 = defeated)")
    axes.set_ylabel("fights")
    axes.set_title(
        f"{result.monster} ×{result.count}: {result.fights:,} fights (seed {result.seed}), won {100 * result.win_rate:.1f}%"
    )
    axes.set_xlim(-1, top + 1)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


def simulate_with_chart(
    character: Character, monster: Monster, count: int, fights: int, seed: int, progress: Progress
) -> tuple[SimulationResult, bytes, list[str]]:
    result = simulate(character, monster, count, fights, seed, progress=progress)
    return result, hp_left_chart(result), per_attack_lines(character, monster, escape_markdown(monster.name))


# --- persistent components -------------------------------------------------------------------------------


class FightButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"andor:(?P<fight>[0-9]{1,19}):(?P<version>[0-9]{1,9}):(?P<action>attack|potion|flee|end)",
):
    def __init__(self, button: discord.ui.Button):
        super().__init__(button)
        match = self.template.fullmatch(button.custom_id)
        self.fight_id, self.version, self.action = int(match["fight"]), int(match["version"]), match["action"]

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with error_reply(interaction):
            await interaction.client.get_cog("Andor").click(interaction, self.fight_id, self.version, self.action)


class TargetSelect(
    discord.ui.DynamicItem[discord.ui.Select], template=r"andor:(?P<fight>[0-9]{1,19}):(?P<version>[0-9]{1,9}):target"
):
    def __init__(self, select: discord.ui.Select):
        super().__init__(select)
        match = self.template.fullmatch(select.custom_id)
        self.fight_id, self.version = int(match["fight"]), int(match["version"])

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match):
        return cls(item)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with error_reply(interaction):
            values = (interaction.data or {}).get("values") or []
            await interaction.client.get_cog("Andor").click(
                interaction, self.fight_id, self.version, "target", values[0] if values else None
            )


# --- the cog --------------------------------------------------------------------------------------------


def _range(stat: str):
    limit = STAT_LIMITS[stat]
    kind = int if limit.integer else float
    return app_commands.Range[kind, kind(limit.minimum), kind(limit.maximum)]


def stat_description(stat: str) -> str:
    """The help of a `/andor character set` option: what the stat does, its allowed range and its default."""
    limit = STAT_LIMITS[stat]
    low, high = (f"{value:,}" if limit.integer else num(value) for value in (limit.minimum, limit.maximum))
    return f"{limit.help} ({low} to {high}, default {num(Character.model_fields[stat].default)})"


@app_commands.guild_only()
class Andor(
    commands.GroupCog,
    group_name="andor",
    group_description="Andor's Trail: fight monsters turn by turn, or see the odds.",
):
    character = app_commands.Group(name="character", description="Your Andor's Trail character in this server.")
    monsters = app_commands.Group(name="monsters", description="GM: this server's own monsters.")

    def __init__(self, bot: commands.Bot):
        self.bot = bot
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

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(FightButton, TargetSelect)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(FightButton, TargetSelect)

    # --- helpers ---------------------------------------------------------------------------------------

    async def my_character(self, interaction: discord.Interaction) -> Character:
        return await self.repo.character(interaction.guild_id, interaction.user.id) or Character()

    async def matchup(
        self, interaction: discord.Interaction, monster: str, seed: int | None
    ) -> tuple[Monster, Character, int]:
        """The monster asked for, the member's character, and the seed (a new one unless given)."""
        chosen = await self.monsters_roster.find(interaction.guild_id, monster)
        seed = seed if seed is not None else new_seed()
        return chosen, await self.my_character(interaction), seed

    async def monster_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        book = await self.monsters_roster.book(interaction.guild_id)
        return choices(book.values(), current, lambda m: f"{m.name} (HP {m.hp}, XP {m.xp})")

    async def own_monster_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return choices(await self.monsters_roster.uploaded(interaction.guild_id), current, lambda m: m.name)

    # --- character -------------------------------------------------------------------------------------

    @character.command(name="show", description="Show your character: level, XP, HP, AP and combat stats.")
    async def character_show(self, interaction: discord.Interaction) -> None:
        character = await self.my_character(interaction)
        await interaction.response.send_message(
            embed=character_embed(character, interaction.user.display_name), ephemeral=True
        )

    @character.command(name="set", description="Change some of your character's stats (the others stay as they are).")
    @app_commands.describe(**{stat: stat_description(stat) for stat in Character.model_fields})
    async def character_set(
        self,
        interaction: discord.Interaction,
        level: _range("level") | None = None,
        xp: _range("xp") | None = None,
        base_hp: _range("base_hp") | None = None,
        hp_bonus: _range("hp_bonus") | None = None,
        ap: _range("ap") | None = None,
        attack_cost: _range("attack_cost") | None = None,
        attack_chance: _range("attack_chance") | None = None,
        damage_min: _range("damage_min") | None = None,
        damage_max: _range("damage_max") | None = None,
        crit_chance: _range("crit_chance") | None = None,
        crit_multiplier: _range("crit_multiplier") | None = None,
        block_chance: _range("block_chance") | None = None,
        damage_resistance: _range("damage_resistance") | None = None,
        ad_bonus: _range("ad_bonus") | None = None,
        armor: _range("armor") | None = None,
        potions: _range("potions") | None = None,
        potion_heal: _range("potion_heal") | None = None,
    ) -> None:
        given = {
            name: value for name, value in locals().items() if name in Character.model_fields and value is not None
        }
        if not given:
            raise UserError("Give at least one stat to change, e.g. `/andor character set attack_chance:90`.")
        character = await self.repo.update_character(
            interaction.guild_id, interaction.user.id, lambda stored: updated_character(stored or Character(), given)
        )
        changed = ", ".join(f"{name} {num(value)}" for name, value in given.items())
        await interaction.response.send_message(
            embed=character_embed(character, interaction.user.display_name, title=f"✅ Saved: {changed}"[:256]),
            ephemeral=True,
        )

    @character.command(name="reset", description="Start over with the default character (level 1).")
    async def character_reset(self, interaction: discord.Interaction) -> None:
        await self.repo.delete_character(interaction.guild_id, interaction.user.id)
        await interaction.response.send_message(
            embed=character_embed(Character(), interaction.user.display_name, title="✅ Back to the default character"),
            ephemeral=True,
        )

    # --- bestiary --------------------------------------------------------------------------------------

    @app_commands.command(name="bestiary", description="This server's monsters, or one monster in detail.")
    @app_commands.describe(name="A monster to show in detail, with your odds against it")
    @app_commands.autocomplete(name=monster_autocomplete)
    async def bestiary(self, interaction: discord.Interaction, name: str | None = None) -> None:
        own = {name_key(m.name) for m in await self.monsters_roster.uploaded(interaction.guild_id)}
        book = await self.monsters_roster.book(interaction.guild_id)
        if name is None:
            embed = discord.Embed(
                title=f"Bestiary ({len(book)})",
                description=lines_within([monster_line(m, k in own) for k, m in book.items()], EmbedLimits.DESCRIPTION),
                color=COLOR_INFO,
            )
            embed.set_footer(
                text="/andor bestiary name:<monster> for details · GMs add monsters with /andor monsters upload"
            )
            await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)
            return
        monster = await self.monsters_roster.find(interaction.guild_id, name)
        you = await self.my_character(interaction)
        per_attack = await run_engine(self.bot, per_attack_lines, you, monster, escape_markdown(monster.name))
        embed = discord.Embed(
            title=escape_markdown(monster.name),
            description=monster_line(monster, name_key(monster.name) in own),
            color=COLOR_INFO,
        )
        for field_name, value in [
            (
                "AP / attack cost",
                f"{monster.ap} / {monster.attack_cost} ({plural(monster.ap // monster.attack_cost, 'attack')} a turn)",
            ),
            ("Critical", crit_text(monster.crit_chance, monster.crit_multiplier)),
        ]:
            embed.add_field(name=field_name, value=value, inline=True)
        embed.add_field(name="Per attack, with your character", value="\n".join(per_attack), inline=False)
        await interaction.response.send_message(embed=fit_embed(embed), ephemeral=True)

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
    )
    @app_commands.autocomplete(monster=monster_autocomplete)
    async def fight(
        self,
        interaction: discord.Interaction,
        monster: str,
        count: app_commands.Range[int, 1, MAX_MONSTERS] = 1,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
    ) -> None:
        chosen, character, seed = await self.matchup(interaction, monster, seed)
        state, _events = start_fight(character, chosen, count)
        try:
            fight = await self.repo.start_fight(
                interaction.guild_id, interaction.channel_id, interaction.user.id, seed, state
            )
        except FightAlreadyLive as live:
            await interaction.response.send_message(
                "You are already in a fight: here it is again. Finish it (or flee) before starting another.",
                embed=fight_embed(live.fight, interaction.user.display_name),
                view=fight_view(live.fight),
            )
            return
        await interaction.response.send_message(
            embed=fight_embed(fight, interaction.user.display_name), view=fight_view(fight)
        )

    async def click(
        self, interaction: discord.Interaction, fight_id: int, version: int, action: str, value: str | None = None
    ) -> None:
        fight = await self.repo.fight(fight_id)
        if fight is None or fight.guild_id != interaction.guild_id:
            raise UserError("This fight no longer exists.")
        if interaction.user.id != fight.user_id:
            raise UserError(f"This is <@{fight.user_id}>'s fight; start your own with `/andor fight`.")
        if fight.status != "live":
            raise UserError("This fight is over; start a new one with `/andor fight`.")
        if version != fight.version:
            raise UserError(
                "These buttons are from an earlier moment of this fight, so nothing was changed. Use the latest ones."
            )
        state, target = fight.state, fight.target
        if action == "target":
            target = int(value) if value is not None and value.isdigit() else -1
            if not (0 <= target < len(state.monsters) and state.monsters[target].alive):
                raise UserError("That monster cannot be attacked any more.")
        else:
            chosen = {"attack": Action.attack(target), "potion": POTION, "flee": FLEE, "end": END_TURN}[action]
            if chosen not in legal_actions(state):
                raise UserError(f"You cannot do that now ({state.ap_left} AP left).")
            rng = random.Random(f"{fight.seed}:{fight.version}")
            state, _events = await run_engine(self.bot, apply, state, chosen, rng)
            if not state.monsters[target].alive:
                target = next((i for i, m in enumerate(state.monsters) if m.alive), target)
        result = outcome(state)
        try:
            fight = await self.repo.update_fight(
                fight, state, target, settle=(lambda stored: settle(stored or Character(), result)) if result else None
            )
        except StaleUpdate:
            raise UserError(
                "That click came too late: the fight had already moved on, so nothing was changed."
            ) from None
        await interaction.response.edit_message(
            embed=fight_embed(fight, interaction.user.display_name), view=fight_view(fight)
        )

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
        title = f"🎲 {escape_markdown(interaction.user.display_name)} vs {escape_markdown(chosen.name)}"
        title += f" ×{count}" if count > 1 else ""
        await defer_thinking(interaction, ephemeral=False)

        async def show(done: float) -> None:
            await interaction.edit_original_response(
                embed=discord.Embed(
                    title=title, description=f"{progress_bar(done)}\n{fights:,} fights · seed {seed}", color=COLOR_INFO
                )
            )

        progress = ProgressMessage(show, what=f"/andor simulate {interaction.id}", min_interval=PROGRESS_INTERVAL)
        try:
            result, chart, per_attack = await run_long_engine(
                self.bot, simulate_with_chart, character, chosen, count, fights, seed, progress.report
            )
        finally:
            await progress.close()
        embed = discord.Embed(title=title, description="\n".join(summary_lines(result)), color=COLOR_INFO)
        embed.add_field(name="Win rate", value=f"{100 * result.win_rate:.2f}%", inline=True)
        embed.add_field(name="Mean rounds", value=f"{result.mean_rounds:.2f}", inline=True)
        embed.add_field(
            name="Mean HP left (won)", value=f"{result.mean_hp_left_won:.2f}" if result.wins else "-", inline=True
        )
        embed.add_field(name="Per attack", value="\n".join(per_attack), inline=False)
        embed.set_image(url=f"attachment://{CHART_FILE}")
        embed.set_footer(
            text=f"seed {result.seed} · the AI drinks a potion at half HP, attacks the weakest, never flees"
        )
        await interaction.edit_original_response(
            embed=fit_embed(embed), attachments=[discord.File(io.BytesIO(chart), filename=CHART_FILE)]
        )


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(Andor(bot))
