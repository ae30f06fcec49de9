"""A party fight's turns: the member's clicks (`PartyMove`, through the shared turn driver), the turn clock (one
timer per party, set again from storage at start-up, so a turn that ran out while the bot was down runs out when
it comes back), members who left the server removed at their turn, and the call of the member whose turn begins.

Every action is stored (a versioned save) before the message changes; a lost race is shown as the fight is."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from cogs.andor.party_render import party_embed, party_view, ping_text
from cogs.common import UserError, mention
from cogs.common.bot import still_in_server
from cogs.common.components import redrawn, require_here
from cogs.common.executor import run_engine
from cogs.common.turns import TurnMove, play_turn
from rules.andor.party import ATTACK, END_TURN, FLEE, POTION, TIMEOUT, PartyAction, PartyState, aim, gone, legal_actions
from rules.andor.party import applied as party_applied
from rules.andor.party import replay_rng as party_rng
from storage.andor_party import OPEN_PARTY, Party, PartyStatus
from storage.guild_settings import GuildSettingsRepository
from storage.versioned import StaleUpdate

if TYPE_CHECKING:
    from cogs.andor.desk import AndorDesk

log = logging.getLogger("arena.andor")

SIGNUP_SECONDS = 600  # a sign-up with fewer than 2 members lapses after this (RULINGS 9)
CLICK_ACTIONS: dict[str, PartyAction] = {"attack": ATTACK, "potion": POTION, "flee": FLEE, "end": END_TURN}


def arm(cog: AndorDesk, party: Party) -> None:
    """Set the party's clock for its deadline (at once when it passed, as after a restart); none once it ended."""
    if party.status in OPEN_PARTY:
        cog.party_clock.set(party.id, party.deadline - cog.clock(), lambda: run_out(cog, party.id, party.version))
    else:
        cog.party_clock.cancel(party.id)


async def turn_seconds(cog: AndorDesk, guild: int) -> int:
    return (await GuildSettingsRepository(cog.bot.db).get(guild)).party_turn_seconds


def new_turn(before: PartyState, after: PartyState) -> bool:
    """Whether another turn began (another member, or the same one in a new round)."""
    return after.phase == "playing" and (after.turn, after.round) != (before.turn, before.round)


async def saved_action(cog: AndorDesk, party: Party, action: PartyAction) -> Party:
    """Play the bot's or a member's action on the party as loaded and save it (StaleUpdate when another came
    first); a turn that begins gets the server's full turn time."""
    state = party.state
    if state is None:
        raise UserError("This party fight has not started.")
    played = await run_engine(cog.bot, lambda: party_applied(state, action, party_rng(state))[0])
    deadline = party.deadline
    if new_turn(state, played):
        deadline = cog.clock() + await turn_seconds(cog, party.guild_id)
    return await cog.parties.save(party, played, deadline)


async def run_out(cog: AndorDesk, party_id: int, version: int) -> None:
    """The party's clock ran out: a sign-up short of members lapses; the turn under way ends as End turn (the
    third in a row removes the member). Anything saved since (a newer version) has set the clock again."""
    party = await cog.parties.party(party_id)
    if party is None or party.version != version or party.status not in OPEN_PARTY:
        return
    if party.status == PartyStatus.SIGNUP:
        if len(party.members) < 2:
            with contextlib.suppress(StaleUpdate):
                await redraw(cog, await cog.parties.lapse(party))
        return
    try:
        saved = await saved_action(cog, party, TIMEOUT)
    except StaleUpdate:
        return
    await after_change(cog, party, saved)


async def after_change(cog: AndorDesk, before: Party, saved: Party, *, shown: bool = False) -> None:
    """After a saved action: a member who left the server is removed when their turn begins; then the message is
    redrawn (unless the click's answer `shown` it as saved), the member whose turn begins is called, and the clock
    set."""
    first = before
    while saved.live and saved.state is not None and before.state is not None and new_turn(before.state, saved.state):
        current = saved.state.current
        if await still_in_server(cog.bot, saved.guild_id, current.user_id):
            break
        try:
            before, saved = saved, await saved_action(cog, saved, gone(saved.state.turn))
        except StaleUpdate:
            return
    if not shown or before is not first:
        await redraw(cog, saved)
    if saved.live and saved.state is not None and (first.state is None or new_turn(first.state, saved.state)):
        await call_member(cog, saved, saved.state)
    arm(cog, saved)


async def redraw(cog: AndorDesk, party: Party) -> None:
    if party.message_id is None:
        return
    channel = cog.bot.get_partial_messageable(party.channel_id, guild_id=party.guild_id)
    try:
        await channel.get_partial_message(party.message_id).edit(embed=party_embed(party), view=party_view(party))
    except discord.HTTPException as refused:
        log.warning("could not redraw party %s: %s", party.id, refused.text or refused.status)


async def call_member(cog: AndorDesk, party: Party, state: PartyState) -> None:
    """A new message that mentions only the member whose turn begins, replacing the party's previous call."""
    channel = cog.bot.get_partial_messageable(party.channel_id, guild_id=party.guild_id)
    user_id = state.current.user_id
    try:
        if party.ping_message_id is not None:
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(party.ping_message_id).delete()
        sent = await channel.send(
            ping_text(party, state), allowed_mentions=discord.AllowedMentions(users=[discord.Object(user_id)])
        )
    except discord.HTTPException as refused:
        log.warning("could not call the next member of party %s: %s", party.id, refused.text or refused.status)
        return
    await cog.parties.set_ping(party.id, sent.id)


async def click(
    cog: AndorDesk, interaction: discord.Interaction, party_id: int, version: int, action: str, value: str | None
) -> None:
    await play_turn(cog.bot, interaction, PartyMove(cog, party_id, version, action, value))


class PartyMove(TurnMove[Party, PartyState]):
    """A click on the fight's buttons or its target select, by the member whose turn it is."""

    what = "party fight"

    def __init__(self, cog: AndorDesk, party_id: int, version: int, action: str, value: str | None):
        super().__init__(party_id, version)
        self.cog, self.action, self.value = cog, action, value
        self.saved_before: Party | None = None

    async def load(self) -> Party | None:
        return await self.cog.parties.party(self.game_id)

    def check_place(self, interaction: discord.Interaction, party: Party) -> None:
        require_here(interaction, "party fight", party, channel=True)
        state = party.state
        if not party.live or state is None:
            return  # shown as it is (is_stale)
        if interaction.user.id != state.current.user_id:
            whose = f"It is {mention(state.current.user_id)}'s turn"
            if party.member(interaction.user.id) is None:
                raise UserError(f"{whose}, and you are not in this party fight; open your own with `/andor party`.")
            raise UserError(f"{whose}; wait for yours.")

    def is_stale(self, party: Party) -> bool:
        return super().is_stale(party) or not party.live

    async def show_stale(self, interaction: discord.Interaction, party: Party) -> None:
        await interaction.response.edit_message(embed=party_embed(party), view=party_view(party))
        await interaction.followup.send(redrawn("party fight"), ephemeral=True)

    def chosen(self, state: PartyState) -> PartyAction:
        if self.action == "target":
            return aim(int(self.value) if self.value is not None and self.value.isdecimal() else -1)
        return CLICK_ACTIONS[self.action]

    def check(self, party: Party) -> None:
        state = party.state
        if state is not None and self.chosen(state) not in legal_actions(state, state.turn):
            if self.action == "target":
                raise UserError("That monster cannot be attacked any more.")
            raise UserError(f"You cannot do that now ({state.ap_left} AP left).")

    def play(self, party: Party) -> PartyState:
        state = party.state
        if state is None:  # a live party has a state
            raise UserError("This party fight has not started.")
        return party_applied(state, self.chosen(state), party_rng(state))[0]

    async def save(self, party: Party, played: PartyState) -> Party:
        state = party.state
        deadline = party.deadline
        if state is not None and new_turn(state, played):
            deadline = self.cog.clock() + await turn_seconds(self.cog, party.guild_id)
        return await self.cog.parties.save(party, played, deadline)

    async def show_played(
        self, interaction: discord.Interaction, before: Party, saved: Party, played: PartyState
    ) -> None:
        await interaction.response.edit_message(embed=party_embed(saved), view=party_view(saved))

    async def call_next(self, before: Party, saved: Party) -> None:
        await after_change(self.cog, before, saved, shown=True)
