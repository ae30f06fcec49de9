"""The world boss under load (issue 40): 8 processes attacking one boss on one local PostgreSQL.

    python -m benchmarks.world_boss [--processes 8] [--seconds 30] [--members 24]

Each process opens its own pool and attacks through the path `/bossfight world attack` takes, without Discord:
`WorldBossApplier.attack` (the member's standing, the engine's `calculate_attack`, the attack stored), then
`credit` (waiting for the attack to be applied). Three runs, each on a throwaway server (as the tests use):
1. throughput: for --seconds, acknowledged (stored, committed) attacks a second in all, and the p99 time from an
   attack's start to its acknowledgement; targets 1,000/s and 250 ms;
2. a boss felled under that load: its credited damage adds up to its HP exactly, with one final blow;
3. one process killed with kill -9 midway: every attack it had acknowledged is stored and applied.
Exits 1 when a figure misses its target.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from local_postgres.server import PostgresMissing, PostgresServer
from rules.bossfight import BUILTIN_BOSSES, calculate_attack, parse_deck
from rules.bossfight.models import Boss
from rules.bossfight.world import AttackOutcome, WorldBossStatus
from storage.postgres import PostgresDatabase
from storage.world_boss import WorldBossRepository
from storage.world_boss_applier import WorldBossApplier

TARGET_RATE = 1000.0
TARGET_P99_MS = 250.0
DECK = (
    "token,trait,element,health,physical_damage,physical_penetration,physical_resistance,"
    "magical_damage,magical_penetration,magical_resistance\n"
    "Fox,Bite,Fire,5000,300,N,Y,0,N,N\n"
    "Owl,Hoot,Air,7000,0,N,N,100,N,N\n"
)
# A boss that deals no damage, so no member is knocked out during a run.
HARMLESS = Boss.model_validate({**BUILTIN_BOSSES[0].model_dump(), "physical_damage": 0, "magical_damage": 0})


async def attacker(applier: WorldBossApplier, boss_id: int, guild: int, user: int, until: float, log: dict) -> None:
    repo = applier.repo
    boss = await repo.get(boss_id)
    assert boss is not None
    deck = parse_deck(DECK, "deck.csv")

    async def work_out(taken: float):
        return calculate_attack(boss.boss, deck, None, taken)

    while time.time() < until:
        started = time.perf_counter()
        attack_id, _ = await applier.attack(boss, guild, user, time.time(), work_out)
        acknowledged = time.perf_counter()
        log["acked"].append(attack_id)
        os.write(log["fd"], f"{attack_id}\n".encode())  # unbuffered: a kill -9 keeps what was written
        log["ack_ms"].append((acknowledged - started) * 1000)
        log["ack_at"].append(time.time())
        result = await applier.credit(boss_id, attack_id)
        log["credit_ms"].append((time.perf_counter() - started) * 1000)
        if result.outcome not in (AttackOutcome.CREDITED,):
            return


def started(out: str, go: str) -> tuple[float, float]:
    """Say this process is connected (`out`.ready), then wait for the start and end times in `go`."""
    Path(out + ".ready").touch()
    while not Path(go).exists():
        time.sleep(0.02)
    start, until = map(float, Path(go).read_text().split())
    return start, until


async def worker(url: str, boss_id: int, process: int, members: int, go: str, out: str) -> dict:
    """One process: connected, it waits for the start, then its members attack until the end; its log."""
    db = await PostgresDatabase.open(url, pool_size=10)
    applier = WorldBossApplier(WorldBossRepository(db))
    fd = os.open(out + ".acked", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    log: dict = {"acked": [], "ack_ms": [], "ack_at": [], "credit_ms": [], "fd": fd}
    start, until = await asyncio.to_thread(started, out, go)
    await asyncio.sleep(max(0.0, start - time.time()))
    attackers = (attacker(applier, boss_id, 1000 + process, 10_000 * process + m, until, log) for m in range(members))
    await asyncio.gather(*attackers)
    await applier.close()
    await db.close()
    os.close(log.pop("fd"))
    return log


def start_workers(
    url: str, boss_id: int, args: argparse.Namespace, seconds: float, folder: str
) -> tuple[list[subprocess.Popen], list[str], float]:
    """The processes, started together once every one is connected: them, their output files, the start time."""
    name = Path(url).name
    outs = [str(Path(folder) / f"{name}-{p}.json") for p in range(args.processes)]
    go = str(Path(folder) / f"{name}.go")
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "benchmarks.world_boss",
                "--worker",
                url,
                str(boss_id),
                str(p),
                str(args.members),
                go,
                outs[p],
            ]
        )
        for p in range(args.processes)
    ]
    while not all(Path(out + ".ready").exists() for out in outs):
        time.sleep(0.05)
    start = time.time() + 0.5
    Path(go + ".tmp").write_text(f"{start} {start + seconds}")
    Path(go + ".tmp").rename(go)
    return procs, outs, start


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


async def spawn(url: str, hp: float) -> int:
    db = await PostgresDatabase.open(url)
    try:
        repo = WorldBossRepository(db)
        boss = await repo.spawn(
            HARMLESS, hp, spawned_by=1, now=time.time(), ends_at=time.time() + 3600, cooldown_seconds=0
        )
        return boss.id
    finally:
        await db.close()


async def audit(url: str, boss_id: int, acked: set[int]) -> dict:
    """Settle what is pending, then check the boss's record: every acknowledged attack stored and applied once,
    the credit adding up to the HP removed, and at most one final blow."""
    db = await PostgresDatabase.open(url)
    try:
        repo = WorldBossRepository(db)
        await WorldBossApplier(repo).settle(boss_id)
        boss = await repo.get(boss_id)
        assert boss is not None
        rows = await db.fetch_all(
            "SELECT id, outcome, credited_micro FROM world_boss_attacks WHERE boss_id = $1", (boss_id,)
        )
        stored = {r["id"]: r for r in rows}
        return {
            "boss": boss,
            "stored": len(rows),
            "lost": len(acked - stored.keys()),
            "pending": sum(1 for r in rows if r["outcome"] is None),
            "credited": sum(r["credited_micro"] or 0 for r in rows),
            "finals": [r["id"] for r in rows if r["outcome"] == AttackOutcome.FINAL_BLOW],
        }
    finally:
        await db.close()


def collect(outs: list[str]) -> tuple[list[dict], set[int]]:
    logs, acked = [], set()
    for out in outs:
        if Path(out).exists():
            logs.append(json.loads(Path(out).read_text()))
        acked |= (
            {int(line) for line in Path(out + ".acked").read_text().split()} if Path(out + ".acked").exists() else set()
        )
    return logs, acked


def line(name: str, value: str, target: str, ok: bool) -> bool:
    print(f"| {name} | {value} | {target} | {'met' if ok else 'MISSED'} |")
    return ok


def run(server: PostgresServer, args: argparse.Namespace) -> bool:
    ok = True
    with tempfile.TemporaryDirectory() as folder:
        print(
            f"world boss: {args.processes} processes x {args.members} members, one local PostgreSQL; {os.cpu_count()} cores (shared with whatever else runs)"
        )
        print("| figure | measured | target | |\n|---|---|---|---|")
        # 1. throughput and latency
        url = asyncio.run(server.create_database("wb_rate"))
        boss_id = asyncio.run(spawn(url, 1e12))
        procs, outs, start = start_workers(url, boss_id, args, args.seconds, folder)
        for proc in procs:
            proc.wait()
        logs, acked = collect(outs)
        ack_ms = [ms for log in logs for ms in log["ack_ms"]]
        credit_ms = [ms for log in logs for ms in log["credit_ms"]]
        in_window = sum(1 for log in logs for at in log["ack_at"] if start <= at <= start + args.seconds)
        rate = in_window / args.seconds
        ok &= line("acknowledged attacks/s", f"{rate:,.0f}", f">= {TARGET_RATE:,.0f}", rate >= TARGET_RATE)
        p99 = percentile(ack_ms, 0.99)
        ok &= line(
            "p99 start -> acknowledged",
            f"{p99:.0f} ms (p50 {percentile(ack_ms, 0.5):.0f})",
            f"<= {TARGET_P99_MS:.0f} ms",
            p99 <= TARGET_P99_MS,
        )
        line(
            "p99 start -> credit told",
            f"{percentile(credit_ms, 0.99):.0f} ms (p50 {percentile(credit_ms, 0.5):.0f})",
            "(shown)",
            True,
        )
        checked = asyncio.run(audit(url, boss_id, acked))
        ok &= line("acknowledged attacks lost", str(checked["lost"]), "0", checked["lost"] == 0)
        # 2. a boss felled under load: about 8 s of attacks at the measured rate (400 damage each)
        url = asyncio.run(server.create_database("wb_fell"))
        hp = max(10_000.0, rate * 8 * 400 + 0.123456)
        boss_id = asyncio.run(spawn(url, hp))
        procs, outs, _ = start_workers(url, boss_id, args, 60.0, folder)
        for proc in procs:
            proc.wait()
        _, acked = collect(outs)
        checked = asyncio.run(audit(url, boss_id, acked))
        boss = checked["boss"]
        exact = boss.status is WorldBossStatus.FELLED and checked["credited"] == boss.max_hp_micro
        ok &= line(
            "felled boss: credit = HP",
            f"{checked['credited']} of {boss.max_hp_micro} micro-HP ({checked['stored']} attacks)",
            "equal",
            exact,
        )
        one = checked["finals"] == [boss.final_attack_id]
        ok &= line("felled boss: final blows", str(len(checked["finals"])), "1", one)
        ok &= line("felled boss: acknowledged lost", str(checked["lost"]), "0", checked["lost"] == 0)
        # 3. one process killed with kill -9 midway
        url = asyncio.run(server.create_database("wb_kill"))
        boss_id = asyncio.run(spawn(url, 1e12))
        seconds = min(args.seconds, 10.0)
        procs, outs, start = start_workers(url, boss_id, args, seconds, folder)
        time.sleep(max(0.0, start - time.time()) + seconds / 2)
        victim = Path(outs[0] + ".acked")
        while time.time() < start + seconds and not (victim.exists() and victim.read_text().count("\n") >= 10):
            time.sleep(0.05)  # midway, once it has acknowledged attacks
        os.kill(procs[0].pid, signal.SIGKILL)
        for proc in procs:
            proc.wait()
        _, acked = collect(outs)
        killed_acked = len(victim.read_text().split()) if victim.exists() else 0
        checked = asyncio.run(audit(url, boss_id, acked))
        boss = checked["boss"]
        adds_up = checked["credited"] == boss.max_hp_micro - boss.hp_micro and checked["pending"] == 0
        ok &= line(
            "kill -9: acknowledged attacks lost",
            f"{checked['lost']} (of {len(acked)}; {killed_acked} by the killed process)",
            "0",
            checked["lost"] == 0 and killed_acked > 0,
        )
        ok &= line(
            "kill -9: every stored attack applied, credit = HP removed", "yes" if adds_up else "no", "yes", adds_up
        )
    return ok


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        url, boss_id, process, members, go, out = argv[1:]
        log = asyncio.run(worker(url, int(boss_id), int(process), int(members), go, out))
        Path(out).write_text(json.dumps(log))
        return 0
    parser = argparse.ArgumentParser(prog="python -m benchmarks.world_boss", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--processes", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--members", type=int, default=40, help="attacking at once in each process")
    args = parser.parse_args(argv)
    try:
        server = PostgresServer.start()
    except PostgresMissing as missing:
        print(f"PostgreSQL skipped: {missing}")
        return 0
    try:
        return 0 if run(server, args) else 1
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
