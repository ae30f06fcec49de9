"""The web pages under load: a server of 10,000 rated members and 100,000 finished matches on PostgreSQL.

    python -m benchmarks.web [--members N] [--matches M] [--clients C] [--seconds S] [--think T] [--processes P]

A throwaway PostgreSQL server (local_postgres/server.py) is filled as the bot fills it: every match is dealt from a
seed and played to its end by the engine (a few hundred distinct games, each stored many times over between
different members), rated in order with Arena's ratings, each member's results and rating changes stored. The moves
are stored for the matches the clients replay. Then P processes of `python -m web` serve the pages (as behind a
proxy) and C concurrent clients on loopback each open a leaderboard page, a member page or a replay step at random,
wait T seconds (a reader looking at the page; 0: at once, which measures throughput instead), and again, for S
seconds. Printed: each page's requests, median and 95th percentile, against the targets (p95 <= 50 ms). Exits 1 on a
miss. Times on a shared machine vary with what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import aiohttp

from arena.text import markdown_safe
from local_postgres.server import PostgresServer
from rules.mma.engine import outcome
from rules.mma.simulate import played_ai_match
from rules.rating import Rating, Result, rate_match
from storage.mma import MATCH_STATE
from storage.postgres import PostgresDatabase
from storage.protocol import Storage
from storage.times import stored_time

GUILD = 1111111111111111111  # Discord ids of today have 19 digits
CHANNEL = 1333333333333333333
TARGET_P95_MS = 50.0
GAMES = 200  # distinct games played by the engine; every match is one of them
REPLAYED = 500  # matches whose moves are stored, for the replay pages
BATCH = 5000
ROOT = Path(__file__).resolve().parents[1]


async def fill(db: Storage, members: int, matches: int) -> None:
    """The members, their matches and ratings, as the bot stores them, on either backend."""
    rng = random.Random(0)
    games = [played_ai_match(seed) for seed in range(1, GAMES + 1)]
    finals = [MATCH_STATE.to_text(state) for _, state in games]
    ratings: dict[int, Rating] = {}
    start = 1_780_000_000.0
    match_rows: list[tuple[object, ...]] = []
    result_rows: list[tuple[object, ...]] = []
    change_rows: list[tuple[object, ...]] = []
    for match_id in range(1, matches + 1):
        first, second = rng.sample(range(1, members + 1), 2)
        game = match_id % GAMES
        final = games[game][1]
        winner = None if (ended := outcome(final)) is None else ended.winner
        when = stored_time(start + match_id * 30)
        match_rows.append(
            (
                match_id,
                GUILD,
                CHANNEL,
                first,
                markdown_safe(f"Player_{first}", 40),
                second,
                markdown_safe(f"Player_{second}", 40),
                "over",
                game + 1,
                finals[game],
                "[]",
                when,
                winner,
                ended.termination.value if ended else None,
            )
        )
        before = (ratings.get(first, Rating()), ratings.get(second, Rating()))
        rated = rate_match(before[0], before[1], Result.of_slot(0, winner))
        for slot, (user_id, change) in enumerate(((first, rated.first), (second, rated.second))):
            ratings[user_id] = change.after
            result = Result.of_slot(slot, winner)
            opponent = second if slot == 0 else first
            reason = ended.termination.value if ended else ""
            result_rows.append((GUILD, user_id, match_id, result.value, opponent, reason, when))
            change_rows.append(
                (
                    match_id,
                    user_id,
                    GUILD,
                    opponent,
                    result.value,
                    reason,
                    change.before.mu,
                    change.before.sigma,
                    change.after.mu,
                    change.after.sigma,
                    change.after.games,
                    when,
                )
            )
    async with db.transaction() as conn:
        for chunk in range(0, len(match_rows), BATCH):
            await conn.execute_many(
                "INSERT INTO mma_matches (id, guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
                "status, seed, state_json, feed_json, last_move_at, winner_slot, result_reason) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                match_rows[chunk : chunk + BATCH],
            )
        for chunk in range(0, len(result_rows), BATCH):
            await conn.execute_many(
                "INSERT INTO mma_results (guild_id, user_id, match_id, outcome, opponent_id, reason, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                result_rows[chunk : chunk + BATCH],
            )
            await conn.execute_many(
                "INSERT INTO mma_rating_changes (match_id, user_id, guild_id, opponent_id, result, reason, mu_before, "
                "sigma_before, mu_after, sigma_after, games_after, rated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                change_rows[chunk : chunk + BATCH],
            )
        await conn.execute_many(
            "INSERT INTO mma_ratings (guild_id, user_id, mu, sigma, games, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
            [(GUILD, user, r.mu, r.sigma, r.games, stored_time(start)) for user, r in ratings.items()],
        )
        for match_id in range(1, REPLAYED + 1):
            moves = games[match_id % GAMES][0]
            await conn.execute_many(
                "INSERT INTO mma_moves (match_id, seq, slot, action_json, made_at) VALUES (?, ?, ?, ?, ?)",
                [
                    (match_id, seq, move.player, json.dumps(move.to_dict()), stored_time(start))
                    for seq, move in enumerate(moves)
                ],
            )
        await conn.execute(
            "INSERT INTO guild_settings (guild_id, web_pages, updated_at) VALUES (?, 1, ?)", (GUILD, stored_time(start))
        )
        if isinstance(db, PostgresDatabase):  # SQLite continues after the highest id by itself
            await conn.execute("SELECT setval(pg_get_serial_sequence('mma_matches', 'id'), ?)", (matches,))
    async with db.transaction() as conn:
        await conn.execute("ANALYZE")


def page_of(rng: random.Random, members: int, kind: str) -> str:
    if kind == "leaderboard":
        return f"/servers/{GUILD}?page={rng.randint(1, members // 50)}"
    if kind == "member":
        return f"/servers/{GUILD}/members/{rng.randint(1, members)}"
    return f"/servers/{GUILD}/matches/{rng.randint(1, REPLAYED)}?step={rng.randint(0, 40)}"


KINDS = ("leaderboard", "member", "replay")


async def client(
    number: int, bases: Sequence[str], members: int, until: float, think: float, times: dict[str, list[float]]
) -> None:
    rng = random.Random(number)
    base = bases[number % len(bases)]
    async with aiohttp.ClientSession() as session:
        await asyncio.sleep(rng.random() * max(think, 0.05))  # the readers arrive spread out
        while time.monotonic() < until:
            kind = rng.choice(KINDS)
            began = time.perf_counter()
            async with session.get(base + page_of(rng, members, kind)) as response:
                await response.read()
                if response.status != 200:
                    raise RuntimeError(f"{kind}: {response.status}")
            times[kind].append((time.perf_counter() - began) * 1000)
            if think:
                await asyncio.sleep(think * (0.5 + rng.random()))


def cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def serve(url: str, processes: int) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    servers: list[subprocess.Popen[bytes]] = []
    bases: list[str] = []
    for _ in range(processes):
        from local_postgres.server import free_port

        port = free_port()
        env = {**os.environ, "DATABASE_URL": url, "WEB_PORT": str(port), "WEB_RATE_LIMIT": "0", "PYTHONPATH": str(ROOT)}
        servers.append(subprocess.Popen([sys.executable, "-m", "web"], env=env, stderr=subprocess.DEVNULL))
        bases.append(f"http://127.0.0.1:{port}")
    return servers, bases


async def wait_until_up(bases: Sequence[str]) -> None:
    async with aiohttp.ClientSession() as session:
        for base in bases:
            for _ in range(200):
                try:
                    async with session.get(base + "/") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientError:
                    await asyncio.sleep(0.1)
            else:
                raise RuntimeError(f"{base} never answered")


async def run(args: argparse.Namespace) -> bool:
    pg = PostgresServer.start()
    servers: list[subprocess.Popen[bytes]] = []
    try:
        url = await pg.create_database("web_bench")
        db = await PostgresDatabase.open(url)
        began = time.perf_counter()
        await fill(db, args.members, args.matches)
        await db.close()
        print(
            f"web: {args.members:,} rated members, {args.matches:,} finished matches stored in "
            f"{time.perf_counter() - began:.0f} s; {args.processes} x python -m web, {args.clients} clients, "
            f"think {args.think} s, {args.seconds} s"
        )
        servers, bases = serve(url, args.processes)
        await wait_until_up(bases)
        warm: dict[str, list[float]] = {kind: [] for kind in KINDS}
        await asyncio.gather(*(client(n, bases, args.members, time.monotonic() + 3, 0, warm) for n in range(4)))
        times: dict[str, list[float]] = {kind: [] for kind in KINDS}
        until = time.monotonic() + args.seconds
        cpu_before = sum(cpu_seconds(server.pid) for server in servers)
        await asyncio.gather(*(client(n, bases, args.members, until, args.think, times) for n in range(args.clients)))
        cpu = sum(cpu_seconds(server.pid) for server in servers) - cpu_before
        ok = True
        for kind in KINDS:
            figures = sorted(times[kind])
            p95 = figures[int(0.95 * (len(figures) - 1))]
            met = p95 <= TARGET_P95_MS
            ok &= met
            print(
                f"  {kind:12} {len(figures):6} requests  median {statistics.median(figures):6.1f} ms  "
                f"p95 {p95:6.1f} ms  (target <= {TARGET_P95_MS:g}: {'ok' if met else 'MISSED'})"
            )
        total = sum(len(v) for v in times.values())
        print(
            f"web: {total / args.seconds:.0f} pages a second; the servers' CPU {1000 * cpu / max(total, 1):.1f} ms a page "
            f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores); targets {'ok' if ok else 'MISSED'}"
        )
        return ok
    finally:
        for server in servers:
            server.terminate()
            server.wait(10)
        pg.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--members", type=int, default=10_000)
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--processes", type=int, default=2)
    args = parser.parse_args(argv)
    return 0 if asyncio.run(run(args)) else 1


if __name__ == "__main__":
    sys.exit(main())
