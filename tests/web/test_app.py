"""The pages over HTTP: the same 404 for every page that is not there, the headers on every answer, the rate
limit, cache headers, no route that writes, and the JSON documents (docs/web-api.md)."""

from __future__ import annotations

import aiohttp

from rules.mma.state import EndReason
from storage.web_pages import WebPagesRepository
from tests.web.builders import GUILD, OTHER_GUILD, pages_on, played_match
from web.app import FINISHED_MAX_AGE, SECURITY_HEADERS, RateLimit
from web.pages import PAGE_SIZE

NOW = 1_780_000_000.0
SERVER = f"/servers/{GUILD}"


async def get(served, path: str, method: str = "GET") -> tuple[int, dict[str, str], str]:
    async with aiohttp.ClientSession() as session, session.request(method, served.url(path)) as response:
        return response.status, dict(response.headers), await response.text()


async def test_a_server_with_pages_off_answers_as_an_unknown_one(served):
    await played_match(served.db, ((1001, "Alice"), (1002, "Bob")), 1, NOW)
    off = await get(served, SERVER)
    unknown = await get(served, f"/servers/{OTHER_GUILD}")
    assert off[0] == unknown[0] == 404
    assert off[2] == unknown[2] and "<h1>Not found</h1>" in off[2]
    for path in (f"{SERVER}/members/1001", f"{SERVER}/matches/1", f"/api{SERVER}", "/servers/1e9", "/nowhere"):
        status, _, _ = await get(served, path)
        assert status == 404, path
    assert await get(served, f"/api{SERVER}/members/1001") == (
        404,
        (await get(served, f"/api/servers/{OTHER_GUILD}/members/1001"))[1],
        '{"error": "not found"}',
    )
    await pages_on(served.db)
    assert (await get(served, SERVER))[0] == 200
    # A match is shown only on its own server's pages.
    await pages_on(served.db, OTHER_GUILD)
    assert (await get(served, f"/servers/{OTHER_GUILD}/matches/1"))[0] == 404


async def test_every_answer_has_the_security_headers_and_no_route_writes(served):
    await pages_on(served.db)
    await played_match(served.db, ((1001, "Alice"), (1002, "Bob")), 1, NOW)
    for path in (SERVER, f"/api{SERVER}", "/nowhere", "/static/app.js"):
        _, headers, _ = await get(served, path)
        for name, value in SECURITY_HEADERS.items():
            assert headers[name] == value, (path, name)
    assert "script-src 'self';" in SECURITY_HEADERS["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in SECURITY_HEADERS["Content-Security-Policy"]
    for method in ("POST", "PUT", "DELETE", "PATCH"):
        status, headers, _ = await get(served, SERVER, method)
        assert status == 405 and headers["X-Frame-Options"] == "DENY"
    # Cache headers: a finished match may be kept; a leaderboard is asked again.
    assert (await get(served, f"{SERVER}/matches/1"))[1]["Cache-Control"] == f"public, max-age={FINISHED_MAX_AGE}"
    assert (await get(served, SERVER))[1]["Cache-Control"] == "no-cache"
    # No inline script anywhere: the CSP would refuse it.
    _, _, page = await get(served, f"{SERVER}/matches/1")
    assert page.count("<script") == 1 and '<script src="/static/app.js" defer></script>' in page


def test_the_rate_limit_lets_a_burst_through_then_one_request_per_tick():
    now = [0.0]
    limit = RateLimit(per_second=2, burst=3, clock=lambda: now[0])
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("b")  # each client has its own
    now[0] = 0.5  # one token back
    assert [limit.allow("a"), limit.allow("a")] == [True, False]
    now[0] = 100.0
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]  # never more than the burst
    unlimited = RateLimit(per_second=0, burst=1, clock=lambda: now[0])  # WEB_RATE_LIMIT=0
    assert all(unlimited.allow("a") for _ in range(100))


async def test_a_client_past_the_limit_is_told_to_wait(tmp_path):
    from storage.sqlite import Database
    from web.server import WebServer

    db = await Database.open(tmp_path / "arena.sqlite3")
    server = WebServer(db, "127.0.0.1", 0, per_second=0.001, burst=2)
    await server.start()
    try:
        async with aiohttp.ClientSession() as session:
            statuses = []
            for _ in range(3):
                async with session.get(f"http://127.0.0.1:{server.port}/") as response:
                    statuses.append(response.status)
                    retry = response.headers.get("Retry-After")
            async with session.get(f"http://127.0.0.1:{server.port}/static/style.css") as response:
                static = response.status
            # Behind a proxy on this machine, each reader the proxy names is a client of their own.
            proxied = {"X-Forwarded-For": "203.0.113.9, 198.51.100.7"}
            async with session.get(f"http://127.0.0.1:{server.port}/", headers=proxied) as response:
                other_reader = response.status
        assert statuses == [200, 200, 429] and retry == "5"
        assert static == 200  # the page's own files do not count
        assert other_reader == 200
    finally:
        await server.close()
        await db.close()


async def test_the_leaderboard_pages_searches_and_hides(served):
    db = served.db
    await pages_on(db)
    # 60 members, each with one rated match against member 1: ranks, pages of 50, a search by name.
    for number in range(2, 62):
        await played_match(db, ((1, "Host"), (number, f"Player_{number:02d}")), number, NOW + number)
    status, _, text = await get(served, f"/api{SERVER}")
    import json

    board = json.loads(text)["leaderboard"]
    assert status == 200 and board["members"] == 61 and board["pages"] == 2 and board["page_size"] == PAGE_SIZE
    rows = board["established"] + board["provisional"]
    assert len(rows) == PAGE_SIZE
    second = json.loads((await get(served, f"/api{SERVER}?page=2"))[2])["leaderboard"]
    assert len(second["established"] + second["provisional"]) == 11
    found = json.loads((await get(served, f"/api{SERVER}?q=player_0"))[2])["leaderboard"]
    names = sorted(row["member"]["name"] for row in found["established"] + found["provisional"])
    assert names == [f"Player_{n:02d}" for n in range(2, 10)]  # the underscore as typed, not as stored (\_)
    assert json.loads((await get(served, f"/api{SERVER}?q=%25"))[2])["leaderboard"]["members"] == 0
    await WebPagesRepository(db).set_hidden(GUILD, 5, True)
    found = json.loads((await get(served, f"/api{SERVER}?q=player_0"))[2])["leaderboard"]
    assert "Player_05" not in {row["member"]["name"] for row in found["established"] + found["provisional"]}


async def test_the_json_documents(served):
    db = served.db
    await pages_on(db)
    match = await played_match(db, ((1001, "Alice"), (1002, "Bob")), 1, NOW)
    import json

    member = json.loads((await get(served, f"/api{SERVER}/members/1001"))[2])
    change = match.rating_changes[1001]
    assert member["member"] == {"id": "1001", "name": "Alice", "url": f"{SERVER}/members/1001"}
    assert member["rating"]["rating"] == change.after.shown and member["rating"]["games"] == 1
    assert member["history"] == [
        {
            "match_id": 1,
            "url": f"{SERVER}/matches/1",
            "opponent": {"id": "1002", "name": "Bob", "url": f"{SERVER}/members/1002"},
            "result": "win" if match.winner_slot == 0 else "loss",
            "rating": change.after.shown,
            "change": change.delta,
            "at": "2026-05-28T20:26:40Z",
        }
    ]
    ended = EndReason(match.result_reason)
    assert (member["recent"][0]["reason"], member["recent"][0]["ended"]) == (ended.value, ended.label)
    replay = json.loads((await get(served, f"/api{SERVER}/matches/1"))[2])
    assert (replay["match"]["reason"], replay["match"]["ended"]) == (ended.value, ended.label)
    page = (await get(served, f"{SERVER}/members/1001"))[2]
    assert f"({ended.label})" in page and ended.value not in page  # the words, never the stored code
    assert replay["last_step"] == len(replay["steps"]) - 1 > 10
    assert replay["steps"][0]["number"] == 0 and replay["steps"][0]["move"] is None
    assert replay["match"]["rating_changes"][0]["change"] == change.delta
    assert replay["turns"][0] == {"turn": 1, "step": 0}
    from rules.mma.cards import CARDS
    from rules.mma.engine import new_game

    dealt, _ = new_game(1)
    assert [p["hand"] for p in replay["steps"][0]["players"]] == [
        [CARDS[card].name for card in player.hand] for player in dealt.players
    ]
