"""/mma: MMA Warriors duels between two members, or a member and the AI, played with buttons.

One public message per match, edited after every move. Every click loads the match from storage,
checks that the clicker may make that move (and that the button is not from an older version of the
message), applies it and the AI's answer in the engine, saves it all in one versioned transaction,
then redraws. Nothing lives in memory between clicks, so a restart loses nothing.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypedDict, Unpack

import discord
from discord import app_commands

from cogs.common import UserError, bold, markdown_safe, mention, run_engine
from cogs.common.bot import channel_id, guild_id
from cogs.common.cog import GameCog
from cogs.common.components import redrawn, require_here
from cogs.common.turns import TurnMove, play_turn
from cogs.mma import render, rivalry
from cogs.mma.hands import HandViews
from cogs.mma.idle import ClaimOpenings
from cogs.mma.items import COG_NAME, COMPONENTS, PICK, HandSelect, MatchButton, MatchClick, match_button
from cogs.mma.rivalry_items import RIVALRY_COMPONENTS, HistoryButton, ReplayButton
from rules.mma.ai import played_move
from rules.mma.cards import CARDS
from rules.mma.engine import (
    IDLE,
    IDLE_SECONDS,
    action_problem,
    card_action,
    claimed_idle,
    idle_claim_problem,
    idle_minutes_left,
    new_game,
)
from rules.mma.state import (
    CONCEDE,
    DEPLOY,
    DRAW,
    END_TURN,
    OVER,
    PLAY,
    REPLACE_PHASE,
    SKIP_DRAW,
    Action,
    Event,
    GameState,
)
from rules.mma.text import describe, shared_fighters
from rules.seeds import MAX_SEED
from rules.text import plural
from storage.database import StaleUpdate, StorageOutage
from storage.mma import MatchConflict, MatchRecord, MatchStatus, MmaRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot

log = logging.getLogger("arena.mma")

FEED_KEEP = 40  # feed lines stored per match; the message shows the newest that fit
AI_NAME = "AI"
NAME_LIMIT = 40
MAX_MATCH_ID = 2**53 - 1  # the largest integer a Discord option carries exactly
BUTTON_KINDS = {"draw": DRAW, "skip": SKIP_DRAW, "end": END_TURN}
MOVED = "🔄 The match moved on: this is your hand now."
SHOWING_ACTIONS = {"hand", "concede", "claim", "again", "resign"}


def display_name(user: discord.abc.User) -> str:
    return markdown_safe(user.display_name, NAME_LIMIT)


def waiting_for(record: MatchRecord) -> int | None:
    """The slot of the member a live match between two members waits for (to move, or to pick a fighter)."""
    if record.status != "live" or record.vs_ai or record.state is None:
        return None
    return record.state.to_move


def feed_lines(events: list[Event], names: tuple[str, str], state: GameState) -> list[str]:
    """The feed's lines for what happened, up to `state` (a fighter both corners sent in is named with its player)."""
    shared = shared_fighters(state)
    return [line for line in (describe(e, names, shared, strong=bold) for e in events) if line]


class BoardMessage(TypedDict, total=False):
    """What a new match message is sent with."""

    content: str
    embed: discord.Embed
    view: discord.ui.View
    allowed_mentions: discord.AllowedMentions


MmaComponent = MatchButton | HandSelect | HistoryButton | ReplayButton


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
        self.repo = MmaRepository(bot.db)
        self.hands = HandViews()
        self.claim_openings = ClaimOpenings(self.redraw_as_claim_opens)

    async def cog_load(self) -> None:
        await super().cog_load()
        # The boards drawn before a restart still wait for their claim to open.
        try:
            waiting = await self.repo.live_between_members()
        except StorageOutage:
            log.warning("could not read the matches waiting for an idle claim; their next move redraws them")
            return
        for record in waiting:
            if self.bot.serves_guild(record.guild_id):  # the other processes watch their own shards' matches
                self.watch_claim(record, self.clock())

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.hands.close_all()
        self.claim_openings.close_all()

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
        await self.start_challenge(interaction, opponent.id, display_name(opponent), opponent.bot, seed)

    @app_commands.command(name="ai", description="Start an MMA Warriors match against the AI here.")
    @app_commands.describe(seed="Deal the decks from this seed (default: random; the match shows it)")
    async def ai(
        self, interaction: discord.Interaction, seed: app_commands.Range[int, 0, MAX_SEED] | None = None
    ) -> None:
        await self.start_ai_match(interaction, seed)

    async def start_challenge(
        self,
        interaction: discord.Interaction,
        opponent_id: int,
        opponent_name: str,
        opponent_is_bot: bool,
        seed: int | None = None,
    ) -> None:
        if opponent_id == interaction.user.id:
            raise UserError("You cannot challenge yourself; `/mma ai` gives you a sparring partner.")
        if opponent_is_bot:
            raise UserError("Bots cannot accept challenges; use `/mma ai` to fight the AI.")
        record = await self.create(
            interaction, (interaction.user.id, opponent_id), (display_name(interaction.user), opponent_name), seed
        )
        if record is None:
            return
        content, embed = render.challenge_message(record)
        # The challenge is a new message, so its mention notifies: the challenged member, and only them.
        await self.post(
            interaction,
            record,
            content=content,
            embed=embed,
            view=render.challenge_buttons(record),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(opponent_id)]),
        )

    async def start_ai_match(self, interaction: discord.Interaction, seed: int | None = None) -> None:
        record = await self.create(
            interaction, (interaction.user.id, None), (display_name(interaction.user), AI_NAME), seed
        )
        if record is None:
            return
        embed, view = self.board(record)
        await self.post(interaction, record, embed=embed, view=view)

    async def create(
        self,
        interaction: discord.Interaction,
        players: tuple[int, int | None],
        names: tuple[str, str],
        seed: int | None,
    ) -> MatchRecord | None:
        """A new match (against the AI: dealt at once) or challenge. None when the member already has a match
        going here: it is offered again instead."""
        seed = self.seed_or_new(seed)
        state, feed = None, []
        if players[1] is None:
            state, events = await run_engine(self.bot, new_game, seed)
            feed = feed_lines(
                events, (render.player_called(players[0], names[0]), render.player_called(players[1], names[1])), state
            )
        now = self.clock()
        try:
            return await self.repo.create(
                guild_id(interaction),
                channel_id(interaction),
                players,
                names,
                seed,
                now,
                state=state,
                feed=feed,
                expire_before=now - IDLE_SECONDS,
            )
        except MatchConflict as conflict:
            if conflict.user_id == interaction.user.id and conflict.match.status == "live":
                await self.offer_again(interaction, conflict.match)
                return None
            who = (
                "You already have"
                if conflict.user_id == interaction.user.id
                else f"{mention(conflict.user_id)} already has"
            )
            if conflict.match.status == "pending":  # Accept or Decline settles it; Decline also withdraws it
                kind, settle = "a challenge waiting", "accept or decline it first (it lapses on its own too)"
            else:
                kind, settle = "a match going", "finish or concede it first"
            raise UserError(
                f"{who} {kind} in this channel (match #{conflict.match.id}); {settle}, or play in another channel."
            ) from None

    async def offer_again(self, interaction: discord.Interaction, record: MatchRecord) -> None:
        """The member's match going in this channel, posted again as it is stored: its old message may be lost
        or behind (a move saved just before a crash). The new message becomes the match's."""
        embed, view = self.board(record)
        await interaction.response.send_message(
            f"You already have a match going here (match #{record.id}): here it is again. Finish it, or concede, "
            "before starting another.",
            embed=embed,
            view=view,
        )
        sent = await interaction.original_response()
        await self.repo.set_message(record.id, sent.id)
        if record.message_id is not None and record.message_id != sent.id:
            await self.retire_board(replace(record, message_id=sent.id), record.message_id)

    async def retire_board(self, record: MatchRecord, message_id: int) -> None:
        """Take the buttons off an earlier board of the match (`record`, with its board now elsewhere) and point it
        to the live one, so one board plays the match. A board someone deleted needs nothing; an edit Discord
        refuses is logged (a click on that board retires it then, `on_button`)."""
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        try:
            await channel.get_partial_message(message_id).edit(content=render.moved_text(record), view=None)
        except discord.NotFound:
            pass
        except discord.HTTPException:
            log.warning("could not retire board %s of match %s", message_id, record.id, exc_info=True)

    async def post(
        self, interaction: discord.Interaction, record: MatchRecord, **message: Unpack[BoardMessage]
    ) -> None:
        try:
            if interaction.response.is_done():
                sent = await interaction.followup.send(wait=True, **message)
            else:
                await interaction.response.send_message(**message)
                sent = await interaction.original_response()
        except discord.HTTPException:
            await self.repo.delete(record.id)
            raise
        await self.repo.set_message(record.id, sent.id)

    def board(self, record: MatchRecord) -> tuple[discord.Embed, discord.ui.View]:
        """The match's message as of now (the idle claim depends on the time), watching for its claim to open."""
        now = self.clock()
        self.watch_claim(record, now)
        return render.match_embed(record, now), render.match_view(record, now)

    def watch_claim(self, record: MatchRecord, now: float) -> None:
        """Set the redraw for the moment the match's idle claim opens, if it is still to come."""
        left = record.last_move_at + IDLE_SECONDS - now
        if record.status == MatchStatus.LIVE and not record.vs_ai and left > 0:
            self.claim_openings.arm(record.id, record.version, left)
        else:
            self.claim_openings.cancel(record.id)

    async def redraw_as_claim_opens(self, match_id: int, version: int) -> None:
        record = await self.repo.get(match_id)
        if record is not None and record.version == version and record.status == MatchStatus.LIVE:
            await self.refresh_public(record)  # a move since has drawn its own board, and set its own timer

    # --- records and rules ----------------------------------------------------------------------------

    @app_commands.command(name="stats", description="Rating, record, rivals and favourite fighters in this server.")
    @app_commands.describe(member="Whose record (default: yours)")
    async def stats(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        who = member or interaction.user
        await rivalry.stats(self.bot, interaction, who, display_name(who))

    @app_commands.command(name="leaderboard", description="The server's MMA Warriors players by rating.")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        await rivalry.leaderboard(self.bot, interaction)

    @app_commands.command(name="history", description="A member's finished matches here, newest first.")
    @app_commands.describe(member="Whose matches (default: yours)")
    async def history(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        await rivalry.history(self.bot, interaction, (member or interaction.user).id)

    @app_commands.command(name="replay", description="Step through a finished match of this server.")
    @app_commands.describe(match="The match's number (its footer shows it: match #…)")
    async def replay(self, interaction: discord.Interaction, match: app_commands.Range[int, 1, MAX_MATCH_ID]) -> None:
        await rivalry.replay(self.bot, interaction, match)

    @app_commands.command(name="rules", description="The MMA Warriors rules in short.")
    async def rules(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=render.rules_embed(), ephemeral=True)

    # --- components -----------------------------------------------------------------------------------

    async def on_component(self, interaction: discord.Interaction, component: MmaComponent) -> None:
        if isinstance(component, HistoryButton | ReplayButton):
            await rivalry.on_component(self.bot, interaction, component)
            return
        await self.on_click(interaction, component.click())

    async def on_click(self, interaction: discord.Interaction, click: MatchClick) -> None:
        if click.action == PICK:
            await self.on_pick(interaction, click.match_id, click.version, click.card)
            return
        # The buttons that only show something (or ask first) act on the match as it is now, whatever the version.
        version = None if click.action in SHOWING_ACTIONS else click.version
        await self.on_button(interaction, click.match_id, click.action, version, click.card)

    async def on_button(
        self, interaction: discord.Interaction, match_id: int, action: str, version: int | None, card: int | None
    ) -> None:
        record = await self.load(match_id)
        require_here(interaction, "match", record, channel=True)
        message = interaction.message
        if (
            record.status == MatchStatus.LIVE
            and record.message_id is not None
            and message is not None
            and not message.flags.ephemeral
            and message.id < record.message_id
        ):  # an earlier board of a match posted again since (ids grow with time; a newer one is being recorded)
            await interaction.response.edit_message(content=render.moved_text(record), view=None)
            await interaction.followup.send(
                f"Nothing was changed: this match goes on in its newer message, {render.board_link(record)}",
                ephemeral=True,
            )
            return
        if action in ("accept", "decline"):
            await self.answer_challenge(interaction, record, action == "accept", version)
            return
        if action == "again":
            await self.play_again(interaction, record)
            return
        if record.state is None:
            raise UserError("This challenge was never accepted.")
        slot = record.slot_of(interaction.user.id)
        if slot is None:
            raise UserError(
                f"You are not in this match: it is {render.called(record, 0)} against {render.called(record, 1)}."
            )
        if action == "hand":
            await self.show_hand(interaction, record, slot)
        elif action == "concede":
            await self.confirm_concede(interaction, record)
        elif action == "claim":
            await self.claim(interaction, record, slot)
        elif action == "resign":
            await self.move(interaction, record, slot, Action(slot, CONCEDE), version=None, from_hand=True)
        elif action == "play":
            if card is None or not 0 <= card < len(CARDS):
                raise UserError("Choose a card from the list first.")
            chosen = card_action(record.game, slot, card)
            await self.move(interaction, record, slot, chosen, version=version, from_hand=True)
        else:
            await self.move(
                interaction, record, slot, Action(slot, BUTTON_KINDS[action]), version=version, from_hand=False
            )

    async def on_pick(
        self, interaction: discord.Interaction, match_id: int, version: int | None, card: int | None
    ) -> None:
        record = await self.load(match_id)
        require_here(interaction, "match", record, channel=True)
        slot = record.slot_of(interaction.user.id)
        if slot is None or record.state is None:
            raise UserError("This hand belongs to someone else's match.")
        if version != record.version:
            content, embed, view = render.hand_message(record, slot, note=MOVED)
        else:
            content, embed, view = render.hand_message(record, slot, selected=card)
        await interaction.response.edit_message(content=content, embed=embed, view=view)
        self.hands.shown(record.id, slot, interaction)

    async def load(self, match_id: int) -> MatchRecord:
        record = await self.repo.get(match_id)
        if record is None:
            raise UserError("This match no longer exists.")
        return record

    async def show_hand(self, interaction: discord.Interaction, record: MatchRecord, slot: int) -> None:
        content, embed, view = render.hand_message(record, slot)
        if interaction.message is not None and interaction.message.flags.ephemeral:
            await interaction.response.edit_message(content=content, embed=embed, view=view)
        else:
            await interaction.response.send_message(content, embed=embed, view=view, ephemeral=True)
        self.hands.shown(record.id, slot, interaction)

    async def confirm_concede(self, interaction: discord.Interaction, record: MatchRecord) -> None:
        if record.status != "live":
            raise UserError("This match is over.")
        view = discord.ui.View(timeout=None)
        view.add_item(
            match_button(record.id, record.version, "resign", label="Yes, concede", style=discord.ButtonStyle.danger)
        )
        await interaction.response.send_message(
            f"Concede match #{record.id}? Your opponent wins and it counts as a loss.", view=view, ephemeral=True
        )

    # --- moves ----------------------------------------------------------------------------------------

    async def move(
        self,
        interaction: discord.Interaction,
        record: MatchRecord,
        slot: int,
        action: Action,
        *,
        version: int | None,
        from_hand: bool,
    ) -> None:
        await play_turn(self.bot, interaction, CardMove(self, interaction, record.id, version, slot, action, from_hand))

    async def save(self, record: MatchRecord, played: Played) -> MatchRecord:
        feed = [*record.feed, *feed_lines(played.events, render.both_called(record), played.state)][-FEED_KEEP:]
        return await self.repo.save_moves(record, played.state, feed, played.actions, self.clock())

    def explain(self, record: MatchRecord, slot: int, problem: str) -> str:
        state = record.game
        if state.phase != OVER and state.to_move != slot:
            waiting = " to pick a fighter" if state.phase == REPLACE_PHASE else ""
            return f"It is not your turn: waiting for {render.called(record, state.to_move)}{waiting}."
        return problem[0].upper() + problem[1:] + "."

    @staticmethod
    def draw_note(event: Event) -> str:
        if event.kind == "draw_failed":
            return "No card drawn: only fighters are left in your deck and you already hold two."
        discarded: int = event.numbers["discarded"]
        extra = (
            f" Your hand was full, so the oldest card, {CARDS[discarded].name}, was discarded."
            if discarded >= 0
            else ""
        )
        return f"🃏 You drew **{CARDS[event.card].name}**.{extra}"

    def hand_note(self, record: MatchRecord, slot: int, action: Action, events: list[Event]) -> str:
        verb = "Deployed" if action.kind == DEPLOY else "Played"
        note = f"{verb} **{CARDS[action.card].name}**."
        drawn = [e for e in events if e.player == slot and e.kind in ("draw", "draw_failed")]
        if action.kind == PLAY and drawn:
            note += " " + self.draw_note(drawn[0])
        return note

    async def call_next(self, saved: MatchRecord, waited_for: int | None) -> None:
        """Ping the player the match now waits for, when that changed (`waited_for`: whom it waited for before
        the change): a short new message that mentions only them (an edit notifies no one), replacing the
        match's previous ping so the channel stays clean. No pings against the AI. A ping Discord refuses is
        logged; the move stands."""
        waiting = waiting_for(saved)
        if waiting == waited_for and (waiting is None or saved.ping_message_id is not None):
            return
        channel = self.bot.get_partial_messageable(saved.channel_id, guild_id=saved.guild_id)
        try:
            if saved.ping_message_id is not None:
                with contextlib.suppress(discord.NotFound):  # someone deleted it already
                    await channel.get_partial_message(saved.ping_message_id).delete()
            sent = None
            user_id = saved.player_ids[waiting] if waiting is not None else None
            if user_id is not None:
                sent = await channel.send(
                    render.ping_text(saved, user_id),
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)]),
                )
        except discord.HTTPException:
            log.warning("could not ping the next player of match %s", saved.id, exc_info=True)
            return
        await self.repo.set_ping(saved.id, sent.id if sent is not None else None)

    async def refresh_public(self, record: MatchRecord) -> None:
        """Redraw the match message after a move made elsewhere (the hand view); repost it if it is gone."""
        embed, view = self.board(record)
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        # The move is saved and the player has their answer by now: a failure here is logged, not reported as
        # a failed move (the next click on the match redraws it anyway).
        try:
            if record.message_id is not None:
                try:
                    await channel.get_partial_message(record.message_id).edit(embed=embed, view=view)
                    return
                except discord.NotFound:
                    log.info("match %s message %s is gone; posting it again", record.id, record.message_id)
            sent = await channel.send(embed=embed, view=view)
        except discord.HTTPException:
            log.warning("could not redraw match %s in channel %s", record.id, record.channel_id, exc_info=True)
            return
        await self.repo.set_message(record.id, sent.id)

    # --- challenges, claims, rematches ------------------------------------------------------------------

    async def answer_challenge(
        self, interaction: discord.Interaction, record: MatchRecord, accept: bool, version: int | None
    ) -> None:
        challenger, opponent = record.player_ids
        user = interaction.user.id
        if record.status != "pending" or version != record.version:
            raise UserError("This challenge has already been answered.")
        if user != opponent and not (user == challenger and not accept):
            raise UserError(f"Only {render.called(record, 1)} can answer this challenge.")
        now = self.clock()
        lapsed = now - record.last_move_at > IDLE_SECONDS
        status = MatchStatus.EXPIRED if lapsed else MatchStatus.LIVE if accept else MatchStatus.DECLINED
        state, feed = None, []
        if status == MatchStatus.LIVE:
            state, events = await run_engine(self.bot, new_game, record.seed)
            feed = feed_lines(events, render.both_called(record), state)
        try:
            saved = await self.repo.answer_challenge(record, status, now, state=state, feed=feed)
        except StaleUpdate:
            raise UserError("This challenge has already been answered.") from None
        if saved.status == "live":
            embed, view = self.board(saved)
            await interaction.response.edit_message(content=None, embed=embed, view=view)
            await self.call_next(saved, None)  # a challenge waited for no move
            return
        content, embed = render.challenge_message(saved)
        if user == challenger and not lapsed:
            embed.description = f"{render.called(record, 0)} withdrew the challenge."
        await interaction.response.edit_message(content=content, embed=embed, view=None)

    async def claim(self, interaction: discord.Interaction, record: MatchRecord, slot: int) -> None:
        await play_turn(self.bot, interaction, IdleClaim(self, interaction, record.id, None, slot))

    async def play_again(self, interaction: discord.Interaction, record: MatchRecord) -> None:
        slot = record.slot_of(interaction.user.id)
        if slot is None:
            raise UserError(
                "Only the players of this match can start its rematch; `/mma challenge` or `/mma ai` starts your own."
            )
        other = record.player_ids[1 - slot]
        if other is None:  # the AI
            await self.start_ai_match(interaction)
        else:
            await self.start_challenge(interaction, other, record.names[1 - slot], False)


@dataclass(frozen=True)
class Played:
    """What the engine made of a click: the new state, the actions for the move log, what happened."""

    state: GameState
    actions: list[Action]
    events: list[Event]


class MatchMove(TurnMove[MatchRecord, Played]):
    """A click that changes a live match, by one of its players (`slot`)."""

    what = "match"

    def __init__(self, cog: Mma, interaction: discord.Interaction, match_id: int, version: int | None, slot: int):
        super().__init__(match_id, version)
        self.cog, self.interaction, self.slot = cog, interaction, slot

    async def load(self) -> MatchRecord | None:
        return await self.cog.repo.get(self.game_id)

    async def show_stale(self, interaction: discord.Interaction, record: MatchRecord) -> None:
        # The board is behind the stored match (a double click, or a move saved before the board could show it):
        # bring it up to date, even when the match has ended since, then say what happened.
        embed, view = self.cog.board(record)
        await interaction.response.edit_message(embed=embed, view=view)
        await interaction.followup.send(redrawn("match"), ephemeral=True)

    async def save(self, record: MatchRecord, played: Played) -> MatchRecord:
        return await self.cog.save(record, played)

    async def call_next(self, before: MatchRecord, saved: MatchRecord) -> None:
        await self.cog.call_next(saved, waiting_for(before))
        await self.cog.hands.refresh(
            saved.id, lambda s: render.hand_message(saved, s, note=MOVED), skip=self.interaction
        )


class CardMove(MatchMove):
    """A player's action from the board's buttons or from their hand (`from_hand`)."""

    def __init__(
        self,
        cog: Mma,
        interaction: discord.Interaction,
        match_id: int,
        version: int | None,
        slot: int,
        action: Action,
        from_hand: bool,
    ):
        super().__init__(cog, interaction, match_id, version, slot)
        self.action, self.from_hand = action, from_hand

    async def show_stale(self, interaction: discord.Interaction, record: MatchRecord) -> None:
        if not self.from_hand:
            await super().show_stale(interaction, record)
            return
        if await self.made_just_before(record):  # a double click: the first click played it, once
            verb = "Deployed" if self.action.kind == DEPLOY else "Played"
            note = f"{verb} **{CARDS[self.action.card].name}**."
        else:
            self.refuse_unless_live(record)
            note = "⌛ That hand was out of date, so nothing was played. Here it is now."
        content, embed, view = render.hand_message(record, self.slot, note=note)
        await interaction.response.edit_message(content=content, embed=embed, view=view)
        self.cog.hands.shown(record.id, self.slot, interaction)

    async def made_just_before(self, record: MatchRecord) -> bool:
        """Whether the one save after the clicked moment made this very move (a double click): the move log
        ends with it, followed only by the AI's answer. Between members nobody else moves on your turn but by a
        concession, which is logged after it, or an idle claim, which logs nothing and is told apart here."""
        if self.version is None or record.version != self.version + 1 or record.game.reason == IDLE:
            return False
        moves = await self.cog.repo.moves(record.id)
        while moves and record.vs_ai and moves[-1].player != self.slot:
            moves.pop()  # the AI's answer, saved with the move
        return bool(moves) and moves[-1] == self.action

    @staticmethod
    def refuse_unless_live(record: MatchRecord) -> None:
        if record.status != MatchStatus.LIVE:
            raise UserError(
                "This match is over." if record.status == MatchStatus.OVER else "This match is not running."
            )

    def check(self, record: MatchRecord) -> None:
        self.refuse_unless_live(record)
        problem = action_problem(record.game, self.action)
        if problem is not None:
            raise UserError(self.cog.explain(record, self.slot, problem))

    def play(self, record: MatchRecord) -> Played:
        state, actions, events = played_move(record.game, self.action, 1 if record.vs_ai else None)
        return Played(state, actions, events)

    async def show_played(
        self, interaction: discord.Interaction, before: MatchRecord, saved: MatchRecord, played: Played
    ) -> None:
        cog, slot, action, events = self.cog, self.slot, self.action, played.events
        if self.from_hand:
            if action.kind == CONCEDE:
                await interaction.response.edit_message(content="🏳️ You conceded.", embed=None, view=None)
                cog.hands.forget(saved.id, slot)  # that message now says so: nothing to redraw there
            else:
                content, embed, view = render.hand_message(saved, slot, note=cog.hand_note(saved, slot, action, events))
                await interaction.response.edit_message(content=content, embed=embed, view=view)
                cog.hands.shown(saved.id, slot, interaction)
            await cog.refresh_public(saved)
            return
        embed, view = self.cog.board(saved)
        await interaction.response.edit_message(embed=embed, view=view)
        if action.kind == DRAW:
            note = cog.draw_note(events[0])
            if saved.game.phase == REPLACE_PHASE and saved.game.replacing == slot:  # bled out this turn
                note += " Now pick your next fighter from **My hand**."
            await interaction.followup.send(note, ephemeral=True)


class IdleClaim(MatchMove):
    """A player kept waiting by the other member claims the win (`idle_claim_problem`)."""

    def check(self, record: MatchRecord) -> None:
        if record.status != MatchStatus.LIVE:
            raise UserError("This match is over.")
        problem = idle_claim_problem(record.game, self.slot, against_ai=record.vs_ai)
        if problem is not None:
            raise UserError(problem)
        left = idle_minutes_left(self.cog.clock() - record.last_move_at)
        if left:
            raise UserError(
                f"{render.called(record, 1 - self.slot)} still has {plural(left, 'minute')} to move "
                f"before you can claim the win."
            )

    def play(self, record: MatchRecord) -> Played:
        state, events = claimed_idle(record.game, self.slot)
        return Played(state, [], events)

    async def show_played(
        self, interaction: discord.Interaction, before: MatchRecord, saved: MatchRecord, played: Played
    ) -> None:
        embed, view = self.cog.board(saved)
        await interaction.response.edit_message(embed=embed, view=view)
