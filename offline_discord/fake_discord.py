"""A fake Discord that answers the bot as Discord would, over HTTP on a loopback port: interaction responses,
followups and edits (through discord.py's own webhook adapter), channel messages (through the bot's own HTTP
client and its rate limiter) and the CDN. It remembers every request and every message it
"posted", and refuses what Discord would refuse (`offline_discord.discord_limits`), recording a violation.

A first followup after a deferred "thinking" response becomes that response (the placeholder, same id), shown
with the deferral's visibility whatever it asks, as Discord does; a channel-route edit of an ephemeral message gets Discord's 404.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any, ClassVar

import discord
from aiohttp import BodyPartReader, web
from discord.http import Route
from discord.webhook.async_ import AsyncWebhookAdapter

from offline_discord import api_schema
from offline_discord.discord_limits import (
    INTERACTION_DEADLINE,
    TOKEN_LIFETIME,
    check_choices,
    check_message,
    discord_error,
)

DISCORD_EPOCH_MS = 1_420_070_400_000  # 2015-01-01, the start of Discord's snowflakes
TIMESTAMP = "2026-01-01T00:00:00+00:00"
_NOW_MS = 1_767_225_600_000  # TIMESTAMP in milliseconds: every id is made as if now


def snowflake(ms: int, increment: int) -> int:
    """A Discord id: milliseconds since Discord's epoch, then 22 bits (worker, process, increment). Ids made
    since mid-2022 have 19 digits."""
    return (ms - DISCORD_EPOCH_MS) << 22 | increment & 0x3FFFFF


APPLICATION_ID = snowflake(_NOW_MS - 400 * 86_400_000, 1)  # the bot, made a year before
GUILD_ID = snowflake(_NOW_MS - 300 * 86_400_000, 1)
OTHER_GUILD_ID = snowflake(
    _NOW_MS - 300 * 86_400_000, 2
)  # another server the bot is in: a replayed click comes from there
CHANNEL_ID = snowflake(_NOW_MS - 200 * 86_400_000, 1)
OTHER_GUILD_CHANNEL_ID = snowflake(_NOW_MS - 200 * 86_400_000, 2)  # a channel of OTHER_GUILD_ID

_ids = itertools.count(snowflake(_NOW_MS, 1))

EPHEMERAL = 64  # the flag of a message only its interaction's member sees
LOADING = 128  # the flag of a deferred response's "thinking" placeholder


# Display names as members really choose them (Discord allows any 1-32 characters): mathtext, markdown, mentions,
# right-to-left text, emoji, the longest and widest.
HOSTILE_NAMES = (
    "$_$ cash",
    "**bold** __under__ ~~gone~~ `code` ||spoiler||",
    "<@1200000000000000002> @everyone @here",
    "\u202eevil\u202c عربي",
    "🦊🔥✨👩‍👩‍👧",
    "# heading [link](https://a.test)",
    "﷽" * 32,
)


def next_id() -> int:
    return next(_ids)


def ids_of_a_second_process() -> None:
    """The ids this process makes from now on start an hour after those of the test's own process, so that
    none equals one the test made, however many it made (Discord's ids carry the time they were made)."""
    global _ids
    _ids = itertools.count(snowflake(_NOW_MS + 3_600_000, 1))


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name, "avatar": None, "bot": bot}


BOT_USER = user_payload(APPLICATION_ID, "Arena", bot=True)


@dataclass
class Message:
    """A message as the harness posted it; `data` is Discord's message payload."""

    id: int
    channel_id: int
    data: dict
    files: dict[str, bytes] = field(default_factory=dict)
    ephemeral: bool = False

    @property
    def content(self) -> str:
        return self.data.get("content") or ""

    @property
    def embeds(self) -> list[discord.Embed]:
        return [discord.Embed.from_dict(e) for e in self.data.get("embeds", [])]

    @property
    def embed(self) -> discord.Embed:
        (embed,) = self.embeds
        return embed

    @property
    def description(self) -> str:
        """The description of the message's one embed ("" when it has none)."""
        return self.embed.description or ""

    def field(self, name_start: str) -> str:
        """The value of the first embed field whose name starts with `name_start`."""
        for embed in self.embeds:
            for f in embed.fields:
                if (f.name or "").startswith(name_start):
                    return f.value or ""
        raise AssertionError(
            f"no field starting with {name_start!r} in {[f.name for e in self.embeds for f in e.fields]}"
        )

    @property
    def components(self) -> list[dict]:
        """Every interactive component, flattened out of its action rows."""
        found = []
        for row in self.data.get("components", []):
            found.extend(row.get("components", [row]))
        return found

    def component(self, label_or_id: str) -> dict:
        for c in self.components:
            if label_or_id in (c.get("label"), c.get("custom_id"), c.get("placeholder")):
                return c
        raise AssertionError(
            f"no component {label_or_id!r} in {[(c.get('label'), c.get('custom_id')) for c in self.components]}"
        )

    def text(self) -> str:
        """Everything readable in the message, for loose assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.title or "", e.description or "", e.footer.text or ""]
            parts += [f"{f.name}\n{f.value}" for f in e.fields]
        return "\n".join(parts)


@dataclass
class Request:
    """One call the bot made to Discord."""

    method: str
    path: str
    payload: dict | None
    files: dict[str, bytes]


def _message_id(route) -> int:
    # discord.py's Route keeps only the formatted URL, not the message_id parameter.
    return int(route.url.rsplit("/", 1)[-1])


class FakeGateway:
    """The bot's gateway connection as discord.py's `bot.ws` shows it: open or not, and its heartbeat latency.
    The harness never connects; a test that needs a connected bot sets `bot.ws = FakeGateway()`."""

    def __init__(self, latency: float = 0.042):
        self.open = True
        self.latency = latency

    async def close(self, code: int = 1000) -> None:
        self.open = False


def _json(body: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # Exactly "application/json", as Discord sends it: discord.py parses a body as JSON only then.
    return web.Response(
        body=json.dumps(body).encode(), status=status, headers={**(headers or {}), "Content-Type": "application/json"}
    )


@dataclass
class Bucket:
    """One rate-limit bucket's window, as Discord's headers describe it."""

    name: str
    limit: int
    per: float
    remaining: int
    resets_at: float
    retry_after: float = 0.0  # > 0: this request is over the limit
    now: float = 0.0

    def headers(self) -> dict[str, str]:
        reset_after = max(0.0, self.resets_at - self.now)
        return {
            "X-RateLimit-Limit": str(self.limit),
            "X-RateLimit-Remaining": str(self.remaining),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": self.name,
        }


class RateLimits:
    """Discord's per-route rate limits: `limit` requests per `per` seconds for each interaction's webhook and
    each channel (Discord's are 5 per 5 s for a channel; the default here is looser, so a test runs at the speed
    of its bot, and a test about rate limits tightens it). The headers tell discord.py when a bucket is empty,
    and a request past it gets a 429, as from Discord."""

    def __init__(self, limit: int = 50, per: float = 1.0):
        self.limit, self.per = limit, per
        self._windows: dict[str, tuple[float, int]] = {}  # bucket -> (window end, requests in it)

    def take(self, bucket: str, now: float) -> Bucket:
        ends, used = self._windows.get(bucket, (0.0, 0))
        if now >= ends:
            ends, used = now + self.per, 0
        name = f"fake-{abs(hash(bucket)) % 10**8}"
        if used >= self.limit:
            return Bucket(name, self.limit, self.per, 0, ends, retry_after=max(0.001, ends - now), now=now)
        self._windows[bucket] = (ends, used + 1)
        return Bucket(name, self.limit, self.per, self.limit - used - 1, ends, now=now)


@dataclass
class FakeRoute:
    """A request as the fake's handlers see it: discord.py's route template, its parameters, the concrete URL."""

    method: str
    path: str  # the template, as discord.py's Route names it: /channels/{channel_id}/messages
    url: str
    webhook_id: int | None = None
    webhook_token: str | None = None
    channel_id: int | None = None
    guild_id: int | None = None
    user_id: int | None = None


# Discord's routes the bot uses, as the fake serves them: (method or None for any, pattern, template)
_ROUTES = [
    (
        "POST",
        r"/interactions/(?P<webhook_id>\d+)/(?P<webhook_token>[^/]+)/callback",
        "/interactions/{webhook_id}/{webhook_token}/callback",
    ),
    ("POST", r"/webhooks/(?P<webhook_id>\d+)/(?P<webhook_token>[^/]+)", "/webhooks/{webhook_id}/{webhook_token}"),
    (
        None,
        r"/webhooks/(?P<webhook_id>\d+)/(?P<webhook_token>[^/]+)/messages/@original",
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original",
    ),
    (
        None,
        r"/webhooks/(?P<webhook_id>\d+)/(?P<webhook_token>[^/]+)/messages/\d+",
        "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}",
    ),
    ("GET", r"/channels/(?P<channel_id>\d+)", "/channels/{channel_id}"),
    ("GET", r"/guilds/(?P<guild_id>\d+)/members/(?P<user_id>\d+)", "/guilds/{guild_id}/members/{user_id}"),
    ("POST", r"/channels/(?P<channel_id>\d+)/messages", "/channels/{channel_id}/messages"),
    (None, r"/channels/(?P<channel_id>\d+)/messages/\d+", "/channels/{channel_id}/messages/{message_id}"),
]


TEXT_CHANNEL, PUBLIC_THREAD = 0, 11
# Discord's default @everyone permissions in a new server (View Channels, Send Messages, Send Messages in
# Threads, Embed Links, Attach Files, Read Message History, and the rest a member gets by default)
EVERYONE_DEFAULT = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    add_reactions=True,
    use_external_emojis=True,
    use_application_commands=True,
    change_nickname=True,
    connect=True,
    speak=True,
)
BOT_ROLE_OFFSET = 7  # the bot's own role in a server: the server's id + this, as the fake's roles go


@dataclass
class Channel:
    """A channel or thread as Discord keeps it: its overwrites decide what the bot may do there."""

    id: int
    guild_id: int
    name: str = "arena"
    type: int = TEXT_CHANNEL
    parent_id: int | None = None  # a thread's channel, whose overwrites it follows
    overwrites: list[dict] = field(default_factory=list)  # Discord's permission_overwrites
    archived: bool = False  # an archived thread: not in GUILD_CREATE's active threads, nor in the bot's cache

    @property
    def is_thread(self) -> bool:
        return self.type in (10, PUBLIC_THREAD, 12)

    def payload(self) -> dict:
        data = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": self.overwrites,
            "nsfw": False,
            "parent_id": str(self.parent_id) if self.parent_id else None,
        }
        if self.is_thread:
            data["thread_metadata"] = {
                "archived": self.archived,
                "auto_archive_duration": 1440,
                "archive_timestamp": TIMESTAMP,
                "locked": False,
            }
            data.update(owner_id=str(APPLICATION_ID), message_count=0, member_count=1)
        return data


def _route(method: str, api_path: str) -> tuple[str, dict[str, str]] | None:
    """(discord.py's template, the path's parameters) of a request, or None for a route Discord lacks."""
    for allowed, pattern, template in _ROUTES:
        match = re.fullmatch(pattern, api_path)
        if match is not None and allowed in (None, method):
            return template, match.groupdict()
    return None


class FakeDiscord:
    """Answers the bot's requests as Discord would and remembers what was posted."""

    live: ClassVar[list[FakeDiscord]] = []  # started and not yet stopped (tests/cogs/conftest.py stops them)

    def __init__(self, served_elsewhere: str = "") -> None:
        # the loopback server's address, once started; or that of a fake Discord another process serves
        # (`served_elsewhere`): this process's bot then talks to it and what it posts is kept there
        self.base_url = served_elsewhere
        self.served_elsewhere = bool(served_elsewhere)
        if served_elsewhere:
            ids_of_a_second_process()  # its interactions' ids and tokens must not be the serving process's
        # discord.py's own webhook adapter (interaction responses, followups, edits), with its per-interaction
        # locks and rate limiting; the harness sets it in `async_context` around every dispatch.
        self.adapter = AsyncWebhookAdapter()
        self._runner: web.AppRunner | None = None
        self.requests: list[Request] = []
        self.messages: dict[int, Message] = {}
        self.original_by_token: dict[str, int] = {}
        self.cdn: dict[str, bytes] = {}
        self.clicked_message: dict[int, int] = {}  # component interaction id -> the message clicked
        self.answered: set[str] = set()  # tokens of the interactions that got their one response
        self.answered_at: dict[str, float] = {}  # token -> time.perf_counter() of that response (benchmarks)
        self.thinking: set[str] = set()  # tokens whose deferred placeholder awaits its first followup or edit
        self.option_types: dict[str, int] = {}  # autocomplete token -> the focused option's type
        # What Discord would refuse or show differently: each fails the test when the bot settles.
        self.violations: list[str] = []
        self.session_open = True  # false once the bot closed its HTTP session: requests then fail, as in aiohttp
        # Discord drops an interaction not answered within 3 s: its first response is then refused (10062) and
        # the member sees "This interaction failed". The clock is a parameter so a test can stall a handler
        # past it without waiting.
        self.clock = time.monotonic
        self.sent_at: dict[str, float] = {}  # token -> when the interaction was sent
        self.expired: set[str] = set()  # tokens whose first response came too late
        # Seconds each way between the bot and Discord: an interaction reaches the bot this late, and every
        # answer reaches Discord this late, both counted in the 3 s.
        self.network_delay = 0.0
        self.rate_limits = RateLimits()
        self.token_expired: list[str] = []  # webhook requests refused because their interaction's token had expired
        self.rate_limited: list[str] = []  # requests answered 429: discord.py should have waited
        self.failing_downloads: set[str] = set()  # names of attachments whose download breaks off
        self.channels: dict[int, Channel] = {}  # made on first use (`channel`)
        self.everyone: dict[int, discord.Permissions] = {}  # a server's @everyone role (default EVERYONE_DEFAULT)
        # the bot's role in each server: what the invite link granted (arena.bot.INVITE_PERMISSIONS by default)
        self.bot_role: dict[int, discord.Permissions] = {}
        self.channel_of_token: dict[str, int] = {}  # where each interaction was used: its messages go there
        self.departed: set[tuple[int, int]] = set()  # (server, user): members who left; Discord no longer knows them

    # --- channels and what the bot may do in them ------------------------------------------------------

    def channel(self, channel_id: int, guild_id: int | None = None) -> Channel:
        """The channel `channel_id` (made, in `guild_id`, on first use: a plain text channel)."""
        if channel_id not in self.channels:
            self.channels[channel_id] = Channel(channel_id, guild_id if guild_id is not None else GUILD_ID)
        return self.channels[channel_id]

    def thread(self, parent_id: int, name: str = "match thread") -> Channel:
        """A new public thread of the channel `parent_id`."""
        parent = self.channel(parent_id)
        thread = Channel(next_id(), parent.guild_id, name, PUBLIC_THREAD, parent_id=parent.id)
        self.channels[thread.id] = thread
        return thread

    def overwrite(
        self,
        channel_id: int,
        target: str,
        *,
        allow: discord.Permissions | None = None,
        deny: discord.Permissions | None = None,
    ) -> None:
        """A permission overwrite on the channel for `target`: "everyone" or "bot" (the bot's role)."""
        channel = self.channel(channel_id)
        target_id = channel.guild_id if target == "everyone" else channel.guild_id + BOT_ROLE_OFFSET
        channel.overwrites = [o for o in channel.overwrites if int(o["id"]) != target_id]
        channel.overwrites.append(
            {
                "id": str(target_id),
                "type": 0,
                "allow": str((allow or discord.Permissions.none()).value),
                "deny": str((deny or discord.Permissions.none()).value),
            }
        )

    def everyone_of(self, guild_id: int) -> discord.Permissions:
        return self.everyone.get(guild_id, EVERYONE_DEFAULT)

    def bot_permissions(self, channel_id: int) -> discord.Permissions:
        """What the bot may do in the channel, computed as Discord does: the server's @everyone and the bot's
        role, then the channel's overwrites (a thread's are its channel's): @everyone's, then the role's."""
        from arena.bot import INVITE_PERMISSIONS

        channel = self.channel(channel_id)
        guild = channel.guild_id
        base = discord.Permissions(
            self.everyone_of(guild).value | self.bot_role.get(guild, discord.Permissions(INVITE_PERMISSIONS)).value
        )
        if base.administrator:
            return discord.Permissions.all()
        source = self.channel(channel.parent_id) if channel.parent_id else channel
        for target_id in (guild, guild + BOT_ROLE_OFFSET):
            for o in source.overwrites:
                if int(o["id"]) == target_id:
                    base.handle_overwrite(allow=int(o["allow"]), deny=int(o["deny"]))
        if not base.view_channel:
            return discord.Permissions.none()
        return base

    def _require(self, channel_id: int, **needed: bool) -> None:
        granted = self.bot_permissions(channel_id)
        if not all(getattr(granted, name) for name in needed):
            raise discord_error(403, 50013, "Missing Permissions")

    # --- the loopback server: Discord's HTTP API as discord.py's own client reaches it ------------------

    async def start(self) -> None:
        """Serve Discord's API on a loopback port and point discord.py's routes at it (`Route.BASE` is one class
        attribute, so the fake started last serves every bot of the test)."""
        if self._runner is None and not self.served_elsewhere:
            app = web.Application(client_max_size=64 * 1024 * 1024)
            app.router.add_route("*", "/{path:.*}", self._serve)
            self._runner = web.AppRunner(app, access_log=None)
            await self._runner.setup()
            site = web.TCPSite(self._runner, "127.0.0.1", 0)
            await site.start()
            self.base_url = f"http://127.0.0.1:{self._runner.addresses[0][1]}"
            FakeDiscord.live.append(self)
        Route.BASE = f"{self.base_url}/api/v10"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self in FakeDiscord.live:
            FakeDiscord.live.remove(self)

    async def _serve(self, request: web.Request) -> web.StreamResponse:
        if self.network_delay:
            await asyncio.sleep(self.network_delay)  # the way back to Discord (the way out is in sent_at)
        path = request.path
        if path.startswith("/cdn/"):
            return await self._serve_cdn(request)
        if request.method == "GET" and path == "/api/v10/users/@me":
            return _json(BOT_USER)
        found = _route(request.method, path.removeprefix("/api/v10"))
        if found is None:
            self.violations.append(f"a request Discord has no route for: {request.method} {path}")
            return _json({"code": 0, "message": "404: Not Found"}, status=404)
        template, params = found
        route = FakeRoute(
            request.method,
            template,
            f"{self.base_url}{path}",
            webhook_id=int(params["webhook_id"]) if "webhook_id" in params else None,
            webhook_token=params.get("webhook_token"),
            channel_id=int(params["channel_id"]) if "channel_id" in params else None,
            guild_id=int(params["guild_id"]) if "guild_id" in params else None,
            user_id=int(params["user_id"]) if "user_id" in params else None,
        )
        payload, multipart = await self._read_body(request)
        body = (
            payload
            if multipart is None
            else next((json.loads(p["value"]) for p in multipart if p["name"] == "payload_json"), None)
        )
        self.violations.extend(api_schema.problems(template, request.method, body))
        bucket = route.webhook_token if route.webhook_token is not None else f"channel:{route.channel_id}"
        limited = None if template.endswith("/callback") else self.rate_limits.take(bucket, self.clock())
        if limited is not None and limited.retry_after > 0:
            self.rate_limited.append(f"{request.method} {template}")
            return _json(
                {"message": "You are being rate limited.", "retry_after": limited.retry_after, "global": False},
                status=429,
                headers={**limited.headers(), "Retry-After": str(math.ceil(limited.retry_after)), "Via": "1.1 google"},
            )
        try:
            if template.startswith(("/interactions", "/webhooks")):
                result = await self.request(route, None, payload=payload, multipart=multipart)
            else:
                form = multipart if multipart else None
                result = await self.http_request(route, json=payload if not form else None, form=form)
        except discord.HTTPException as error:
            body = {"code": error.code, "message": error.text}
            return _json(body, status=error.status, headers=limited.headers() if limited else {})
        headers = limited.headers() if limited else {}
        if result is None:
            return web.Response(status=204, headers=headers)
        return _json(result, headers=headers)

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[dict | None, list[dict] | None]:
        """(JSON payload, multipart parts as discord.py builds them) of a request."""
        if request.content_type == "application/json":
            return await request.json(), None
        if request.content_type.startswith("multipart/"):
            parts: list[dict] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader)
                data = await part.read()
                if part.filename is not None:
                    parts.append({"name": part.name, "filename": part.filename, "value": bytes(data)})
                else:
                    parts.append({"name": part.name, "value": data.decode()})
            return None, parts
        return None, None

    async def _serve_cdn(self, request: web.Request) -> web.StreamResponse:
        url = f"{self.base_url}{request.path}"
        if request.path.rsplit("/", 1)[-1] in self.failing_downloads:  # the connection drops: aiohttp raises
            assert request.transport is not None
            request.transport.close()
            return web.Response(status=500)
        if url not in self.cdn:
            return web.Response(status=404, text="Not Found")
        return web.Response(body=self.cdn[url], content_type="application/octet-stream")

    def cdn_url(self, attachment_id: int, file_name: str) -> str:
        return f"{self.base_url}/cdn/attachments/{attachment_id}/{file_name}"

    def refuse(self, error: discord.HTTPException) -> discord.HTTPException:
        self.violations.append(str(error))
        return error

    # --- the webhook adapter: interaction responses, followups, edits ----------------------------------------

    async def request(self, route, session=None, *, payload=None, multipart=None, files=None, params=None, **_):
        self._check_session()
        payload, sent_files = self._unpack(payload, multipart, files)
        self.requests.append(Request(route.method, route.path, payload, sent_files))
        token = route.webhook_token
        method, path = route.method, route.path
        if path.endswith("/callback"):
            if token in self.answered:
                raise self.refuse(discord_error(400, 40060, "Interaction has already been acknowledged."))
            if token in self.sent_at and self.clock() - self.sent_at[token] > INTERACTION_DEADLINE:
                self.expired.add(token)  # not a mistake of the bot's: what a stalled process meets
                raise discord_error(404, 10062, "Unknown interaction")
            result = self._callback(route.webhook_id, token, payload, sent_files)
            self.answered.add(token)
            self.answered_at[token] = time.perf_counter()
            return result
        if token in self.sent_at and self.clock() - self.sent_at[token] > TOKEN_LIFETIME:
            self.token_expired.append(f"{method} {path}")  # what a job that outlives its token meets
            raise discord_error(401, 50027, "Invalid Webhook Token")
        if method == "POST":  # followup
            if token in self.thinking:  # Discord makes it the response: the placeholder shows it, same id
                payload = self._first_followup(token, payload or {})
                placeholder = self.original_by_token[token]
                return self._edit(placeholder, {**payload, "flags": payload.get("flags") or 0}, sent_files).data
            message = self._post(self.channel_of_token.get(token, CHANNEL_ID), payload, sent_files)
            self.original_by_token.setdefault(token, message.id)
            return message.data
        if "@original" in path or "{message_id}" in path:
            message_id = self.original_by_token.get(token) if "@original" in path else _message_id(route)
            if message_id not in self.messages:
                raise discord_error(404, 10008, "Unknown Message")
            if method == "GET":
                return self.messages[message_id].data
            if "@original" in path:
                self.thinking.discard(token)  # an edit or a deletion settles the deferred response
            if method == "DELETE":
                self.messages.pop(message_id, None)
                return None
            return self._edit(message_id, payload, sent_files).data
        raise AssertionError(f"unexpected webhook request {method} {path}")

    def _first_followup(self, token: str, payload: dict) -> dict:
        """Discord turns the first followup after a deferred response into that response: the placeholder shows
        it (same message, same id), with the visibility chosen when deferring, whatever the followup asks.
        Asking otherwise is a violation."""
        self.thinking.discard(token)
        placeholder = self.messages[self.original_by_token[token]]
        placeholder.data["flags"] &= ~LOADING  # the response is given
        asked = bool((payload.get("flags") or 0) & EPHEMERAL)
        if asked != placeholder.ephemeral:
            shown = "privately" if placeholder.ephemeral else "publicly"
            self.violations.append(
                f"the first followup after a {shown} deferred response asks to be "
                f"{'ephemeral' if asked else 'public'}, but Discord shows it {shown}: defer with the answer's "
                "visibility, or edit or delete the original response first"
            )
        flags = ((payload.get("flags") or 0) & ~EPHEMERAL) | (EPHEMERAL if placeholder.ephemeral else 0)
        return {**payload, "flags": flags}

    def _callback(self, interaction_id, token, payload, files) -> dict:
        kind = payload["type"]
        data = payload.get("data") or {}
        result: dict[str, Any] = {"interaction": {"id": str(interaction_id), "type": 2}}
        message = None
        if kind == 4:  # a new message
            message = self._post(self.channel_of_token.get(token, CHANNEL_ID), data, files)
            self.original_by_token[token] = message.id
        elif kind == 5:  # deferred: a 'thinking' message to be edited later
            flags = (data.get("flags") or 0) | LOADING
            channel_id = self.channel_of_token.get(token, CHANNEL_ID)
            message = self._post(channel_id, {"content": "", "flags": flags}, {}, placeholder=True)
            self.original_by_token[token] = message.id
            self.thinking.add(token)
        elif kind == 8:  # autocomplete choices
            try:
                check_choices(data.get("choices") or [], self.option_types.get(token, 3))
            except discord.HTTPException as error:
                raise self.refuse(error) from None
        elif kind in (6, 7):  # (deferred) update of the message the component is on
            self.original_by_token[token] = self.clicked_message[interaction_id]
            if kind == 7:
                message = self._edit(self.clicked_message[interaction_id], data, files)
        if message is not None:
            result["resource"] = {"type": kind, "message": message.data}
        return result

    # --- the HTTP client: channel messages and the CDN -----------------------------------------------------

    def _check_session(self) -> None:
        if not self.session_open:
            raise RuntimeError("Session is closed")  # aiohttp's error for a request on a closed session

    async def http_request(self, route, *, files=None, form=None, **kwargs):
        self._check_session()
        payload = kwargs.get("json")
        sent_files = {}
        if form:
            payload, sent_files = self._unpack(None, form, files)
        self.requests.append(Request(route.method, route.path, payload, sent_files))
        if route.path == "/guilds/{guild_id}/members/{user_id}":
            return self._member(route.guild_id, route.user_id)
        channel_id = int(route.channel_id) if getattr(route, "channel_id", None) else CHANNEL_ID
        if channel_id not in self.channels:
            raise discord_error(404, 10003, "Unknown Channel")
        channel = self.channels[channel_id]
        if route.method == "GET" and route.path == "/channels/{channel_id}":
            if not self.bot_permissions(channel_id).view_channel:
                raise discord_error(403, 50001, "Missing Access")
            return channel.payload()
        if route.method == "POST" and route.path.endswith("/messages"):
            speak = "send_messages_in_threads" if channel.is_thread else "send_messages"
            self._require(channel_id, view_channel=True, **{speak: True}, attach_files=bool(sent_files))
            return self._post(channel_id, payload, sent_files).data
        if "/messages/" in route.path:
            self._require(channel_id, view_channel=True)
            # Ephemeral messages exist only for their interaction's webhook: the channel route cannot see them;
            # and a message is found in its own channel only.
            message = self.messages.get(_message_id(route))
            if message is None or message.ephemeral or message.channel_id != channel_id:
                raise discord_error(404, 10008, "Unknown Message")
        if route.method == "PATCH" and "/messages/" in route.path:
            self._require(channel_id, attach_files=bool(sent_files))
            return self._edit(_message_id(route), payload, sent_files).data
        if route.method == "GET" and "/messages/" in route.path:
            self._require(channel_id, read_message_history=True)
            return self.messages[_message_id(route)].data
        if route.method == "DELETE" and "/messages/" in route.path:
            self.messages.pop(_message_id(route), None)
            return None
        raise AssertionError(f"unexpected HTTP request {route.method} {route.path}")

    def _member(self, guild_id: int, user_id: int) -> dict:
        """A server's member as Discord gives it (every user is a member until they leave: `departed`)."""
        if (guild_id, user_id) in self.departed:
            raise discord_error(404, 10007, "Unknown Member")
        return {"user": user_payload(user_id, f"user{user_id}"), "roles": [], "joined_at": TIMESTAMP, "deaf": False,
                "mute": False, "flags": 0}  # fmt: skip

    # --- messages ------------------------------------------------------------------------------------

    @staticmethod
    def _unpack(payload, multipart, files) -> tuple[dict | None, dict[str, bytes]]:
        sent: dict[str, bytes] = {}
        if multipart:
            for part in multipart:
                if part["name"] == "payload_json":
                    payload = json.loads(part["value"])
                elif "filename" in part:
                    value = part["value"]
                    sent[part["filename"]] = value.read() if hasattr(value, "read") else bytes(value)
        return payload, sent

    def _attachments(self, files: dict[str, bytes]) -> list[dict]:
        result = []
        for name, data in files.items():
            attachment_id = next_id()
            url = self.cdn_url(attachment_id, name)
            self.cdn[url] = data
            result.append({"id": str(attachment_id), "filename": name, "size": len(data), "url": url, "proxy_url": url})
        return result

    def _post(
        self, channel_id: int, data: dict | None, files: dict[str, bytes], *, placeholder: bool = False
    ) -> Message:
        data = dict(data or {})
        if not placeholder:
            try:
                check_message(data, files, new=True)
            except discord.HTTPException as error:
                raise self.refuse(error) from None
        message_id = next_id()
        payload = {
            "id": str(message_id),
            "channel_id": str(channel_id),
            "author": BOT_USER,
            "content": data.get("content") or "",
            "timestamp": TIMESTAMP,
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": self._attachments(files),
            "embeds": data.get("embeds") or [],
            "components": data.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": data.get("flags") or 0,
        }
        message = Message(message_id, channel_id, payload, dict(files), ephemeral=bool(payload["flags"] & 64))
        self.messages[message_id] = message
        return message

    def _edit(self, message_id: int, data: dict | None, files: dict[str, bytes]) -> Message:
        message = self.messages[message_id]
        data = data or {}
        try:
            check_message({**message.data, **{k: v for k, v in data.items() if v is not None}}, files, new=False)
        except discord.HTTPException as error:
            raise self.refuse(error) from None
        for key in ("content", "embeds", "components", "flags"):
            if key in data:
                message.data[key] = data[key] if data[key] is not None else ([] if key != "content" else "")
        if "attachments" in data or files:
            kept_ids = {str(a.get("id")) for a in data.get("attachments", []) if "filename" not in a or a.get("id")}
            kept = [a for a in message.data["attachments"] if a["id"] in kept_ids]
            message.files = {
                a["filename"]: message.files[a["filename"]] for a in kept if a["filename"] in message.files
            }
            message.data["attachments"] = kept + self._attachments(files)
            message.files.update(files)
        message.data["flags"] = (message.data.get("flags") or 0) & ~LOADING
        message.data["edited_timestamp"] = TIMESTAMP
        return message
