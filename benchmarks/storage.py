"""Storage under concurrent writers: operations per second with 50 and 200 writers at once.

    python -m benchmarks.storage [--writers 50 200] [--seconds 5] [--delay-ms 10] [--pool-size 10]

Half the writers play MMA moves (each its own match against the AI: load, apply the AI's next move, save
with the version check), half attack one shared boss (record_attack, retried on a lost version race, as
the cog does). Every operation is one transaction through the repositories the bot uses, on SQLite (a file in
a temporary folder) and on PostgreSQL (a throwaway local server, as in the tests; skipped where none is
installed). A last line runs PostgreSQL through a proxy that holds every packet `--delay-ms` each way, as a
database on another machine is: there every statement costs a round trip, and only writes that run in
parallel keep the rate up. Its attackers are spread over raids of five, as in a server's channels: every
attack on one raid holds that raid's row for its round trips, so one raid takes a few attacks a second.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from local_postgres.delay_proxy import delay_proxy
from local_postgres.server import PostgresMissing, PostgresServer
from rules.bossfight import BUILTIN_BOSSES
from rules.mma.ai import choose_action
from rules.mma.engine import apply_in_place, new_game, replay_rng
from rules.mma.state import OVER
from storage.bossfight import BossfightRepository, PlayerUpdate
from storage.mma import Match, MmaRepository
from storage.postgres import PostgresDatabase
from storage.protocol import DEFAULT_POOL_SIZE, Storage
from storage.sqlite import Database
from storage.versioned import StaleUpdate

GUILD, CHANNEL = 1, 2


async def new_match(repo: MmaRepository, user_id: int, channel_id: int, seed: int) -> Match:
    state, _ = new_game(seed)
    return await repo.create(
        GUILD, channel_id, (user_id, None), ("P", "AI"), seed, time.time(), state=state, feed=[], expire_before=0.0
    )


async def mma_writer(repo: MmaRepository, user_id: int, deadline: float) -> int:
    match = await new_match(repo, user_id, 1000 + user_id, user_id)
    done = 0
    while time.perf_counter() < deadline:
        stored = await repo.get(match.id)
        assert stored is not None
        if stored.game.phase == OVER:  # the next match, in a channel of its own
            match = stored = await new_match(repo, user_id, 1000 + user_id + 100_000 * done, user_id + done)
        state = stored.game
        action = choose_action(state, state.to_move, replay_rng(state))
        apply_in_place(state, action, replay_rng(state))
        await repo.save_moves(stored, state, [], [action], time.time())
        done += 1
    return done


async def boss_writer(repo: BossfightRepository, raid_id: int, user_id: int, deadline: float) -> int:
    done = 0
    while time.perf_counter() < deadline:
        for _ in range(3):  # the cog's retry on a lost race
            player = await repo.player(raid_id, user_id)
            update = PlayerUpdate(deck_damage=0.0, deck_hp_after=100.0, knocked_out=False, at=time.time())
            try:
                await repo.record_attack(raid_id, user_id, player, 0.001, update)
                break
            except StaleUpdate:
                continue
        done += 1
    return done


async def measure(db: Storage, writers: int, seconds: float, attackers_per_raid: int | None = None) -> tuple[int, int]:
    """MMA moves and boss attacks done in `seconds`; the attackers share one raid, or make raids of
    `attackers_per_raid`."""
    try:
        bosses, matches = BossfightRepository(db), MmaRepository(db)
        attackers = writers - writers // 2
        raids = [
            await bosses.spawn(GUILD, CHANNEL + i, BUILTIN_BOSSES[0], 1, replace=True)
            for i in range(1 if attackers_per_raid is None else -(-attackers // attackers_per_raid))
        ]
        deadline = time.perf_counter() + seconds
        moves = [mma_writer(matches, 10 + i, deadline) for i in range(writers // 2)]
        attacks = [
            boss_writer(
                bosses, raids[0 if attackers_per_raid is None else i // attackers_per_raid].id, 500 + i, deadline
            )
            for i in range(attackers)
        ]
        counts = await asyncio.gather(*moves, *attacks)
        return sum(counts[: len(moves)]), sum(counts[len(moves) :])
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.storage", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--writers", type=int, nargs="+", default=[50, 200])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--delay-ms", type=float, default=10.0, help="each way, for the last line (0: none)")
    parser.add_argument(
        "--pool-size", type=int, default=DEFAULT_POOL_SIZE, help="PostgreSQL connections (DATABASE_POOL_SIZE)"
    )
    args = parser.parse_args(argv)
    rows: list[tuple[str, int, int, int]] = []
    with tempfile.TemporaryDirectory() as scratch:
        for writers in args.writers:

            async def on_sqlite(writers: int = writers) -> tuple[int, int]:
                path = Path(scratch) / f"bench-{writers}.sqlite3"
                return await measure(await Database.open(path), writers, args.seconds)

            rows.append(("SQLite", writers, *asyncio.run(on_sqlite())))
    try:
        server = PostgresServer.start()
    except PostgresMissing as missing:
        print(f"PostgreSQL skipped: {missing}")
    else:
        try:
            for number, writers in enumerate(args.writers):

                async def on_postgres(name: str = f"bench_{number}", writers: int = writers):
                    url = await server.create_database(name)
                    return await measure(await PostgresDatabase.open(url, args.pool_size), writers, args.seconds)

                rows.append(("PostgreSQL", writers, *asyncio.run(on_postgres())))
            if args.delay_ms > 0:
                writers = args.writers[0]

                async def through_delay() -> tuple[int, int]:
                    url = await server.create_database("bench_delay")
                    await (await PostgresDatabase.open(url)).close()  # migrated without the delay
                    async with delay_proxy(server.port, args.delay_ms / 1000) as proxy:
                        database = await PostgresDatabase.open(proxy.url(url), args.pool_size)
                        return await measure(database, writers, args.seconds, attackers_per_raid=5)

                label = f"PostgreSQL, {args.delay_ms * 2:g} ms a round trip, 5 attackers a raid"
                rows.append((label, writers, *asyncio.run(through_delay())))
        finally:
            server.stop()
    print(f"storage: concurrent writers for {args.seconds:g} s each; PostgreSQL with {args.pool_size} connections")
    print("| backend | writers | MMA moves/s | boss attacks/s | all/s | against SQLite |\n|---|---|---|---|---|---|")
    sqlite_rate = {writers: moves + attacks for backend, writers, moves, attacks in rows if backend == "SQLite"}
    for backend, writers, moves, attacks in rows:
        total = moves + attacks
        ratio = f"{total / sqlite_rate[writers]:.2f}×" if sqlite_rate.get(writers) else ""
        print(
            f"| {backend} | {writers} | {moves / args.seconds:,.0f} | {attacks / args.seconds:,.0f} | "
            f"{total / args.seconds:,.0f} | {ratio} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
