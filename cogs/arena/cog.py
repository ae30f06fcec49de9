"""/arena: one member across the games of this server (profile), and what Arena keeps about them there: a copy
(my-data) and its erasure (forget-me)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from cogs.arena.items import KEEP, ForgetButton
from cogs.arena.render import (
    MY_DATA_FILE,
    erased_embed,
    forget_embed,
    forget_view,
    live_games_text,
    my_data_summary,
    profile_embed,
)
from cogs.common import UserError, text_file
from cogs.common.bot import guild_id
from cogs.common.cog import GameCog
from cogs.common.executor import run_engine
from storage.member_data import ChangedSinceAsked, LiveGames, MemberDataRepository
from storage.profile import ProfileRepository
from storage.web_pages import WebPagesRepository

if TYPE_CHECKING:
    from arena.bot import ArenaBot


@app_commands.guild_only()
class Arena(
    GameCog[ForgetButton],
    name="Arena",
    group_name="arena",
    group_description="Arena across its games: a member's profile in this server, your data here.",
):
    components = (ForgetButton,)

    def __init__(self, bot: ArenaBot):
        super().__init__(bot)
        self.profiles = ProfileRepository(bot.db)
        self.member_data = MemberDataRepository(bot.db)
        self.web_pages = WebPagesRepository(bot.db)

    @app_commands.command(
        name="profile",
        description="A member across the games here: MMA, raids, Andor's Trail and the deck optimizer.",
    )
    @app_commands.describe(member="Whose profile (default: yours); a member who left can be given by id")
    async def profile(
        self, interaction: discord.Interaction, member: discord.Member | discord.User | None = None
    ) -> None:
        """`member` may have left the server: Discord then resolves them as a user, and what is stored shows."""
        who = member or interaction.user
        profile = await self.profiles.profile(guild_id(interaction), who.id, partial(run_engine, self.bot))
        await interaction.response.send_message(embed=profile_embed(who.display_name, profile))

    @app_commands.command(name="my-data", description="Everything Arena keeps about you in this server, as a file.")
    async def my_data(self, interaction: discord.Interaction) -> None:
        data = await self.member_data.export(guild_id(interaction), interaction.user.id)
        if data.empty:
            await interaction.response.send_message(my_data_summary(data), ephemeral=True)
            return
        file = text_file(MY_DATA_FILE, data.to_json())
        await interaction.response.send_message(my_data_summary(data), file=file, ephemeral=True)

    @app_commands.command(
        name="forget-me", description="Erase what Arena keeps about you in this server (it asks you first)."
    )
    async def forget_me(self, interaction: discord.Interaction) -> None:
        here, me = guild_id(interaction), interaction.user.id
        live = await self.member_data.live_games(here, me)
        if live:
            raise UserError(live_games_text(live))
        data = await self.member_data.export(here, me)
        if data.empty:
            raise UserError("Arena keeps nothing about you in this server: there is nothing to erase.")
        view = forget_view(me, data.fingerprint)
        await interaction.response.send_message(embed=forget_embed(data), view=view, ephemeral=True)

    @app_commands.command(
        name="web-pages", description="Show or hide your own page, and your name, on this server's web pages."
    )
    @app_commands.describe(visible="False: no page of yours, and your name on no one else's; True: shown again")
    async def web_pages_visible(self, interaction: discord.Interaction, visible: bool) -> None:
        await self.web_pages.set_hidden(guild_id(interaction), interaction.user.id, not visible)
        if visible:
            text = "✅ Your page and your name are shown on this server's web pages (while the server has them on)."
        else:
            text = (
                "✅ Your page is hidden, and your name shows on no page of this server: your matches read "
                '"a hidden member". `/arena web-pages visible:True` shows them again.'
            )
        await interaction.response.send_message(text, ephemeral=True)

    async def on_component(self, interaction: discord.Interaction, component: ForgetButton) -> None:
        if interaction.user.id != component.numeric_id:
            raise UserError("This confirmation is someone else's, so nothing was changed: `/arena forget-me` is yours.")
        if component.action == KEEP:
            await interaction.response.edit_message(
                content="Nothing was erased: Arena keeps your data here as it was.", embed=None, view=None
            )
            return
        try:
            erased = await self.member_data.forget(guild_id(interaction), interaction.user.id, component.version)
        except LiveGames as live:
            raise UserError(live_games_text(live)) from None
        except ChangedSinceAsked as changed:
            if changed.now.empty:
                raise UserError("Arena keeps nothing about you in this server now, so nothing was changed.") from None
            raise UserError(
                "Your data here changed since this confirmation was shown, so nothing was erased: run "
                "`/arena forget-me` again to see it as it is."
            ) from None
        await interaction.response.edit_message(content=None, embed=erased_embed(erased), view=None)
