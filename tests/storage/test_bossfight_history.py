"""A boss raid's record (RULINGS 7) as stored: credited damage and overkill per attack, knock-outs kept through
revives, a channel's finished raids, and the attacks made before migration 0009 filled in by it."""

from __future__ import annotations

import sqlite3
import time

from rules.bossfight import BUILTIN_BOSSES
from rules.bossfight.raid import RAIDERS, RaidEnd
from rules.contract import Outcome
from storage.bossfight import BossfightRepository, PlayerUpdate, RaidStatus
from storage.sqlite import Database
from tests.storage.migrated import migrate_before

GUILD, CHANNEL = 10, 20
DOGEMON = BUILTIN_BOSSES[0]  # 1000 HP


async def attack(repo: BossfightRepository, raid_id: int, user_id: int, damage: float, *, knocked_out: bool = False):
    player = await repo.player(raid_id, user_id)
    update = PlayerUpdate(
        deck_damage=50.0, deck_hp_after=0.0 if knocked_out else 10.0, knocked_out=knocked_out, at=time.time()
    )
    return await repo.record_attack(raid_id, user_id, player, damage, update)


async def test_the_record_of_a_felled_raid_is_kept_and_queryable_per_player(database):
    repo = BossfightRepository(database)
    raid = await repo.spawn(GUILD, CHANNEL, DOGEMON, 1, replace=False)
    assert raid.outcome() is None
    await attack(repo, raid.id, 100, 700, knocked_out=True)
    assert await repo.revive(raid.id, 100) == 50.0
    await attack(repo, raid.id, 200, 250)
    final = await attack(repo, raid.id, 100, 400)  # 50 left: credited 50, overkill 350
    assert (final.hp_before, final.credited, final.overkill, final.defeated_now) == (50.0, 50.0, 350.0, True)
    assert final.raid.status is RaidStatus.DEFEATED and final.raid.ended_at
    assert final.raid.outcome() == Outcome(RAIDERS, RaidEnd.FELLED)

    record = await repo.finished_raid(CHANNEL, raid.id)
    assert record is not None and record.final_blow_by == 100
    assert [(t.user_id, t.damage, t.overkill, t.attacks, t.taken, t.knockouts, t.taken_now) for t in record.totals] == [
        (100, 750.0, 350.0, 2, 100.0, 1, 50.0),
        (200, 250.0, 0.0, 1, 50.0, 0, 50.0),
    ]
    assert sum(t.damage for t in record.totals) == DOGEMON.health
    assert await repo.finished_raid(CHANNEL + 1, raid.id) is None  # another channel's history
    assert [r.id for r in await repo.finished_raids(CHANNEL, 10)] == [raid.id]

    # What a profile across raids reads: a player's credited damage and the bosses they felled.
    row = await database.fetch_one(
        "SELECT sum(a.credited) AS dealt, count(DISTINCT a.raid_id) AS raids, "
        "sum(CASE WHEN a.boss_hp_after <= 0 THEN 1 ELSE 0 END) AS final_blows "
        "FROM bossfight_attacks AS a JOIN bossfight_raids AS r ON r.id = a.raid_id "
        "WHERE a.user_id = ? AND r.status = ?",
        (100, RaidStatus.DEFEATED),
    )
    assert row is not None and (row["dealt"], row["raids"], int(row["final_blows"])) == (750.0, 1, 1)


async def test_attacks_too_small_to_move_the_stored_hp_are_credited_nothing(database):
    # RULINGS 8, the audit's example: three attacks of 4e-07 on 1000 HP, then a blow of 1000. Credited whole,
    # the raid's credits came to 1000.0000012 on a 1000-HP boss; now they add up to 1000 exactly.
    repo = BossfightRepository(database)
    raid = await repo.spawn(GUILD, CHANNEL, DOGEMON, 1, replace=False)
    for _ in range(3):
        await attack(repo, raid.id, 100, 4e-07)
    final = await attack(repo, raid.id, 200, 1000)
    assert (final.hp_before, final.credited, final.defeated_now) == (1000.0, 1000.0, True)
    rows = await database.fetch_all(
        "SELECT user_id, damage, credited, boss_hp_after FROM bossfight_attacks ORDER BY id"
    )
    assert [tuple(r) for r in rows] == [
        (100, 4e-07, 0.0, 1000.0),
        (100, 4e-07, 0.0, 1000.0),
        (100, 4e-07, 0.0, 1000.0),
        (200, 1000.0, 1000.0, 0.0),
    ]
    totals = await repo.leaderboard(raid.id)
    assert [(t.user_id, t.damage, t.attacks) for t in totals] == [(200, 1000.0, 1), (100, 0.0, 3)]
    assert sum(t.damage for t in totals) == DOGEMON.health == 1000


async def test_a_replaced_raid_is_finished_without_a_final_blow(database):
    repo = BossfightRepository(database)
    first = await repo.spawn(GUILD, CHANNEL, DOGEMON, 1, replace=False)
    await attack(repo, first.id, 100, 300)
    second = await repo.spawn(GUILD, CHANNEL, DOGEMON, 1, replace=True)
    assert [r.id for r in await repo.finished_raids(CHANNEL, 10)] == [first.id]
    assert await repo.finished_raid_count(CHANNEL) == 1
    record = await repo.finished_raid(CHANNEL, first.id)
    assert record is not None and record.raid.status is RaidStatus.REPLACED and record.final_blow_by is None
    assert record.raid.outcome() == Outcome(None, RaidEnd.REPLACED)
    assert await repo.finished_raid(CHANNEL, second.id) is None  # live: not history yet


async def test_migration_0009_credits_the_attacks_made_before_it(tmp_path):
    path = tmp_path / "arena.sqlite3"
    with sqlite3.connect(path) as old:
        migrate_before(old, 9)
        old.execute(
            "INSERT INTO bossfight_raids (id, guild_id, channel_id, boss_json, max_hp, hp, status, spawned_by) "
            "VALUES (1, ?, ?, ?, 1000, 0, 'defeated', 1), (2, ?, ?, ?, 1000, 0, 'defeated', 1)",
            (GUILD, CHANNEL, DOGEMON.model_dump_json()) * 2,
        )
        old.executemany(
            "INSERT INTO bossfight_attacks (id, raid_id, user_id, damage, deck_damage, deck_hp_after, boss_hp_after) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (1, 1, 100, 400, 200, 1000, 600),
                (2, 1, 200, 400, 300, 0, 200),  # knocked its player out
                (3, 1, 100, 4750, 200, 800, 0),  # on 200 left
                (4, 2, 100, 5000, 0, -5, 0),  # a first blow, made before damage to players counted
            ],
        )
    db = await Database.open(path)
    try:
        rows = await db.fetch_all("SELECT id, credited, knocked_out FROM bossfight_attacks ORDER BY id")
        assert [tuple(r) for r in rows] == [(1, 400, 0), (2, 400, 1), (3, 200, 0), (4, 1000, 0)]
        totals = await BossfightRepository(db).leaderboard(1)
        assert [(t.user_id, t.damage, t.overkill, t.knockouts) for t in totals] == [
            (100, 600.0, 4550.0, 0),
            (200, 400.0, 0.0, 1),
        ]
    finally:
        await db.close()
