"""Drive the real bot offline: real Interaction payloads through discord.py's own dispatch, every reply
recorded, attachments served from memory, a real SQLite file.

discord.py sends interaction replies through the webhook adapter in `discord.webhook.async_.async_context`
and everything else through `HTTPClient.request`; the harness answers both as Discord would, keeps the
messages it "posted", and lets a test click their buttons.

Where Discord would refuse a request, the fake refuses it too, with the HTTPException Discord's answer would
raise: a message over Discord's limits (content, embeds, components, files), a second response to one
interaction, bad autocomplete choices, a channel-route edit of an ephemeral message (404). A first followup
after a deferred "thinking" response is shown with the deferral's visibility, whatever it asks, as Discord
does. Each of these but the 404 is also a violation that fails the test when the bot settles, and so is an
interaction the bot never answered (Discord would show "This interaction failed").
"""

from __future__ import annotations

import asyncio
import itertools
import json
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import discord
from discord import app_commands
from discord.webhook.async_ import AsyncWebhookAdapter, async_context

from bot import ArenaBot, Settings, create_bot

APPLICATION_ID = 900000000000000001
GUILD_ID = 910000000000000001
CHANNEL_ID = 920000000000000001
OTHER_GUILD_ID = 910000000000000002  # another server the bot is in: a replayed click comes from there
OTHER_GUILD_CHANNEL_ID = 920000000000000002  # a channel of OTHER_GUILD_ID
MANAGE_GUILD = discord.Permissions(manage_guild=True, send_messages=True, attach_files=True, embed_links=True)
PLAYER = discord.Permissions(send_messages=True, attach_files=True, embed_links=True)
TIMESTAMP = "2026-01-01T00:00:00+00:00"

_ids = itertools.count(930000000000000001)

EPHEMERAL = 64
LOADING = 128  # the flag of a deferred response's "thinking" placeholder
UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024  # a bot's upload limit in a server without boosts
INTERACTION_DEADLINE = 3.0  # seconds Discord waits for an interaction's first response
SETTLE_LIMIT = 30.0  # seconds: a hung handler fails its test instead of hanging the suite


def discord_error(status: int, code: int, message: str) -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer `status` with JSON error `code`."""
    response = SimpleNamespace(status=status, reason={400: "Bad Request", 404: "Not Found"}.get(status, "Error"))
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(response, {"code": code, "message": message})


def invalid_form(problem: str) -> discord.HTTPException:
    return discord_error(400, 50035, f"Invalid Form Body: {problem}")


def check_message(data: dict, files: dict[str, bytes], *, new: bool) -> None:
    """Refuse a message (as posted or after an edit) the way Discord's API would."""
    content = data.get("content") or ""
    if len(content) > 2000:
        raise invalid_form(f"content is {len(content)} characters; the limit is 2000")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        raise invalid_form(f"{len(embeds)} embeds; the limit is 10")
    total = 0
    for embed in embeds:
        for key, limit in (("title", 256), ("description", 4096)):
            if len(embed.get(key) or "") > limit:
                raise invalid_form(f"embed {key} is {len(embed[key])} characters; the limit is {limit}")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise invalid_form(f"{len(fields)} embed fields; the limit is 25")
        for f in fields:
            if not f.get("name") or not f.get("value"):
                raise invalid_form(f"embed field {f!r} needs a name and a value")
            if len(f["name"]) > 256 or len(f["value"]) > 1024:
                raise invalid_form(f"embed field {f['name'][:30]!r} is over 256 (name) or 1024 (value) characters")
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        if len(footer) > 2048 or len(author) > 256:
            raise invalid_form("embed footer over 2048 or author over 256 characters")
        total += len(embed.get("title") or "") + len(embed.get("description") or "") + len(footer) + len(author)
        total += sum(len(f["name"]) + len(f["value"]) for f in fields)
    if total > 6000:
        raise invalid_form(f"the embeds hold {total} characters; the limit is 6000")
    check_components(data.get("components") or [])
    attachments = data.get("attachments") if "attachments" in data else None
    if len(files) > 10 or (attachments is not None and len(attachments) > 10):
        raise invalid_form("more than 10 attachments")
    for name, blob in files.items():
        if len(blob) > UPLOAD_LIMIT_BYTES:
            raise discord_error(413, 40005, f"{name} is {len(blob)} bytes; the upload limit is {UPLOAD_LIMIT_BYTES}")
    if new and not (content or embeds or files or data.get("components")):
        raise discord_error(400, 50006, "Cannot send an empty message")


def check_components(rows: list[dict]) -> None:
    if len(rows) > 5:
        raise invalid_form(f"{len(rows)} action rows; the limit is 5")
    custom_ids: set[str] = set()
    for row in rows:
        items = row.get("components") or []
        if not 1 <= len(items) <= 5:
            raise invalid_form(f"an action row holds {len(items)} components; it takes 1 to 5")
        if any(i["type"] != 2 for i in items) and len(items) > 1:
            raise invalid_form("a select menu must be alone in its action row")
        for item in items:
            custom_id = item.get("custom_id")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= 100:
                    raise invalid_form(f"custom_id {custom_id!r} is not 1 to 100 characters")
                if custom_id in custom_ids:
                    raise invalid_form(f"custom_id {custom_id!r} is used twice in one message")
                custom_ids.add(custom_id)
            if item["type"] == 2:
                if len(item.get("label") or "") > 80:
                    raise invalid_form(f"button label {item['label'][:30]!r}… is over 80 characters")
                if not item.get("label") and not item.get("emoji"):
                    raise invalid_form("a button needs a label or an emoji")
            else:
                options = item.get("options")
                if options is not None and not 1 <= len(options) <= 25:
                    raise invalid_form(f"a select menu has {len(options)} options; it takes 1 to 25")
                for option in options or []:
                    if not 1 <= len(option["label"]) <= 100 or not 1 <= len(option["value"]) <= 100:
                        raise invalid_form(
                            f"select option {option['label'][:30]!r}: label and value take 1 to 100 characters"
                        )
                    if len(option.get("description") or "") > 100:
                        raise invalid_form("a select option's description is over 100 characters")
                if len(item.get("placeholder") or "") > 150:
                    raise invalid_form("a select placeholder is over 150 characters")


def check_choices(choices: list[dict], option_type: int) -> None:
    """Discord's rules for an autocomplete answer: at most 25 choices of the option's type."""
    if len(choices) > 25:
        raise invalid_form(f"{len(choices)} autocomplete choices; the limit is 25")
    for choice in choices:
        if not 1 <= len(choice["name"]) <= 100:
            raise invalid_form(f"choice name {choice['name'][:30]!r} is not 1 to 100 characters")
        value = choice["value"]
        if option_type == 3 and (not isinstance(value, str) or len(value) > 100):
            raise invalid_form(f"choice value {value!r} is not a string of at most 100 characters")
        if option_type in (4, 10) and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise invalid_form(f"choice value {value!r} is not a number")


def next_id() -> int:
    return next(_ids)


def user_payload(user_id: int, name: str, *, bot: bool = False) -> dict:
    return {"id": str(user_id), "username": name, "discriminator": "0", "global_name": name, "avatar": None, "bot": bot}


BOT_USER = user_payload(APPLICATION_ID, "Arena", bot=True)


@dataclass
class User:
    id: int
    name: str
    permissions: discord.Permissions = PLAYER
    role_ids: tuple[int, ...] = ()

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Message:
    """A message as the harness posted it; `data` is Discord's message payload."""

    id: int
    channel_id: int
    data: dict
    files: dict[str, bytes] = field(default_factory=dict)
    ephemeral: bool = False
    replaced: bool = False  # a deferral's placeholder that its first followup replaced, in Discord's eyes

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


class FakeDiscord(AsyncWebhookAdapter):
    """Answers the bot's requests as Discord would and remembers what was posted."""

    def __init__(self) -> None:
        super().__init__()
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
        if method == "POST":  # followup
            if token in self.thinking:
                payload = self._first_followup(token, payload or {})
            message = self._post(CHANNEL_ID, payload, sent_files)
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
        """Discord turns the first followup after a deferred response into that response: it keeps the
        visibility chosen when deferring, whatever the followup asks. Asking otherwise is a violation.

        (The harness still records the followup as its own message beside the placeholder, where Discord
        shows one message; tests count on that shape.)"""
        self.thinking.discard(token)
        placeholder = self.messages[self.original_by_token[token]]
        placeholder.data["flags"] &= ~LOADING  # the response is given
        placeholder.replaced = True
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
            message = self._post(CHANNEL_ID, data, files)
            self.original_by_token[token] = message.id
        elif kind == 5:  # deferred: a 'thinking' message to be edited later
            flags = (data.get("flags") or 0) | LOADING
            message = self._post(CHANNEL_ID, {"content": "", "flags": flags}, {}, placeholder=True)
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
        channel_id = int(route.channel_id) if getattr(route, "channel_id", None) else CHANNEL_ID
        if route.method == "POST" and route.path.endswith("/messages"):
            return self._post(channel_id, payload, sent_files).data
        if "/messages/" in route.path:
            # Ephemeral messages exist only for their interaction's webhook: the channel route cannot see them.
            message = self.messages.get(_message_id(route))
            if message is None or message.ephemeral:
                raise discord_error(404, 10008, "Unknown Message")
        if route.method == "PATCH" and "/messages/" in route.path:
            return self._edit(_message_id(route), payload, sent_files).data
        if route.method == "GET" and "/messages/" in route.path:
            return self.messages[_message_id(route)].data
        if route.method == "DELETE" and "/messages/" in route.path:
            self.messages.pop(_message_id(route), None)
            return None
        raise AssertionError(f"unexpected HTTP request {route.method} {route.path}")

    async def get_from_cdn(self, url: str) -> bytes:
        return self.cdn[url]

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
            url = f"https://cdn.test/{attachment_id}/{name}"
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


class HeldCall:
    """A function of a module (an engine call a cog makes) held at its start until `release()`: slow work made
    to order, so a test can act while it runs. Installed with pytest's monkeypatch, so it is undone after."""

    def __init__(self, monkeypatch: Any, owner: object, name: str):
        self.original = getattr(owner, name)
        self._entered = threading.Semaphore(0)
        self._released = threading.Event()

        def held(*args: Any, **kwargs: Any) -> Any:
            self._entered.release()
            self._released.wait(timeout=10)
            return self.original(*args, **kwargs)

        monkeypatch.setattr(owner, name, held)

    async def entered(self, times: int = 1) -> None:
        """Wait (off the event loop) until `times` calls are being held."""
        for _ in range(times):
            assert await asyncio.to_thread(self._entered.acquire, timeout=10), "the held call never came"

    def release(self) -> None:
        self._released.set()


class Harness:
    """A bot on a real SQLite file, and the means to use it as members of one guild would."""

    def __init__(self, bot: ArenaBot, fake: FakeDiscord, settings: Settings):
        self.bot = bot
        self.fake = fake
        self.settings = settings
        self.gm = User(800000000000000001, "GameMaster", MANAGE_GUILD)
        self.alice = User(800000000000000002, "Alice")
        self.bob = User(800000000000000003, "Bob")
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

    @staticmethod
    def seen(messages: list[Message]) -> list[Message]:
        """The messages as a user sees them: without the placeholders that first followups replaced."""
        return [m for m in messages if not m.replaced]

    def add_role(self, role_id: int, name: str) -> None:
        guild = self.bot._connection._get_or_create_unavailable_guild(GUILD_ID)
        self.bot._connection._add_guild(guild)  # as the gateway's GUILD_CREATE would
        guild._add_role(
            discord.Role(
                guild=guild,
                state=self.bot._connection,
                data=cast(
                    Any,
                    {
                        "id": str(role_id),
                        "name": name,
                        "permissions": "0",
                        "position": 1,
                        "color": 0,
                        "hoist": False,
                        "managed": False,
                        "mentionable": False,
                    },
                ),
            )
        )

    # --- payloads ----------------------------------------------------------------------------------------

    def _base_payload(
        self, kind: int, user: User, data: dict, channel_id: int = CHANNEL_ID, guild_id: int = GUILD_ID
    ) -> dict:
        interaction_id = next_id()
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
            "channel": {
                "id": str(channel_id),
                "type": 0,
                "guild_id": str(guild_id),
                "name": "arena",
                "position": 0,
                "permission_overwrites": [],
                "nsfw": False,
                "parent_id": None,
            },
            "member": {
                "user": user_payload(user.id, user.name),
                "roles": [str(r) for r in user.role_ids],
                "joined_at": TIMESTAMP,
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": str(user.permissions.value),
            },
            "app_permissions": str(discord.Permissions.all().value),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild_id)},
            "context": 0,
        }

    def _command_options(self, path: str, options: dict[str, Any], resolved: dict) -> tuple[dict, app_commands.Command]:
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
                url = f"https://cdn.test/{attachment_id}/{file_name}"
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
            elif kind in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
                member: User = value
                resolved.setdefault("users", {})[str(member.id)] = user_payload(member.id, member.name)
                resolved.setdefault("members", {})[str(member.id)] = {
                    "roles": [],
                    "joined_at": TIMESTAMP,
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                    "permissions": str(member.permissions.value),
                }
                value = str(member.id)
            leaf_options.append({"name": name, "type": kind.value, "value": value})
        nested: list[dict] = leaf_options
        for node in reversed(chain[1:]):
            kind = 2 if isinstance(node, app_commands.Group) else 1
            nested = [{"name": node.name, "type": kind, "options": nested}]
        return {"id": str(next_id()), "name": names[0], "type": 1, "options": nested, "resolved": resolved}, command

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
        data, _ = self._command_options(path, options, {})
        payload = self._base_payload(2, user or self.alice, data, channel_id, guild_id)
        return await self._dispatch(payload, wait)

    async def autocomplete(
        self, path: str, option: str, current: str, user: User | None = None, **options: Any
    ) -> list[dict]:
        data, command = self._command_options(path, options, {})
        if option not in command._params:
            raise AssertionError(f"/{path} has no option {option!r}")
        option_type = command._params[option].type.value
        leaf = data
        while leaf.get("options") and leaf["options"] and leaf["options"][0].get("type") in (1, 2):
            leaf = leaf["options"][0]
        # Discord sends what is typed so far as a string, whatever the option's type.
        leaf.setdefault("options", []).append({"name": option, "type": option_type, "value": current, "focused": True})
        payload = self._base_payload(4, user or self.alice, data)
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
        self.fake.sent_at[payload["token"]] = self.fake.clock()
        self.last_token = payload["token"]  # the interaction just sent, for benchmarks timing its answer
        token = async_context.set(self.fake)
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
                if t not in before
                and t is not current
                and not t.done()
                and "__timeout_task_impl" not in getattr(t.get_coro(), "__qualname__", "")
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
    bot = create_bot(settings)
    await bot.__aenter__()
    bot.http.request = fake.http_request
    bot.http.get_from_cdn = fake.get_from_cdn
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
