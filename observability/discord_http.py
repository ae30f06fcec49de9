"""Discord's answers to the bot's HTTP requests, counted by route kind and status: what tells an operator that
Discord is refusing the bot (429 rate limits, 401/403, 5xx) before players notice.

Counted through aiohttp's request tracing on discord.py's own session (the `http_trace` the bot is built with):
every REST call, interaction callback, webhook followup or edit and CDN download goes through that session, so
nothing here patches discord.py. Labels are a route kind and a status, never an id or a token from the URL.
"""

from __future__ import annotations

import re
from types import SimpleNamespace
from typing import TYPE_CHECKING

import aiohttp
from yarl import URL

if TYPE_CHECKING:
    from prometheus_client import Counter

# The API path after /api/v<N>/ -> its kind; the first that matches wins.
ROUTE_KINDS = (
    (re.compile(r"interactions/[^/]+/[^/]+/callback"), "interaction-callback"),
    (re.compile(r"webhooks/"), "webhook"),  # an interaction's followups and edits of its messages
    (re.compile(r"channels/[^/]+/messages"), "channel-message"),
    (re.compile(r"applications/[^/]+/(guilds/[^/]+/)?commands"), "commands"),
    (re.compile(r"gateway"), "gateway"),
)
API_PATH = re.compile(r"/api/v\d+/(.*)")
# Statuses an operator acts on apart (Discord bans an address for an hour after 10,000 401, 403 and 429 answers
# in 10 minutes); every other one by its class.
OWN_STATUSES = frozenset({401, 403, 404, 429})
NO_RESPONSE = "network"  # the request failed before Discord answered (a reset connection, a timeout)


def route_kind(url: URL) -> str:
    """A bounded name for what a request to `url` is: an interaction callback, a webhook, a channel's messages,
    the command list, the gateway; `cdn` for a download outside the API; `other` for the rest of the API."""
    if url.scheme in ("ws", "wss"):
        return "gateway"
    api = API_PATH.fullmatch(url.path)
    if api is None:
        return "cdn"  # attachments and avatars: the only requests outside the API the bot makes
    path = api.group(1)
    return next((kind for pattern, kind in ROUTE_KINDS if pattern.match(path)), "other")


def status_label(status: int) -> str:
    return str(status) if status in OWN_STATUSES else f"{status // 100}xx"


def discord_http_tracing(trace: aiohttp.TraceConfig, requests: Counter) -> None:
    """Count each request made through a session built with `trace` in `requests` (labels: route, status)."""

    async def ended(
        _session: aiohttp.ClientSession, _context: SimpleNamespace, params: aiohttp.TraceRequestEndParams
    ) -> None:
        requests.labels(route_kind(params.url), status_label(params.response.status)).inc()

    async def failed(
        _session: aiohttp.ClientSession, _context: SimpleNamespace, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        requests.labels(route_kind(params.url), NO_RESPONSE).inc()

    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
