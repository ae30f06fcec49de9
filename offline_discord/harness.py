"""Drive the real bot offline: real Interaction payloads through discord.py's own dispatch, every reply
recorded, attachments served from memory, a real SQLite file.

The harness builds the payloads a member's command, click or typing would send, hands them to discord.py as
the gateway does, and waits for the bot to settle. The fake Discord (`offline_discord.fake_discord`) answers and
records the bot's requests, refusing what Discord's limits (`offline_discord.discord_limits`) refuse. A violation
fails the test when the bot settles, and so does an interaction the bot never answered (Discord would show
"This interaction failed").
"""

from __future__ import annotations

import asyncio
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, cast

import discord
from discord import app_commands
from discord.webhook.async_ import async_context

from arena.bot import ArenaBot, create_bot
from arena.settings import Settings
from offline_discord.fake_discord import (
    APPLICATION_ID,
    BOT_USER,
    CHANNEL_ID,
    GUILD_ID,
    OTHER_GUILD_CHANNEL_ID,
    OTHER_GUILD_ID,
    TIMESTAMP,
    Channel,
    FakeDiscord,
    FakeGateway,
    Message,
    next_id,
    user_payload,
)

# What tests import from here, though the fake Discord defines it: one import line for a test module.
__all__ = [
    "CHANNEL_ID",
    "GUILD_ID",
    "MANAGE_GUILD",
    "OTHER_GUILD_CHANNEL_ID",
    "OTHER_GUILD_ID",
    "PLAYER",
    "SERVER_NAME",
    "FakeDiscord",
    "FakeGateway",
    "Harness",
    "HeldCall",
    "Message",
    "User",
    "make_settings",
    "start_bot",
]

MANAGE_GUILD = discord.Permissions(manage_guild=True, send_messages=True, attach_files=True, embed_links=True)
PLAYER = discord.Permissions(send_messages=True, attach_files=True, embed_links=True)
SETTLE_LIMIT = 30.0  # seconds: a hung handler fails its test instead of hanging the suite
HOLD_LIMIT = 10.0  # seconds a HeldCall waits for its release before it fails
SERVER_NAME = "Arena test server"  # the name GUILD_CREATE gives a server unless a test names it


def role_payload(role_id: int, name: str) -> dict:
    return {
        "id": str(role_id),
        "name": name,
        "permissions": "0",
        "position": 1,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
    }


def resolved_channel(channel: Channel, member: User) -> dict:
    """A channel option's channel in an interaction's `data.resolved.channels`, as Discord sends it: a partial
    channel with the invoking member's permissions in it (the harness gives a member one set everywhere), and a
    thread's own fields besides."""
    full = channel.payload()
    kept = ("id", "name", "type", "guild_id", "parent_id")
    if channel.is_thread:
        kept += ("thread_metadata", "owner_id", "message_count", "member_count")
    return {key: full[key] for key in kept} | {"permissions": str(member.permissions.value)}


@dataclass
class User:
    id: int
    name: str
    permissions: discord.Permissions = PLAYER
    role_ids: tuple[int, ...] = ()
    bot: bool = False  # another application's bot user, as a member option can name one
    left: bool = False  # left the server: a member option resolves them as a user only

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


class HeldCall:
    """A function of a module (an engine call a cog makes) held at its start until `release()`: slow work made
    to order, so a test can act while it runs. Installed with pytest's monkeypatch, so it is undone after.

    A test releases every call it holds, in a `finally`. One still held when the test ends fails it
    (`check_all_released`, run after every cog test by `tests/cogs/conftest.py`), and a call held longer than
    HOLD_LIMIT raises instead of going on late, so a forgotten `release()` never passes slowly."""

    live: ClassVar[list[HeldCall]] = []  # made during the running test

    def __init__(self, monkeypatch: Any, owner: object, name: str):
        self.original = getattr(owner, name)
        self.name = f"{getattr(owner, '__name__', type(owner).__name__)}.{name}"
        self._entered = threading.Semaphore(0)
        self._released = threading.Event()

        def held(*args: Any, **kwargs: Any) -> Any:
            self._entered.release()
            if not self._released.wait(timeout=HOLD_LIMIT):
                raise AssertionError(f"{self.name} was held {HOLD_LIMIT} s and never released")
            return self.original(*args, **kwargs)

        monkeypatch.setattr(owner, name, held)
        HeldCall.live.append(self)

    async def entered(self, times: int = 1) -> None:
        """Wait (off the event loop) until `times` calls are being held."""
        for _ in range(times):
            assert await asyncio.to_thread(self._entered.acquire, timeout=10), "the held call never came"

    def release(self) -> None:
        self._released.set()

    @classmethod
    def check_all_released(cls) -> None:
        """Fail if the test that just ended left a call held; release it first, so its thread ends now."""
        live, cls.live = cls.live, []
        forgotten = [held for held in live if not held._released.is_set()]
        for held in forgotten:
            held.release()
        if forgotten:
            names = ", ".join(held.name for held in forgotten)
            raise AssertionError(f"the test never released {names}: call release() in a finally")


class Harness:
    """A bot on a real SQLite file, and the means to use it as members of one guild would."""

    def __init__(self, bot: ArenaBot, fake: FakeDiscord, settings: Settings):
        self.bot = bot
        self.fake = fake
        self.settings = settings
        self.gm = User(1200000000000000001, "GameMaster", MANAGE_GUILD)
        self.alice = User(1200000000000000002, "Alice")
        self.bob = User(1200000000000000003, "Bob")
        self._awaiting_answer: list[str] = []  # tokens of dispatched interactions, checked when the bot settles
        self.last_token = ""

    def cog_module(self, cog_name: str) -> Any:
        """The module a cog's commands call their engines through (what a test holds or replaces)."""
        return sys.modules[type(self.bot.get_cog(cog_name)).__module__]

    async def restart(self) -> Harness:
        """A new bot on the same SQLite file and the same Discord, as after a restart of the process."""
        await self.bot.close()
        self.bot = await start_bot(self.settings, self.fake)
        return self

    # --- what was posted ---------------------------------------------------------------------------------

    @property
    def messages(self) -> list[Message]:
        return list(self.fake.messages.values())

    def add_role(self, role_id: int, name: str) -> None:
        guild = self.bot._connection._get_or_create_unavailable_guild(GUILD_ID)
        self.bot._connection._add_guild(guild)  # as the gateway's GUILD_CREATE would
        guild._add_role(
            discord.Role(guild=guild, state=self.bot._connection, data=cast(Any, role_payload(role_id, name)))
        )

    # --- the gateway: servers and channels that come and go --------------------------------------------

    def guild_create(
        self, guild_id: int = GUILD_ID, *, unavailable: bool | None = False, name: str = SERVER_NAME
    ) -> discord.Guild:
        """GUILD_CREATE, as Discord sends it when the bot connects (`unavailable=False`: a server it was in) or
        is added to a server (`unavailable=None`): the server with its channels and active threads as the
        fake Discord holds them, and the bot among its members."""
        channels = [c for c in self.fake.channels.values() if c.guild_id == guild_id]
        data: dict[str, Any] = {
            **self._guild_payload(guild_id, name),
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [c.payload() for c in channels if c.is_thread and not c.archived],
            "members": [
                {"user": BOT_USER, "roles": [], "joined_at": TIMESTAMP, "deaf": False, "mute": False, "flags": 0}
            ],
            "member_count": 3,
            "large": False,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "joined_at": TIMESTAMP,
        }
        if unavailable is not None:
            data["unavailable"] = unavailable
        self.bot._connection.parse_guild_create(cast(Any, data))
        guild = self.bot.get_guild(guild_id)
        assert guild is not None
        return guild

    def guild_update(self, guild_id: int = GUILD_ID, *, name: str) -> None:
        """GUILD_UPDATE: the server's owner changed its settings (here its name); Discord sends the whole server
        but for its channels and members."""
        self.bot._connection.parse_guild_update(cast(Any, self._guild_payload(guild_id, name)))

    def _guild_payload(self, guild_id: int, name: str) -> dict[str, Any]:
        return {
            "id": str(guild_id),
            "name": name,
            "owner_id": str(self.gm.id),
            "roles": [
                {
                    "id": str(guild_id),
                    "name": "@everyone",
                    "permissions": str(self.fake.everyone_of(guild_id).value),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                },
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
        }

    def delete_channel(self, channel_id: int) -> None:
        """A channel (or thread) deleted by the server's staff: gone from the fake Discord (a request about it
        is answered 404), and CHANNEL_DELETE (THREAD_DELETE) dispatched to the bot."""
        channel = self.fake.channels.pop(channel_id)
        if self.bot.get_guild(channel.guild_id) is None:
            self.guild_create(channel.guild_id)
        if channel.is_thread:
            data = {
                "id": str(channel.id),
                "guild_id": str(channel.guild_id),
                "parent_id": str(channel.parent_id),
                "type": channel.type,
            }
            self.bot._connection.parse_thread_delete(cast(Any, data))
        else:
            self.bot._connection.parse_channel_delete(cast(Any, channel.payload()))

    def guild_delete(self, guild_id: int = GUILD_ID, *, unavailable: bool) -> None:
        """GUILD_DELETE: the server is out of reach for a while (`unavailable=True`: an outage on Discord's
        side), or the bot was removed from it (`unavailable=False`)."""
        if self.bot.get_guild(guild_id) is None:
            self.guild_create(guild_id)
        data: dict[str, Any] = {"id": str(guild_id)}
        if unavailable:
            data["unavailable"] = True
        self.bot._connection.parse_guild_delete(cast(Any, data))

    # --- payloads ----------------------------------------------------------------------------------------

    def _base_payload(
        self, kind: int, user: User, data: dict, channel_id: int = CHANNEL_ID, guild_id: int = GUILD_ID
    ) -> dict:
        interaction_id = next_id()
        channel = self.fake.channel(channel_id, guild_id)
        self.fake.channel_of_token[f"token-{interaction_id}"] = channel_id
        return {
            "id": str(interaction_id),
            "application_id": str(APPLICATION_ID),
            "type": kind,
            "token": f"token-{interaction_id}",
            "version": 1,
            "attachment_size_limit": 25 * 1024 * 1024,
            "data": data,
            "guild_id": str(guild_id),
            "channel_id": str(channel_id),
            "channel": channel.payload(),
            "member": {
                "user": user_payload(user.id, user.name, bot=user.bot),
                "roles": [str(r) for r in user.role_ids],
                "joined_at": TIMESTAMP,
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(user.permissions.value),
            },
            "app_permissions": str(self.fake.bot_permissions(channel_id).value),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
        }

    def _command_options(
        self, path: str, options: dict[str, Any], user: User, guild_id: int
    ) -> tuple[dict, app_commands.Command]:
        resolved: dict[str, dict] = {}
        names = path.split()
        node = self.bot.tree.get_command(names[0])
        if node is None:
            raise AssertionError(f"no command /{names[0]}")
        chain = [node]
        for name in names[1:]:
            if not isinstance(node, app_commands.Group) or (node := node.get_command(name)) is None:
                raise AssertionError(f"no command /{path}")
            chain.append(node)
        command = chain[-1]
        if not isinstance(command, app_commands.Command):
            raise AssertionError(f"/{path} is a group, not a command")
        leaf_options = []
        for name, value in options.items():
            param = command._params.get(name)
            if param is None:
                raise AssertionError(f"/{path} has no option {name!r}")
            kind = param.type
            if kind is discord.AppCommandOptionType.attachment:
                file_name, data = value
                attachment_id = next_id()
                url = self.fake.cdn_url(attachment_id, file_name)
                self.fake.cdn[url] = data
                resolved.setdefault("attachments", {})[str(attachment_id)] = {
                    "id": str(attachment_id),
                    "filename": file_name,
                    "size": len(data),
                    "url": url,
                    "proxy_url": url,
                    "content_type": "text/csv",
                }
                value = str(attachment_id)
            elif kind is discord.AppCommandOptionType.role:
                role_id, role_name = value  # a role option takes (id, name)
                resolved.setdefault("roles", {})[str(role_id)] = role_payload(role_id, role_name)
                value = str(role_id)
            elif kind in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
                member: User = value
                resolved.setdefault("users", {})[str(member.id)] = user_payload(member.id, member.name, bot=member.bot)
                if not member.left:  # a member who left resolves as a user without member data
                    resolved.setdefault("members", {})[str(member.id)] = {
                        "roles": [],
                        "joined_at": TIMESTAMP,
                        "deaf": False,
                        "mute": False,
                        "flags": 0,
                        "permissions": str(member.permissions.value),
                    }
                value = str(member.id)
            elif kind is discord.AppCommandOptionType.channel:
                channel = self._known_channel(value, guild_id)  # a channel option takes the channel's id
                resolved.setdefault("channels", {})[str(channel.id)] = resolved_channel(channel, user)
                value = str(channel.id)
            leaf_options.append({"name": name, "type": kind.value, "value": value})
        nested: list[dict] = leaf_options
        for node in reversed(chain[1:]):
            kind = 2 if isinstance(node, app_commands.Group) else 1
            nested = [{"name": node.name, "type": kind, "options": nested}]
        return {"id": str(next_id()), "name": names[0], "type": 1, "options": nested, "resolved": resolved}, command

    def _known_channel(self, channel_id: int, guild_id: int) -> Channel:
        """The server's channel `channel_id` (a text channel made on first use), known to the bot as the gateway
        tells it of every channel of its servers: discord.py resolves a channel option from its cache."""
        channel = self.fake.channel(channel_id, guild_id)
        if channel.guild_id != guild_id:
            raise AssertionError(f"channel {channel_id} is not in server {guild_id}: Discord offers its own only")
        if self.bot.get_channel(channel_id) is None:
            if self.bot.get_guild(guild_id) is None:
                self.guild_create(guild_id)  # the server with its channels, this one among them
            else:
                self.bot._connection.parse_channel_create(cast(Any, channel.payload()))
        return channel

    # --- acting ------------------------------------------------------------------------------------------

    async def run(
        self,
        path: str,
        user: User | None = None,
        *,
        wait: bool = True,
        channel_id: int = CHANNEL_ID,
        guild_id: int = GUILD_ID,
        **options: Any,
    ) -> list[Message]:
        """Run `/path` as `user` with `options` (attachments as (file name, bytes)) in `channel_id` of
        `guild_id`; returns what it posted."""
        member = user or self.alice
        data, _ = self._command_options(path, options, member, guild_id)
        payload = self._base_payload(2, member, data, channel_id, guild_id)
        return await self._dispatch(payload, wait)

    async def autocomplete(
        self, path: str, option: str, current: str, user: User | None = None, **options: Any
    ) -> list[dict]:
        member = user or self.alice
        data, command = self._command_options(path, options, member, GUILD_ID)
        if option not in command._params:
            raise AssertionError(f"/{path} has no option {option!r}")
        option_type = command._params[option].type.value
        leaf = data
        while leaf.get("options") and leaf["options"] and leaf["options"][0].get("type") in (1, 2):
            leaf = leaf["options"][0]
        # Discord sends what is typed so far as a string, whatever the option's type.
        leaf.setdefault("options", []).append({"name": option, "type": option_type, "value": current, "focused": True})
        payload = self._base_payload(4, member, data)
        self.fake.option_types[payload["token"]] = option_type
        before = len(self.fake.requests)
        await self._dispatch(payload, True)
        callbacks = [r for r in self.fake.requests[before:] if r.path.endswith("/callback")]
        answer = callbacks[-1].payload or {}
        return answer["data"]["choices"]

    async def click(
        self,
        message: Message,
        label_or_id: str,
        user: User | None = None,
        *,
        values: list[str] | None = None,
        wait: bool = True,
        guild_id: int = GUILD_ID,
        channel_id: int | None = None,
    ) -> list[Message]:
        """Press a button (or choose `values` in a select) on a posted message as `user`. A click from another
        server (`guild_id`, `channel_id`) is a replayed one: Discord shows a message only where it was posted."""
        component = message.component(label_or_id)
        data = {"custom_id": component["custom_id"], "component_type": component["type"]}
        if values is not None:
            data["values"] = values
        channel = message.channel_id if channel_id is None else channel_id
        payload = self._base_payload(3, user or self.alice, data, channel, guild_id)
        payload["message"] = message.data
        if message.ephemeral:
            payload["message"] = {**message.data, "flags": 64}
        self.fake.clicked_message[int(payload["id"])] = message.id
        return await self._dispatch(payload, wait)

    async def _dispatch(self, payload: dict, wait: bool) -> list[Message]:
        before_ids = set(self.fake.messages)
        before_tasks = asyncio.all_tasks()
        self._awaiting_answer.append(payload["token"])
        # Discord's 3 s (and the token's 15 minutes) run from when it sent the interaction, a network delay ago
        self.fake.sent_at[payload["token"]] = self.fake.clock() - self.fake.network_delay
        self.last_token = payload["token"]  # the interaction just sent, for benchmarks timing its answer
        token = async_context.set(self.fake.adapter)
        try:
            self.bot._connection.parse_interaction_create(cast(Any, payload))  # the gateway's JSON, as built here
            if wait:
                await self.settle(before_tasks)
        finally:
            async_context.reset(token)
        return [m for i, m in self.fake.messages.items() if i not in before_ids]

    async def settle(self, before: set[asyncio.Task] | None = None) -> None:
        """Wait until every task the bot started since `before` has finished (view timeouts excepted)."""
        before = before or set()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SETTLE_LIMIT
        current = asyncio.current_task()
        while True:
            pending = {
                t
                for t in asyncio.all_tasks()
                if t not in before and t is not current and not t.done() and not _outside_the_bot(t)
            }
            if not pending:
                break
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"the bot's tasks did not finish in {SETTLE_LIMIT} s: {pending}")
            await asyncio.wait(pending, timeout=remaining)
        # Everything the bot started has finished: an interaction still unanswered would fail in Discord.
        problems, self.fake.violations = self.fake.violations, []
        unanswered = [t for t in self._awaiting_answer if t not in self.fake.answered and t not in self.fake.expired]
        self._awaiting_answer.clear()
        if unanswered:
            problems.append(f"the bot never answered interaction(s) {unanswered}: Discord would say it failed")
        if problems:
            raise AssertionError("Discord would refuse or show differently: " + "; ".join(problems))


def _outside_the_bot(task: asyncio.Task) -> bool:
    """A view's timeout timer, or the fake Discord's server keeping a connection open: not the bot's work."""
    name = getattr(task.get_coro(), "__qualname__", "")
    return "__timeout_task_impl" in name or name.startswith("RequestHandler.")


def make_settings(database_path: Path, **overrides: Any) -> Settings:
    # _env_file=None: a developer's .env must not reach the tests (pydantic-settings' init keyword).
    return Settings(
        discord_token="offline-test-token",  # pyright: ignore[reportArgumentType]  # validated into a SecretStr
        database_path=database_path,
        _env_file=None,  # pyright: ignore[reportCallIssue]
        **overrides,
    )


async def start_bot(settings: Settings, fake: FakeDiscord) -> ArenaBot:
    """A bot that has done everything setup_hook does except talk to Discord."""
    await fake.start()
    bot = create_bot(settings)
    await bot.__aenter__()
    await bot.http.static_login(settings.discord_token.get_secret_value())  # opens discord.py's real session
    fake.session_open = True
    close_http = bot.http.close

    async def close_session() -> None:
        fake.session_open = False
        await close_http()

    bot.http.close = close_session
    bot._connection.user = discord.ClientUser(state=bot._connection, data=cast(Any, BOT_USER))
    bot._connection.application_id = APPLICATION_ID
    await bot.prepare()
    return bot
