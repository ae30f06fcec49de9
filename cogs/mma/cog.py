"""/mma: MMA Warriors duels between two members, or a member and the AI, played with buttons.

One public message per match, edited after every move. Every click loads the match from storage,
checks that the clicker may make that move (and that the button is not from an older version of the
message), applies it and the AI's answer in the engine, saves it all in one versioned transaction,
then redraws. Nothing lives in memory between clicks, so a restart loses nothing.

This module is the command group and the route of each command and click; the work is done by three desks,
one per concern, each a subpackage built here with exactly what it uses: `matches` (the `MatchDesk`),
`rivalry` (ratings and past matches, the `RivalryDesk`) and `tournaments` (Swiss tournaments, the
`TournamentDesk`). `items` are the match's and the tournament's buttons.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from cogs.common import require_gm
from cogs.common.cog import GameCog
from cogs.common.events import CHANNEL_GAMES_ENDED, listener
from cogs.mma.items import COG_NAME, COMPONENTS, HandSelect, MatchButton, TournamentButton
from cogs.mma.matches import boards, challenges, clicks, render
from cogs.mma.matches.claims import ClaimOpenings
from cogs.mma.matches.desk import MatchDesk
from cogs.mma.matches.notes import display_name
from cogs.mma.rivalry import records
from cogs.mma.rivalry.desk import RivalryDesk
from cogs.mma.rivalry.items import RIVALRY_COMPONENTS, HistoryButton, LeaderboardButton, ReplayButton, RivalrySelect
from cogs.mma.tournaments import commands as tournament
from cogs.mma.tournaments import rounds, tables
from cogs.mma.tournaments.desk import TournamentDesk
from rules.seeds import MAX_SEED
from storage.mma import MmaRepository
from storage.ratings import RatingRepository
from storage.tournament import TournamentRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot
    from storage.lifecycle import EndedGames

log = logging.getLogger("arena.mma")

MAX_MATCH_ID = 2**53 - 1  # the largest integer a Discord option carries exactly

MAX_TURNS = 1000  # more than any match has (100 turns each, then the judges)

MAX_TOURNAMENT_ROUNDS = 10  # 10 rounds find a winner among 1024 players: more than any field here
MAX_START_MINUTES = 7 * 24 * 60  # a week

MmaComponent = (
    MatchButton | HandSelect | TournamentButton | LeaderboardButton | HistoryButton | ReplayButton | RivalrySelect
)


@app_commands.guild_only()
class Mma(
    GameCog[MmaComponent],
    name=COG_NAME,
    group_name="mma",
    group_description="MMA Warriors: card duels against another member or the AI.",
):
    components = (*COMPONENTS, *RIVALRY_COMPONENTS)

    def __init__(self, bot: ArenaBot):
        super().__init__(bot)
        repo, ratings = MmaRepository(bot.db), RatingRepository(bot.db)
        self.matches = MatchDesk(
            bot,
            repo,
            clock=lambda: self.clock(),  # read at each call: a test replaces the cog's clock
            seed_or_new=self.seed_or_new,
            claim_openings=ClaimOpenings(
                lambda match_id, version: boards.redraw_as_claim_opens(self.matches, match_id, version)
            ),
            match_ended=lambda record: rounds.match_ended(self.tournaments, record),
        )
        self.tournaments = TournamentDesk(bot, self.matches, TournamentRepository(bot.db), ratings)
        self.rivalry = RivalryDesk(bot, repo, ratings)

    async def cog_load(self) -> None:
        await super().cog_load()
        await self.rivalry.recompute_ratings(self.clock())
        if await self.matches.watch_claims():
            await rounds.resume(self.tournaments)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.matches.close()
        self.tournaments.close()

    @commands.Cog.listener(listener(CHANNEL_GAMES_ENDED))
    async def channel_games_ended(self, ended: EndedGames) -> None:
        """A deleted channel's matches ended (cogs/lifecycle): their idle claims no longer open."""
        for match in ended.matches:
            self.matches.claim_openings.cancel(match.id)

    async def on_component(self, interaction: discord.Interaction, component: MmaComponent) -> None:
        if isinstance(component, LeaderboardButton | HistoryButton | ReplayButton | RivalrySelect):
            await records.on_component(self.rivalry, interaction, component)
            return
        if isinstance(component, TournamentButton):
            await tournament.on_button(self.tournaments, interaction, component.numeric_id, component.action)
            return
        await clicks.on_click(self.matches, interaction, component.click())

    # --- starting matches -----------------------------------------------------------------------------

    @app_commands.command(name="challenge", description="Challenge a member to an MMA Warriors match here.")
    @app_commands.describe(
        opponent="The member to fight; they get Accept and Decline buttons",
        seed="Deal the decks from this seed (default: random; the match shows it)",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        seed: app_commands.Range[int, 0, MAX_SEED] | None = None,
    ) -> None:
        await challenges.start_challenge(
            self.matches, interaction, opponent.id, display_name(opponent), opponent.bot, seed
        )

    @app_commands.command(name="ai", description="Start an MMA Warriors match against the AI here.")
    @app_commands.describe(seed="Deal the decks from this seed (default: random; the match shows it)")
    async def ai(
        self, interaction: discord.Interaction, seed: app_commands.Range[int, 0, MAX_SEED] | None = None
    ) -> None:
        await challenges.start_ai_match(self.matches, interaction, seed)

    # --- records and rules ----------------------------------------------------------------------------

    @app_commands.command(
        name="stats", description="Rating with rank, peak and form; record, rivals and favourite fighters here."
    )
    @app_commands.describe(member="Whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        who = member or interaction.user
        await records.stats(self.rivalry, interaction, who, display_name(who))

    @app_commands.command(
        name="leaderboard", description="Every rated MMA Warriors player here by rating, with your own rank."
    )
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await records.leaderboard(self.rivalry, interaction)

    @app_commands.command(name="history", description="A member's finished matches here, newest first.")
    @app_commands.describe(member="Whose matches (default: yours)")
    async def history(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        await records.history(self.rivalry, interaction, (member or interaction.user).id)

    async def match_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        return await records.match_choices(self.rivalry, interaction, current)

    @app_commands.command(name="replay", description="Step through a finished match of this server, privately.")
    @app_commands.describe(
        match="The match's number (its title shows it: match #…); your recent matches are offered",
        turn="Open at the start of this turn, counted across both players (default: the deal)",
    )
    @app_commands.autocomplete(match=match_autocomplete)
    async def replay(
        self,
        interaction: discord.Interaction,
        match: app_commands.Range[int, 1, MAX_MATCH_ID],
        turn: app_commands.Range[int, 1, MAX_TURNS] | None = None,
    ) -> None:
        await records.replay(self.rivalry, interaction, match, turn)

    # --- tournaments ---------------------------------------------------------------------------------------

    tournament_group = app_commands.Group(
        name="tournament", description="Swiss tournaments: members sign up here and play rated rounds."
    )

    @tournament_group.command(name="create", description="Open a Swiss tournament in this channel (game masters).")
    @app_commands.describe(
        rounds="Rounds to play (default: what the field needs, about log2 of the players, at least 3)",
        starts_in="Start on its own this many minutes from now, with 4 players or more (default: when you start it)",
    )
    async def tournament_create(
        self,
        interaction: discord.Interaction,
        rounds: app_commands.Range[int, 1, MAX_TOURNAMENT_ROUNDS] | None = None,
        starts_in: app_commands.Range[int, 1, MAX_START_MINUTES] | None = None,
    ) -> None:
        await tournament.create(self.tournaments, interaction, rounds, starts_in)

    @tournament_group.command(name="start", description="Start this channel's tournament now (game masters).")
    async def tournament_start(self, interaction: discord.Interaction) -> None:
        await tournament.start(self.tournaments, interaction)

    @tournament_group.command(name="cancel", description="Cancel this channel's tournament (game masters).")
    async def tournament_cancel(self, interaction: discord.Interaction) -> None:
        await tournament.cancel(self.tournaments, interaction)

    @tournament_group.command(
        name="withdraw", description="Leave this channel's tournament: your game going on is conceded."
    )
    async def tournament_withdraw(self, interaction: discord.Interaction) -> None:
        await tournament.leave_tournament(self.tournaments, interaction, interaction.user.id, by_gm=False)

    @tournament_group.command(name="remove", description="Remove a player (a no-show) from this channel's tournament.")
    @app_commands.describe(member="The player to remove; their game going on is conceded (a forfeit if unplayed)")
    async def tournament_remove(self, interaction: discord.Interaction, member: discord.Member | discord.User) -> None:
        await require_gm(interaction)
        await tournament.leave_tournament(self.tournaments, interaction, member.id, by_gm=True)

    @tournament_group.command(name="history", description="This server's finished tournaments, newest first.")
    async def tournament_history(self, interaction: discord.Interaction) -> None:
        await tables.history(self.tournaments, interaction)

    @tournament_group.command(name="crosstable", description="A tournament's standings and crosstable as a picture.")
    @app_commands.describe(
        tournament_number="The tournament's number (default: this channel's, or the server's latest finished)"
    )
    async def tournament_crosstable(
        self,
        interaction: discord.Interaction,
        tournament_number: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None,
    ) -> None:
        await tables.crosstable(self.tournaments, interaction, tournament_number)

    @app_commands.command(name="rules", description="The MMA Warriors rules in short.")
    async def rules(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=render.rules_embed(), ephemeral=True)
