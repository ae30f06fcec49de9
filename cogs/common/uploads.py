"""The command half of a roster that GMs add to (bossfight bosses, andor monsters): upload, remove, lookup and
autocomplete, worded the same in every game. Names are keyed as `rules.roster` says."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

import discord
from discord import app_commands

from arena.text import EmbedLimits, PlainLimits, markdown_safe, plain_text
from arena.tree import UserError
from cogs.common.attachments import read_attachments
from cogs.common.bot import guild_id
from cogs.common.embeds import COLOR_VICTORY, fit_embed, lines_within
from cogs.common.executor import run_engine
from rules.roster import N, Named, NotInRoster, find, merge, name_key
from rules.text import plural
from storage.protocol import Storage
from storage.uploads import GuildUploads, RosterFull, Stored

if TYPE_CHECKING:
    from arena.bot import ArenaBot

NAME_LIMIT = 100  # an upload's name quoted in a message: as much as its autocomplete choice shows
MAX_CHOICES = 25


class RosterEntry(Named, Stored, Protocol):
    """A boss, a monster: named, and stored as JSON."""


E = TypeVar("E", bound=RosterEntry)


@dataclass(frozen=True)
class RosterWords:
    """How a game names its roster in replies."""

    kind: str  # "boss"
    kinds: str  # "bosses"
    roster: str  # "roster"
    list_command: str  # "/bossfight roster"
    remove_command: str  # "/bossfight remove"


class UploadedRoster(Generic[E]):
    """A game's built-in entries with each guild's uploads on top, and the replies around them."""

    def __init__(
        self,
        bot: ArenaBot,
        db: Storage,
        *,
        load: Callable[[str], E],
        builtin: Callable[[], Sequence[E]],
        parse: Callable[[str, str], list[E]],
        limit: int,
        words: RosterWords,
        describe: Callable[[E], str],
    ):
        self.bot = bot
        self.uploads: GuildUploads[E] = GuildUploads(db, words.kind, load)
        self.builtin, self.parse, self.limit, self.words, self.describe = builtin, parse, limit, words, describe

    async def uploaded(self, guild_id: int) -> list[E]:
        return await self.uploads.all(guild_id)

    async def book(self, guild_id: int, *, on_top: Sequence[E] = ()) -> dict[str, E]:
        """The guild's roster; `on_top` entries replace its entries of the same name (a boss as it was spawned)."""
        return merge(self.builtin(), [*await self.uploads.all(guild_id), *on_top])

    async def find(self, guild_id: int, name: str, *, on_top: Sequence[E] = ()) -> E:
        """The entry a member named in the roster `book` gives, or a refusal with the closest names."""
        refusal = f"There is no {self.words.kind} called '{{}}' in this server's {self.words.roster}."
        return self._found(
            await self.book(guild_id, on_top=on_top), name, refusal, f" `{self.words.list_command}` lists them."
        )

    def _found(self, book: dict[str, E], name: str, refusal: str, tail: str = "") -> E:
        """`find` in `book`, or a UserError: `refusal` (its {} the name), the closest names, `tail`."""
        try:
            return find(book, name, kind=self.words.kind)
        except NotInRoster as missing:
            hint = (
                f" Did you mean {', '.join(markdown_safe(s) for s in missing.suggestions)}?"
                if missing.suggestions
                else ""
            )
            raise UserError(f"{refusal.format(markdown_safe(name, NAME_LIMIT))}{hint}{tail}") from None

    async def uploaded_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Autocomplete for a removal: the server's own uploads (built-in entries cannot be removed)."""
        return choices(await self.uploaded(guild_id(interaction)), current, lambda e: e.name)

    async def upload(self, interaction: discord.Interaction, attachment: discord.Attachment) -> None:
        """Defer, read, parse and save an uploaded file, and show what was saved."""
        (text,) = await read_attachments(interaction, attachment, ephemeral=True)
        parsed = await run_engine(self.bot, self.parse, text, attachment.filename)
        try:
            total = await self.uploads.save(
                guild_id(interaction), [(name_key(e.name), e) for e in parsed], interaction.user.id, limit=self.limit
            )
        except RosterFull as full:
            raise UserError(
                f"With {markdown_safe(attachment.filename)} this server would have {full.total} uploaded "
                f"{self.words.kinds}; the limit is {full.limit}. Nothing was saved; remove some with "
                f"`{self.words.remove_command}` first."
            ) from None
        embed = discord.Embed(
            title=f"{self.words.roster.capitalize()} updated: {plural(len(parsed), self.words.kind, self.words.kinds)} "
            f"saved ({total} of this server's own)",
            description=lines_within([self.describe(e) for e in parsed], EmbedLimits.DESCRIPTION),
            color=COLOR_VICTORY,
        )
        await interaction.followup.send(embed=fit_embed(embed), ephemeral=True)

    async def remove(self, interaction: discord.Interaction, name: str, *, note: str = "") -> None:
        """Remove an upload, found by name as `find` finds entries, and say so, naming the built-in entry it
        brings back."""
        refusal = f"This server has no uploaded {self.words.kind} called '{{}}'; built-in {self.words.kinds} stay."
        entry = self._found(merge((), await self.uploaded(guild_id(interaction))), name, refusal)
        shown = markdown_safe(entry.name, NAME_LIMIT)
        if not await self.uploads.remove(guild_id(interaction), name_key(entry.name)):  # removed meanwhile
            raise UserError(refusal.format(shown))
        restored = merge(self.builtin(), ()).get(name_key(entry.name))
        back = f" The built-in {markdown_safe(restored.name)} is back in the {self.words.roster}." if restored else ""
        await interaction.response.send_message(f"✅ Removed {shown}.{note}{back}", ephemeral=True)


def choices(entries: Iterable[N], current: str, label: Callable[[N], str]) -> list[app_commands.Choice[str]]:
    """Autocomplete: the entries whose name contains what was typed (any case and spacing), at most 25."""
    wanted = name_key(current)
    found = (e for e in entries if wanted in name_key(e.name))
    return [app_commands.Choice(name=plain_text(label(e), PlainLimits.CHOICE_NAME), value=e.name) for e in found][
        :MAX_CHOICES
    ]
