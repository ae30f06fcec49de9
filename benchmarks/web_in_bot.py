"""The bot's click answers while its own process serves the web pages (issue 42): `python -m benchmarks.web_in_bot`.

    python -m benchmarks.web_in_bot [--members N] [--matches M] [--readers R] [--think T] [--clicks C] [--pause P]

A SQLite file is filled as benchmarks/web.py fills its PostgreSQL (rated members, finished matches, replays; a few
hundred members, a few thousand matches, are enough here: the figure is the bot's answers, not the pages'). The offline harness's bot opens it with
WEB_PORT set, so the pages are served on its event loop, by its process. R concurrent readers on loopback open a
leaderboard page, a member page or a replay step at random, each about every T seconds (benchmarks/web.py's
client), while Bob presses the MMA "My hand" button C times, P seconds after each answer (so the clicks span the
readers' pages), each timed from the click to Discord's receipt of the answer (benchmarks/waits.py's timed_clicks):
with no readers, with the readers; then, the long jobs benchmarks/waits.py runs started (four /deck optimize and an
/mfd odds, every /deck job playing), without and with the readers. The rows without readers are for comparison.
Printed against benchmarks/waits.py's click target (p99); exits 1 on a miss. Times on a shared machine vary with
what else runs on it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.waits import TARGETS, percentile, start_long_jobs, timed_clicks
from benchmarks.web import KINDS, client, fill, wait_until_up
from local_postgres.server import free_port
from offline_discord.harness import FakeDiscord, Harness, make_settings, start_bot
from storage.sqlite import Database


async def clicks_beside_readers(
    h: Harness, base: str, args: argparse.Namespace, pages: dict[str, list[float]]
) -> list[float]:
    """The clicks' answer times while `args.readers` readers open pages (their times added to `pages`)."""
    readers = [
        asyncio.create_task(client(number, [base], args.members, float("inf"), args.think, pages))
        for number in range(args.readers)
    ]
    try:
        await asyncio.sleep(args.think)  # every reader has arrived
        return await timed_clicks(h, args.clicks, args.pause)
    finally:
        for reader in readers:
            reader.cancel()
        for outcome in await asyncio.gather(*readers, return_exceptions=True):
            if not isinstance(outcome, asyncio.CancelledError):
                raise RuntimeError(f"a page reader failed: {outcome!r}")


async def run(args: argparse.Namespace) -> bool:
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "arena.sqlite3"
        db = await Database.open(path)
        await fill(db, args.members, args.matches)
        await db.close()
        port = free_port()
        fake, settings = FakeDiscord(), make_settings(path, web_port=port, web_rate_limit=0)
        h = Harness(await start_bot(settings, fake), fake, settings)
        try:
            base = f"http://127.0.0.1:{port}"
            await wait_until_up([base])
            alone = await timed_clicks(h, args.clicks, args.pause)
            pages: dict[str, list[float]] = {kind: [] for kind in KINDS}
            began = time.monotonic()
            beside_readers = await clicks_beside_readers(h, base, args, pages)
            served = sum(len(times) for times in pages.values()) / (time.monotonic() - began)
            await start_long_jobs(h, once_loaded=True)
            jobs_alone = await timed_clicks(h, args.clicks, args.pause)
            jobs_pages: dict[str, list[float]] = {kind: [] for kind in KINDS}
            beside_jobs = await clicks_beside_readers(h, base, args, jobs_pages)
        finally:
            await h.bot.close()
    target = TARGETS["click_p99"]
    print(
        f"web_in_bot: {args.members} members, {args.matches} matches on SQLite; the offline bot serves the pages "
        f"(WEB_PORT) to {args.readers} readers on loopback, each about every {args.think} s"
    )
    print('| click answer (MMA "My hand"), in the bot\'s process serving its pages | p50 / p99 | target | |')
    print("|---|---|---|---|")
    ok = True
    for what, times, targeted in (
        (f"no readers, {len(alone)} clicks (for comparison)", alone, False),
        (f"{args.readers} readers ({served:.0f} pages a second), {len(beside_readers)} clicks", beside_readers, True),
        ("the long jobs of benchmarks.waits, no readers (for comparison)", jobs_alone, False),
        (
            f"{args.readers} readers and the long jobs of benchmarks.waits (4 /deck playing, /mfd odds), "
            f"{len(beside_jobs)} clicks",
            beside_jobs,
            True,
        ),
    ):
        p99 = percentile(times, 0.99)
        met = p99 <= target
        ok &= met or not targeted
        verdict = ("ok" if met else "MISSED") if targeted else ""
        print(
            f"| {what} | {1000 * statistics.median(times):.0f} / {1000 * p99:.0f} ms | "
            f"{f'p99 <= {1000 * target:.0f} ms' if targeted else ''} | {verdict} |"
        )
    for label, measured in (("with readers", pages), ("with readers and jobs", jobs_pages)):
        every = sorted(t for times in measured.values() for t in times)
        print(
            f"pages {label}: {len(every)} served, median {statistics.median(every):.0f} ms, "
            f"p95 {percentile(every, 0.95):.0f} ms"
        )
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; targets {'ok' if ok else 'MISSED'}")
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.web_in_bot", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--members", type=int, default=300)
    parser.add_argument("--matches", type=int, default=3000)  # about 20 a member: every member has played
    parser.add_argument("--readers", type=int, default=50)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--clicks", type=int, default=200)
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between an answer and the next click")
    args = parser.parse_args(argv)
    return 0 if asyncio.run(run(args)) else 1


if __name__ == "__main__":
    sys.exit(main())
