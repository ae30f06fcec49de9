"""Storage under concurrent writers: operations per second with 50 writers at once.

    python -m benchmarks.storage [--writers 50] [--seconds 5]

Half the writers play MMA moves (each its own match against the AI: load, apply the AI's next move, save
with the version check), half attack one shared boss (record_attack, retried on a lost version race, as
the cog does). Every operation is one transaction through the repositories the bot uses, on SQLite (a file in
a temporary folder) and on PostgreSQL (a throwaway local server, as in the tests; skipped where none is
installed).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from rules.bossfight import BUILTIN_BOSSES
from rules.mma.ai import choose_action
from rules.mma.engine import apply_in_place, new_game, replay_rng
from storage.bossfight import BossfightRepository, PlayerUpdate
from storage.database import Database, StaleUpdate, Storage
from storage.mma import MatchRecord, MmaRepository
from storage.postgres import PostgresDatabase
from tests.storage.postgres import PostgresMissing, PostgresServer

GUILD, CHANNEL = 1, 2


async def new_match(repo: MmaRepository, user_id: int, channel_id: int, seed: int) -> MatchRecord:
    state, _ = new_game(seed)
    return await repo.create(
        GUILD, channel_id, (user_id, None), ("P", "AI"), seed, time.time(), state=state, feed=[], expire_before=0.0
    )


async def mma_writer(repo: MmaRepository, user_id: int, deadline: float) -> int:
    match = await new_match(repo, user_id, 1000 + user_id, user_id)
    done = 0
    while time.perf_counter() < deadline:
        record = await repo.get(match.id)
        assert record is not None
        if record.game.phase == "over":  # the next match, in a channel of its own
            match = record = await new_match(repo, user_id, 1000 + user_id + 100_000 * done, user_id + done)
        state = record.game
        action = choose_action(state, state.to_move, replay_rng(state))
        apply_in_place(state, action, replay_rng(state))
        await repo.save_moves(record, state, [], [action], time.time())
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


async def measure(db: Storage, writers: int, seconds: float) -> tuple[int, int]:
    try:
        bosses, matches = BossfightRepository(db), MmaRepository(db)
        raid = await bosses.spawn(GUILD, CHANNEL, BUILTIN_BOSSES[0], 1, replace=True)
        deadline = time.perf_counter() + seconds
        moves = [mma_writer(matches, 10 + i, deadline) for i in range(writers // 2)]
        attacks = [boss_writer(bosses, raid.id, 500 + i, deadline) for i in range(writers - writers // 2)]
        counts = await asyncio.gather(*moves, *attacks)
        return sum(counts[: len(moves)]), sum(counts[len(moves) :])
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.storage", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--writers", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as scratch:

        async def on_sqlite() -> tuple[int, int]:
            return await measure(await Database.open(Path(scratch) / "bench.sqlite3"), args.writers, args.seconds)

        rows.append(("SQLite", *asyncio.run(on_sqlite())))
    try:
        server = PostgresServer.start()
    except PostgresMissing as missing:
        print(f"PostgreSQL skipped: {missing}")
    else:
        try:

            async def on_postgres() -> tuple[int, int]:
                return await measure(await PostgresDatabase.open(server.url), args.writers, args.seconds)

            rows.append(("PostgreSQL", *asyncio.run(on_postgres())))
        finally:
            server.stop()
    print(f"storage: {args.writers} concurrent writers for {args.seconds:g} s each")
    print("| backend | MMA moves/s | boss attacks/s | all/s |\n|---|---|---|---|")
    for backend, moves, attacks in rows:
        total = moves + attacks
        print(
            f"| {backend} | {moves / args.seconds:,.0f} | {attacks / args.seconds:,.0f} | {total / args.seconds:,.0f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
