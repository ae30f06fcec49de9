"""A fake Discord that answers the bot as Discord would: interaction responses, followups and edits (it is the
webhook adapter discord.py finds in `discord.webhook.async_.async_context`), channel messages and the CDN
(`bot.http.request` and `bot.http.get_from_cdn` point at it). It remembers every request and every message it
"posted", and refuses what Discord would refuse (`tests.cogs.discord_limits`), recording a violation.

A first followup after a deferred "thinking" response is shown with the deferral's visibility, whatever it
asks, as Discord does; a channel-route edit of an ephemeral message gets Discord's 404.
"""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from tests.cogs.discord_limits import (
    INTERACTION_DEADLINE,
    check_choices,
    check_message,
    discord_error,
)

APPLICATION_ID = 900000000000000001
GUILD_ID = 910000000000000001
CHANNEL_ID = 920000000000000001
OTHER_GUILD_ID = 910000000000000002  # another server the bot is in: a replayed click comes from there
OTHER_GUILD_CHANNEL_ID = 920000000000000002  # a channel of OTHER_GUILD_ID
TIMESTAMP = "2026-01-01T00:00:00+00:00"

_ids = itertools.count(930000000000000001)

EPHEMERAL = 64  # the flag of a message only its interaction's member sees
LOADING = 128  # the flag of a deferred response's "thinking" placeholder


def next_id() -> int:
    return next(_ids)


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
