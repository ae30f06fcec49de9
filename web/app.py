"""The web app: aiohttp routes over `web.pages.Site`, each page as HTML (Jinja2 templates, escaped by default) and
the same document as JSON under /api (docs/web-api.md). Every route reads; none writes.

Around every answer: security headers (a Content Security Policy allowing only this site's own scripts and styles,
no framing, no sniffing), a per-client rate limit, and cache headers (finished matches and tournaments may be
kept a while; anything else is asked again).
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web

from storage.protocol import Storage
from web.chart import rating_chart
from web.pages import Document, NotShown, Site

STATIC = Path(__file__).with_name("static")
TEMPLATES = Path(__file__).with_name("templates")
SITE_KEY = web.AppKey("site", Site)

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
        "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
FINISHED_MAX_AGE = 300  # seconds a finished match or tournament may be kept by a browser or a proxy
STATIC_MAX_AGE = 3600

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class RateLimit:
    """A token bucket per client address: `burst` requests at once, then `per_second` a second (0: no limit)."""

    def __init__(self, per_second: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.per_second = per_second
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client: (tokens, when counted)

    def allow(self, client: str) -> bool:
        if self.per_second <= 0:
            return True
        now = self.clock()
        tokens, then = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
        if len(self._buckets) > 10_000:  # forget the clients that are full again, so the table stays small
            self._buckets = {c: (t, w) for c, (t, w) in self._buckets.items() if now - w < self.burst / self.per_second}
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return False
        self._buckets[client] = (tokens - 1, now)
        return True


LIMITER_KEY = web.AppKey("limiter", RateLimit)


LOOPBACK = ("127.0.0.1", "::1")


def client_of(request: web.Request) -> str:
    """The client's address: the peer's, or, behind a proxy on this machine, the one it names last in
    X-Forwarded-For (the address the proxy itself saw; earlier ones are the client's word)."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    if peer in LOOPBACK and forwarded:
        return forwarded.split(",")[-1].strip() or peer
    return peer


@web.middleware
async def guarded(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The rate limit first, then the answer with the security headers (error answers included)."""
    if not request.path.startswith("/static/") and not request.app[LIMITER_KEY].allow(client_of(request)):
        response: web.StreamResponse = web.Response(
            status=429, text="Too many requests: wait a few seconds.\n", headers={"Retry-After": "5"}
        )
    else:
        try:
            response = await handler(request)
        except NotShown:
            response = _not_found(request)
        except web.HTTPNotFound:
            response = _not_found(request)
        except web.HTTPException as refused:  # a method other than GET or HEAD: 405
            response = web.Response(status=refused.status, text=f"{refused.reason}\n", headers=refused.headers)
    response.headers.update(SECURITY_HEADERS)
    response.headers.setdefault("Cache-Control", "no-cache")
    return response


def _not_found(request: web.Request) -> web.StreamResponse:
    """One answer for every page that is not there, whatever the reason (a server with its pages off reads as
    one Arena never saw)."""
    if request.path.startswith("/api/"):
        return web.json_response({"error": "not found"}, status=404)
    return aiohttp_jinja2.render_template("not_found.html", request, {"page": {}}, status=404)


def _number(request: web.Request, name: str) -> int:
    """A route's id: digits only, else no such page."""
    text = request.match_info[name]
    if not text.isascii() or not text.isdigit() or len(text) > 20:
        raise NotShown
    return int(text)


def _query_number(request: web.Request, name: str, default: int | None) -> int | None:
    text = request.query.get(name, "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else default


def _json(document: Document, *, finished: bool = False) -> web.Response:
    response = web.json_response(document, dumps=lambda value: json.dumps(value, ensure_ascii=False))
    if finished:
        response.headers["Cache-Control"] = f"public, max-age={FINISHED_MAX_AGE}"
    return response


def _html(
    request: web.Request, template: str, document: Document, *, finished: bool = False, **extra: Any
) -> web.Response:
    response = aiohttp_jinja2.render_template(template, request, {"page": document, **extra})
    if finished:
        response.headers["Cache-Control"] = f"public, max-age={FINISHED_MAX_AGE}"
    return response


# --- the pages -------------------------------------------------------------------------------------------------


async def server_document(request: web.Request) -> Document:
    page = _query_number(request, "page", 1) or 1
    return await request.app[SITE_KEY].server_page(_number(request, "guild"), page, request.query.get("q", ""))


async def server_html(request: web.Request) -> web.Response:
    return _html(request, "server.html", await server_document(request))


async def server_json(request: web.Request) -> web.Response:
    return _json(await server_document(request))


async def member_document(request: web.Request) -> Document:
    return await request.app[SITE_KEY].member_page(_number(request, "guild"), _number(request, "user"))


async def member_html(request: web.Request) -> web.Response:
    document = await member_document(request)
    return _html(request, "member.html", document, chart=rating_chart(document["history"]))


async def member_json(request: web.Request) -> web.Response:
    return _json(await member_document(request))


async def replay_html(request: web.Request) -> web.Response:
    site = request.app[SITE_KEY]
    guild, match = _number(request, "guild"), _number(request, "match")
    turn = _query_number(request, "turn", None)
    step = _query_number(request, "step", 0) or 0
    if turn is not None:  # a turn's link: the step it begins at
        whole = await site.replay_page(guild, match, 0)
        starts = {entry["turn"]: entry["step"] for entry in whole["turns"]}
        step = starts.get(turn, 0)
    return _html(request, "replay.html", await site.replay_page(guild, match, step), finished=True)


async def replay_json(request: web.Request) -> web.Response:
    document = await request.app[SITE_KEY].replay_page(_number(request, "guild"), _number(request, "match"))
    return _json(document, finished=True)


async def tournament_document(request: web.Request) -> Document:
    return await request.app[SITE_KEY].tournament_page(_number(request, "guild"), _number(request, "tournament"))


async def tournament_html(request: web.Request) -> web.Response:
    document = await tournament_document(request)
    return _html(request, "tournament.html", document, finished=not document["tournament"]["live"])


async def tournament_json(request: web.Request) -> web.Response:
    document = await tournament_document(request)
    return _json(document, finished=not document["tournament"]["live"])


async def world_boss_html(request: web.Request) -> web.Response:
    document = await request.app[SITE_KEY].world_boss_page()
    return _html(request, "world_boss.html", document, finished=document["boss"]["status"] != "live")


async def world_boss_json(request: web.Request) -> web.Response:
    document = await request.app[SITE_KEY].world_boss_page()
    return _json(document, finished=document["boss"]["status"] != "live")


async def home(request: web.Request) -> web.Response:
    return _html(request, "home.html", {})


async def static_file(request: web.Request) -> web.StreamResponse:
    name = request.match_info["name"]
    path = STATIC / name
    if "/" in name or name.startswith(".") or not path.is_file():
        raise NotShown
    response = web.FileResponse(path)
    response.headers["Cache-Control"] = f"public, max-age={STATIC_MAX_AGE}"
    return response


def create_app(
    db: Storage, *, executor: Executor | None = None, per_second: float = 10.0, burst: int = 40
) -> web.Application:
    """The app over `db`; `per_second` and `burst`: the rate limit of each client address."""
    app = web.Application(middlewares=[guarded])
    app[SITE_KEY] = Site(db, executor)
    app[LIMITER_KEY] = RateLimit(per_second, burst)
    aiohttp_jinja2.setup(
        app,
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=jinja2.select_autoescape(("html",), default_for_string=True, default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    routes = (
        ("/", home),
        ("/servers/{guild}", server_html),
        ("/api/servers/{guild}", server_json),
        ("/servers/{guild}/members/{user}", member_html),
        ("/api/servers/{guild}/members/{user}", member_json),
        ("/servers/{guild}/matches/{match}", replay_html),
        ("/api/servers/{guild}/matches/{match}", replay_json),
        ("/servers/{guild}/tournaments/{tournament}", tournament_html),
        ("/api/servers/{guild}/tournaments/{tournament}", tournament_json),
        ("/world-boss", world_boss_html),
        ("/api/world-boss", world_boss_json),
        ("/static/{name}", static_file),
    )
    for path, handler in routes:
        app.router.add_get(path, handler)  # HEAD too; every other method is 405
    return app


__all__ = ["RateLimit", "create_app"]
