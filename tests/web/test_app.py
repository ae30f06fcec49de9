"""The pages over HTTP: the same 404 for every page that is not there, the headers on every answer, the rate
limit, cache headers, no route that writes, and the JSON documents (docs/web-api.md)."""

from __future__ import annotations

import aiohttp

from rules.mma.state import EndReason
from storage.web_pages import WebPagesRepository
from storage.world_boss import WorldBossRepository
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


async def test_the_world_boss_page_ranks_servers_and_names_no_member(served):
    """The world's board: servers by credited damage, each by its page where its pages are on, "a server" where
    they are off, "a former server" once erased; no member anywhere (RULINGS 9). A server's page holds its place."""
    import json

    from rules.bossfight import BUILTIN_BOSSES
    from storage.lifecycle import LifecycleRepository
    from tests.web.builders import world_boss
    from web.pages import Site

    db = served.db
    assert (await get(served, "/api/world-boss"))[0] == 404  # no world boss yet
    await pages_on(db)
    await played_match(db, ((1001, "Alice"), (1002, "Bob")), 1, NOW)  # names the page could give, and must not
    third = 1444444444444444444
    attacks = [(GUILD, 1001, 300.5), (OTHER_GUILD, 2001, 400.0), (GUILD, 1002, 200.0), (third, 3001, 100.25)]
    boss = await world_boss(db, 2000.0, attacks, NOW)
    lifecycle = LifecycleRepository(db)
    await lifecycle.guild_here(GUILD, "The Pit")  # as the bot found it; OTHER_GUILD's name is not known
    await lifecycle.guild_left(third, NOW)
    assert await lifecycle.erase_departed(NOW + 120, 60) == [third]
    document = await Site(db, clock=lambda: NOW + 600.5).world_boss_page()
    assert document == {
        "boss": {
            "id": boss.id,
            "name": BUILTIN_BOSSES[0].name,
            "status": "live",
            "hp": 999.25,
            "max_hp": 2000.0,
            "spawned_at": "2026-05-28T20:26:40Z",
            "ends_at": "2026-05-28T21:26:40Z",
            "ended_at": None,
            "seconds_left": 2999,
        },
        "final_blow": None,
        "board": {
            "servers": 3,
            "members": 4,
            "rows": [
                {"place": 1, "server": {"id": str(GUILD), "name": "The Pit", "url": SERVER},
                 "damage": 500.5, "members": 2},
                {"place": 2, "server": {"id": None, "name": "a server", "url": None}, "damage": 400.0, "members": 1},
                {"place": 3, "server": {"id": None, "name": "a former server", "url": None},
                 "damage": 100.25, "members": 1},
            ],
        },
    }  # fmt: skip
    status, headers, page = await get(served, "/world-boss")
    assert status == 200 and headers["Cache-Control"] == "no-cache"
    assert f'<a href="{SERVER}"><bdi>The Pit</bdi></a>' in page and "a former server" in page and "500.5" in page
    assert "Alice" not in page and "Bob" not in page and "1001" not in page
    # the world's page is no server's: its footer says whose it is
    assert "every taking-part server fights at once" in page and "its game master turned them on" not in page
    server = json.loads((await get(served, f"/api{SERVER}"))[2])
    assert server["world_boss"] == {
        "boss": BUILTIN_BOSSES[0].name,
        "status": "live",
        "url": "/world-boss",
        "place": 1,
        "servers": 3,
        "damage": 500.5,
        "members": 2,
    }
    assert (
        "this server is 1 of 3 on the world's board, with 500.5 damage from 2 members" in (await get(served, SERVER))[2]
    )
    # The end time comes: the boss got away, and its page may be kept a while.
    await WorldBossRepository(db).apply_pending(boss.id, NOW + 3601, 1000)
    status, headers, text = await get(served, "/api/world-boss")
    ended = json.loads(text)["boss"]
    assert status == 200 and headers["Cache-Control"] == f"public, max-age={FINISHED_MAX_AGE}"
    assert (ended["status"], ended["ended_at"], ended["seconds_left"]) == ("expired", "2026-05-28T21:26:41Z", 0)
    assert "It got away: its time ran out" in (await get(served, "/world-boss"))[2]


async def test_a_felled_world_boss_names_the_server_of_the_final_blow(served):
    import json

    from tests.web.builders import world_boss

    await pages_on(served.db, OTHER_GUILD)
    await world_boss(served.db, 500.0, [(GUILD, 1001, 300.0), (OTHER_GUILD, 2001, 250.0)], NOW)
    document = json.loads((await get(served, "/api/world-boss"))[2])
    assert (document["boss"]["status"], document["boss"]["hp"]) == ("felled", 0.0)
    # a server whose name the bot was never told: named by its id
    other = {"id": str(OTHER_GUILD), "name": f"Server {OTHER_GUILD}", "url": f"/servers/{OTHER_GUILD}"}
    assert document["final_blow"] == {"server": other}
    assert [(row["server"]["name"], row["damage"]) for row in document["board"]["rows"]] == [
        ("a server", 300.0),  # GUILD's pages are off here
        (f"Server {OTHER_GUILD}", 200.0),  # the final blow is credited with what HP was left
    ]
