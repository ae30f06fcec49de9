"""The world boss's storage on both backends (RULINGS 8 and 9): attacks stored (acknowledged) and applied in
order by one process at a time, credit adding up to the HP exactly, one final blow, nothing credited after the
fall or the end, and every acknowledged attack applied once, with several processes (storages) attacking."""

from __future__ import annotations

import asyncio
import random

import pytest

from rules.bossfight import BUILTIN_BOSSES
from rules.bossfight.world import AttackOutcome, WorldBossStatus, to_micro
from storage.bossfight import PlayerUpdate
from storage.sqlite import Database
from storage.versioned import StaleUpdate
from storage.world_boss import WorldBossRepository
from storage.world_boss_applier import WorldBossApplier
from storage.world_boss_boards import WorldBossBoards
from storage.world_boss_records import WorldBossAlreadyLive
from tests.conftest import fresh_postgres_database

NOW = 1_800_000_000.0
BOSS = BUILTIN_BOSSES[0]


@pytest.fixture(params=["sqlite", "postgres"])
async def open_storage(request, tmp_path):
    """Opens storages of one database, as separate processes would (each its own connections)."""
    opened = []
    if request.param == "sqlite":
        path = tmp_path / "arena.sqlite3"

        async def opener():
            opened.append(await Database.open(path))
            return opened[-1]
    else:
        from storage.postgres import PostgresDatabase

        url = await fresh_postgres_database(request.getfixturevalue("postgres_server"))

        async def opener():
            opened.append(await PostgresDatabase.open(url))
            return opened[-1]

    yield opener
    for db in opened:
        await db.close()


def hit(at: float = NOW, deck_damage: float = 1.0) -> PlayerUpdate:
    return PlayerUpdate(deck_damage=deck_damage, deck_hp_after=100.0, knocked_out=False, at=at)


async def spawn(repo: WorldBossRepository, hp: float, ends_in: float = 3600.0):
    return await repo.spawn(BOSS, hp, spawned_by=1, now=NOW, ends_at=NOW + ends_in, cooldown_seconds=0)


async def attack(applier: WorldBossApplier, boss_id: int, guild: int, user: int, damage: float, at: float = NOW):
    player = await applier.repo.player(boss_id, guild, user)
    attack_id = await applier.store(boss_id, guild, user, player, damage, hit(at))
    return await applier.credit(boss_id, attack_id)


async def test_decimal_attacks_fell_the_boss_and_the_next_is_told_it_came_after(open_storage):
    repo = WorldBossRepository(await open_storage())
    applier = WorldBossApplier(repo, clock=lambda: NOW)
    boss = await spawn(repo, 1000)
    with pytest.raises(WorldBossAlreadyLive):
        await spawn(repo, 5)
    results = [await attack(applier, boss.id, 10 + i % 2, 100 + i, d) for i, d in enumerate([333.3, 333.3, 333.4])]
    assert [(r.outcome, r.credited_micro) for r in results] == [
        (AttackOutcome.CREDITED, 333_300_000),
        (AttackOutcome.CREDITED, 333_300_000),
        (AttackOutcome.FINAL_BLOW, 333_400_000),
    ]
    late = await attack(applier, boss.id, 11, 200, 80.0)
    assert (late.outcome, late.credited_micro) == (AttackOutcome.AFTER_FALL, 0)
    fallen = await repo.get(boss.id)
    assert fallen is not None
    assert (fallen.status, fallen.hp_micro, fallen.final_attack_id) == (WorldBossStatus.FELLED, 0, results[2].id)
    assert fallen.ended_at is not None
    world = await WorldBossBoards(repo.db).world_board(boss.id)
    assert [(s.guild_id, s.credited_micro, s.members) for s in world] == [
        (10, 666_700_000, 2),
        (11, 333_300_000, 2),  # the late attacker attacked, for 0
    ]
    assert sum(s.credited_micro for s in world) == to_micro(1000)
    board = await WorldBossBoards(repo.db).server_board(boss.id, 10)
    assert [(m.user_id, m.credited, m.attacks) for m in board] == [(102, 333.4, 1), (100, 333.3, 1)]
    await applier.close()


async def test_an_attack_stored_after_the_end_time_credits_nothing_and_the_boss_expires(open_storage):
    repo = WorldBossRepository(await open_storage())
    clock = [NOW]
    applier = WorldBossApplier(repo, clock=lambda: clock[0])
    boss = await spawn(repo, 1000, ends_in=60)
    first = await attack(applier, boss.id, 10, 100, 10.0, at=NOW + 59)
    clock[0] = NOW + 61
    late = await attack(applier, boss.id, 10, 101, 10.0, at=NOW + 61)
    assert (first.outcome, first.credited_micro) == (AttackOutcome.CREDITED, 10_000_000)
    assert (late.outcome, late.credited_micro) == (AttackOutcome.AFTER_END, 0)
    ended = await repo.get(boss.id)
    assert ended is not None
    assert (ended.status, ended.hp, ended.final_attack_id) == (WorldBossStatus.EXPIRED, 990.0, None)
    assert await repo.live() is None
    await applier.close()


async def test_a_stale_standing_stores_nothing_and_a_revive_resets_it(open_storage):
    repo = WorldBossRepository(await open_storage())
    boss = await spawn(repo, 1000)
    before = await repo.player(boss.id, 10, 100)
    await repo.store_attack(boss.id, 10, 100, before, 5.0, hit(deck_damage=30.0))
    with pytest.raises(StaleUpdate):
        await repo.store_attack(boss.id, 10, 100, before, 5.0, hit())
    assert await repo.pending_count(boss.id) == 1
    assert (await repo.player(boss.id, 10, 100)).standing.damage_taken == 30.0
    assert await repo.revive(boss.id, 10, 100) == 30.0
    assert await repo.revive(boss.id, 10, 100) is None
    assert (await repo.player(boss.id, 10, 100)).standing.damage_taken == 0.0


async def test_four_processes_attack_at_once_until_the_fall_and_every_credit_adds_up(open_storage):
    """Four storages (processes), each with its own applier, 12 members each attacking with decimal damage until
    the boss falls: every acknowledged attack is applied once, the credit adds up to the HP exactly, one final
    blow, and what each attacker was told is what was stored."""
    storages = [await open_storage() for _ in range(4)]
    appliers = [WorldBossApplier(WorldBossRepository(db), clock=lambda: NOW) for db in storages]
    boss = await spawn(appliers[0].repo, 2000.5)
    told = []
    rng = random.Random(5)

    async def member(applier: WorldBossApplier, guild: int, user: int) -> None:
        while True:
            result = await attack(applier, boss.id, guild, user, round(rng.uniform(0.1, 30), 7))
            told.append(result)
            if result.outcome is not AttackOutcome.CREDITED:
                return

    await asyncio.gather(
        *(member(applier, 10 + p, 100 * p + m) for p, applier in enumerate(appliers) for m in range(12))
    )
    repo = appliers[0].repo
    rows = await storages[0].fetch_all("SELECT id, outcome, credited_micro FROM world_boss_attacks ORDER BY id")
    assert len(rows) == len(told) == len({r.id for r in told})
    assert {r["id"]: (r["outcome"], r["credited_micro"]) for r in rows} == {
        r.id: (r.outcome, r.credited_micro) for r in told
    }
    assert sum(r["credited_micro"] for r in rows) == to_micro(2000.5)
    finals = [r for r in rows if r["outcome"] == AttackOutcome.FINAL_BLOW]
    assert len(finals) == 1
    fallen = await repo.get(boss.id)
    assert fallen is not None
    assert (fallen.status, fallen.final_attack_id, fallen.applied) == (
        WorldBossStatus.FELLED,
        finals[0]["id"],
        len(rows),
    )
    assert sum(s.credited_micro for s in await WorldBossBoards(repo.db).world_board(boss.id)) == to_micro(2000.5)
    for applier in appliers:
        await applier.close()
    assert await repo.lease(boss.id) == (None, 0.0)


def test_the_shell_spawns_the_world_boss_and_refuses_a_second(tmp_path, monkeypatch, capsys):
    from storage.__main__ import main

    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.chdir(tmp_path)  # no .env of a developer's
    database = tmp_path / "arena.sqlite3"
    assert (
        main(["world-spawn", "--boss", "inu dogemon", "--multiplier", "3", "--days", "2", "--database", str(database)])
        == 0
    )
    assert capsys.readouterr().out == "spawned world boss #1: Inu Dogemon, 3000 HP, for 2 days\n"
    with pytest.raises(SystemExit, match="Inu Dogemon is the world boss still"):
        main(["world-spawn", "--boss", "Inu Dogemon", "--database", str(database)])
    with pytest.raises(SystemExit, match="--days must be above 0 and at most 14"):
        main(["world-spawn", "--boss", "Inu Dogemon", "--days", "15", "--database", str(database)])
