"""The route of a click on a match's messages: a table from the click's action to its handler. A move goes
through the one driver (`play_turn`); a click that only shows something loads the match the same way
(`loaded_for`: place, retired board) and shows it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import discord

from cogs.common import UserError
from cogs.common.turns import loaded_for, play_turn
from cogs.mma.items import PICK, PLAY, MatchClick, match_button
from cogs.mma.matches import challenges, hand_render, notes
from cogs.mma.matches.challenges import ChallengeAnswer
from cogs.mma.matches.moves import CardMove, IdleClaim, MatchMessageClick, PlayerClick
from rules.mma.cards import CARDS
from rules.mma.engine import card_action
from rules.mma.state import CONCEDE, DRAW, END_TURN, SKIP_DRAW, Action, GameState
from storage.mma import MatchStatus

if TYPE_CHECKING:
    from cogs.mma.matches.desk import MatchDesk

Handler = Callable[["MatchDesk", discord.Interaction, MatchClick], Awaitable[None]]


async def on_click(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
    await HANDLERS[click.action](desk, interaction, click)


# --- clicks that show something (they act on the match as it is now, whatever the version) ----------------


async def show_hand(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
    shown = PlayerClick(desk, interaction, click.match_id, None)
    if (match := await loaded_for(interaction, shown)) is None:
        return
    slot = shown.slot(match)
    content, embed, view = hand_render.hand_message(match, slot)
    if interaction.message is not None and interaction.message.flags.ephemeral:
        await interaction.response.edit_message(content=content, embed=embed, view=view)
    else:
        await interaction.response.send_message(content, embed=embed, view=view, ephemeral=True)
    desk.hands.shown(match.id, slot, interaction)


async def pick_card(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
    """A card chosen in the hand view: shown with its preview, or the hand as it is now if the match moved on."""
    picked = MatchMessageClick(desk, interaction, click.match_id, click.version)
    if (match := await loaded_for(interaction, picked)) is None:
        return
    slot = match.slot_of(interaction.user.id)
    if slot is None or match.state is None:
        raise UserError("This hand belongs to someone else's match.")
    if click.version != match.version:
        content, embed, view = hand_render.hand_message(match, slot, note=notes.MOVED)
    else:
        content, embed, view = hand_render.hand_message(match, slot, selected=click.card)
    await interaction.response.edit_message(content=content, embed=embed, view=view)
    desk.hands.shown(match.id, slot, interaction)


async def ask_concede(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
    if (match := await loaded_for(interaction, PlayerClick(desk, interaction, click.match_id, None))) is None:
        return
    if match.status != MatchStatus.LIVE:
        raise UserError("This match is over.")
    view = discord.ui.View(timeout=None)
    view.add_item(
        match_button(match.id, match.version, "resign", label="Yes, concede", style=discord.ButtonStyle.danger)
    )
    await interaction.response.send_message(
        f"Concede match #{match.id}? Your opponent wins and it counts as a loss.", view=view, ephemeral=True
    )


async def start_rematch(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
    if (match := await loaded_for(interaction, MatchMessageClick(desk, interaction, click.match_id, None))) is None:
        return
    await challenges.start_rematch(desk, interaction, match)


# --- moves -------------------------------------------------------------------------------------------------


async def answer_challenge(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
    answer = ChallengeAnswer(desk, interaction, click.match_id, click.version, accept=click.action == "accept")
    await play_turn(desk.bot, interaction, answer)


async def claim_win(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
    await play_turn(desk.bot, interaction, IdleClaim(desk, interaction, click.match_id, None))


def concede(state: GameState, slot: int) -> Action:
    return Action(slot, CONCEDE)


async def resign(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
    """The concession confirmed: a move on the match as it is now, played again on a save that came first."""
    await play_turn(desk.bot, interaction, CardMove(desk, interaction, click.match_id, None, concede, from_hand=True))


async def play_card(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
    card = click.card
    if card is None or not 0 <= card < len(CARDS):
        raise UserError("Choose a card from the list first.")

    def chosen(state: GameState, slot: int) -> Action:
        return card_action(state, slot, card)

    move = CardMove(desk, interaction, click.match_id, click.version, chosen, from_hand=True)
    await play_turn(desk.bot, interaction, move)


def board_move(kind: str) -> Handler:
    """The handler of a board button that plays `kind` (draw, skip the draw, end the turn)."""

    def chosen(state: GameState, slot: int) -> Action:
        return Action(slot, kind)

    async def play(desk: MatchDesk, interaction: discord.Interaction, click: MatchClick) -> None:
        move = CardMove(desk, interaction, click.match_id, click.version, chosen, from_hand=False)
        await play_turn(desk.bot, interaction, move)

    return play


HANDLERS: dict[str, Handler] = {
    "hand": show_hand,
    PICK: pick_card,
    "concede": ask_concede,
    "again": start_rematch,
    "accept": answer_challenge,
    "decline": answer_challenge,
    "claim": claim_win,
    "resign": resign,
    PLAY: play_card,
    "draw": board_move(DRAW),
    "skip": board_move(SKIP_DRAW),
    "end": board_move(END_TURN),
}
