"""Storage under real concurrency, on both backends (tests/storage/conftest.py): every read sees every write
committed before it began, writes to different aggregates never wait for each other, and the guards of one
aggregate (version checks, atomic updates, unique constraints, row locks) lose no update."""

from __future__ import annotations

import asyncio
import time

from rules.bossfight import BUILTIN_BOSSES
from storage.bossfight import BossfightRepository, PlayerUpdate, RaidStatus

GUILD, CHANNEL = 10, 20


async def test_a_committed_write_is_read_back_while_fifty_tasks_read(database):
    """A write, then a read of it, while 50 other tasks read in a loop: the read sees the write, every time
    (on SQLite the shared reader used to hold one old snapshot open while reads overlapped)."""
    repo = BossfightRepository(database)
    stop = asyncio.Event()

    async def flood() -> None:
        while not stop.is_set():
            await database.fetch_all("SELECT * FROM bossfight_decks")
            await database.fetch_one("SELECT count(*) FROM bossfight_decks")

    readers = [asyncio.create_task(flood()) for _ in range(50)]
    try:
        await asyncio.sleep(0)
        missed = 0
        for user_id in range(300):
            await repo.save_deck(GUILD, user_id, f"deck {user_id}", "deck.csv")
            saved = await repo.saved_deck(GUILD, user_id)
            missed += saved is None or saved.csv_text != f"deck {user_id}"
    finally:
        stop.set()
        await asyncio.gather(*readers)
    assert missed == 0


async def test_fifty_concurrent_attacks_on_one_boss_all_count(database):
    repo = BossfightRepository(database)
    raid = await repo.spawn(GUILD, CHANNEL, BUILTIN_BOSSES[0], 1, replace=False)

    async def attack(user_id: int) -> None:
        player = await repo.player(raid.id, user_id)
        update = PlayerUpdate(deck_damage=1.0, deck_hp_after=9.0, knocked_out=False, at=time.time())
        await repo.record_attack(raid.id, user_id, player, 2.5, update)

    await asyncio.gather(*(attack(100 + i) for i in range(50)))
    live = await repo.live_raid(CHANNEL)
    assert live is not None
    assert live.hp == raid.max_hp - 125.0
    board = await repo.leaderboard(raid.id)
    assert len(board) == 50
    assert sum(entry.damage for entry in board) == 125.0


async def test_twenty_creators_racing_leave_one_live_game_per_channel_in_every_game(database):
    from rules.andor.engine import start_fight
    from rules.andor.models import Character, Monster
    from rules.mfd.battle import start_battle
    from storage.andor import AndorRepository, FightAlreadyLive
    from storage.bossfight import RaidAlreadyLive
    from storage.mfd import MfdRepository, encode_state
    from storage.mma import MatchConflict, MmaRepository
    from tests.rules.test_mfd_continuing import original_rosters

    async def outcomes(attempts: list[asyncio.Future[object]] | list[object]) -> list[object]:
        return await asyncio.gather(*attempts, return_exceptions=True)  # type: ignore[arg-type]

    bosses = BossfightRepository(database)
    spawned = await outcomes([bosses.spawn(GUILD, CHANNEL, BUILTIN_BOSSES[0], i, replace=False) for i in range(20)])
    assert sum(not isinstance(r, BaseException) for r in spawned) == 1
    assert all(isinstance(r, RaidAlreadyLive) for r in spawned if isinstance(r, BaseException))
    rows = await database.fetch_all("SELECT status FROM bossfight_raids WHERE channel_id = ?", (CHANNEL,))
    assert [row["status"] for row in rows] == [RaidStatus.LIVE]

    replaced = await outcomes([bosses.spawn(GUILD, CHANNEL, BUILTIN_BOSSES[1], i, replace=True) for i in range(20)])
    assert [r for r in replaced if isinstance(r, BaseException)] == []
    rows = await database.fetch_all("SELECT status FROM bossfight_raids WHERE channel_id = ?", (CHANNEL,))
    assert sorted(row["status"] for row in rows) == [RaidStatus.LIVE] + [RaidStatus.REPLACED] * 20

    matches = MmaRepository(database)
    made = await outcomes(
        [
            matches.create(
                GUILD,
                CHANNEL,
                (7, 100 + i),
                ("Ann", f"Rival {i}"),
                1,
                time.time(),
                state=None,
                feed=[],
                expire_before=0.0,
            )
            for i in range(20)
        ]
    )
    assert sum(not isinstance(r, BaseException) for r in made) == 1
    assert all(isinstance(r, MatchConflict) for r in made if isinstance(r, BaseException))

    fights = AndorRepository(database)
    statue = Monster(name="Statue", hp=5, xp=4, damage_min=0, damage_max=0, damage_resistance=99)
    fight_state, _ = start_fight(Character(), statue, seed=2)
    started = await outcomes([fights.start_fight(GUILD, CHANNEL + i, 7, i, fight_state) for i in range(20)])
    assert sum(not isinstance(r, BaseException) for r in started) == 1
    assert all(isinstance(r, FightAlreadyLive) for r in started if isinstance(r, BaseException))

    battles = MfdRepository(database)
    battle = start_battle(*original_rosters(), seed=5, max_rounds=1).state
    encoded = encode_state(battle)
    begun = await outcomes([battles.start(GUILD, CHANNEL, battle, encoded, i) for i in range(20)])
    assert not any(isinstance(r, BaseException) for r in begun)
    rows = await database.fetch_all("SELECT version FROM mfd_battles WHERE channel_id = ?", (CHANNEL,))
    assert [row["version"] for row in rows] == [20]  # each start went on from the battle it replaced


async def test_concurrent_uploads_cannot_pass_the_roster_limit_together(database):
    from rules.bossfight import BUILTIN_BOSSES as bosses
    from storage.uploads import GuildUploads, RosterFull

    uploads = GuildUploads(database, "boss", type(bosses[0]).model_validate_json)
    saved = await asyncio.gather(
        *(uploads.save(GUILD, [(f"boss {i}", bosses[0])], 1, limit=5) for i in range(12)), return_exceptions=True
    )
    assert sum(not isinstance(r, BaseException) for r in saved) == 5
    assert all(isinstance(r, RosterFull) for r in saved if isinstance(r, BaseException))
    assert len(await uploads.all(GUILD)) == 5


# --- PostgreSQL: many processes on one database, no lock of the whole installation -------------------------


async def _two_processes(postgres_server):
    """Two PostgreSQL pools on one new database, as two processes of the bot have."""
    from storage.postgres import PostgresDatabase
    from tests.conftest import fresh_postgres_database

    url = await fresh_postgres_database(postgres_server)
    return await PostgresDatabase.open(url), await PostgresDatabase.open(url)


async def test_two_processes_driving_one_match_and_one_raid_lose_no_update(postgres_server):
    from rules.mma.ai import choose_action
    from rules.mma.engine import apply_in_place, new_game, replay_rng
    from storage.mma import MmaRepository
    from storage.versioned import StaleUpdate

    first, second = await _two_processes(postgres_server)
    try:
        state, _ = new_game(4)
        match = await MmaRepository(first).create(
            GUILD, CHANNEL, (7, None), ("Ann", "AI"), 4, time.time(), state=state, feed=[], expire_before=0.0
        )
        raid = await BossfightRepository(first).spawn(GUILD, CHANNEL, BUILTIN_BOSSES[0], 1, replace=False)
        saved = {"moves": 0, "attacks": 0}

        async def play(db) -> None:  # each process moves whatever the match stands at, 15 times
            repo = MmaRepository(db)
            for _ in range(15):
                record = await repo.get(match.id)
                assert record is not None
                if record.game.phase == "over":
                    return
                game = record.game
                action = choose_action(game, game.to_move, replay_rng(game))
                apply_in_place(game, action, replay_rng(game))
                try:
                    await repo.save_moves(record, game, [], [action], time.time())
                    saved["moves"] += 1
                except StaleUpdate:
                    continue

        async def attack(db, user_id: int) -> None:
            repo = BossfightRepository(db)
            for _ in range(10):
                player = await repo.player(raid.id, user_id)
                update = PlayerUpdate(deck_damage=0.0, deck_hp_after=10.0, knocked_out=False, at=time.time())
                await repo.record_attack(raid.id, user_id, player, 1.0, update)
                saved["attacks"] += 1

        await asyncio.gather(
            play(first), play(second), *(attack(db, 50 + i) for i, db in enumerate([first, second] * 3))
        )
        record = await MmaRepository(second).get(match.id)
        assert record is not None and saved["moves"] > 0
        assert record.game.moves == saved["moves"] and record.version == saved["moves"]
        assert [a.player for a in await MmaRepository(first).moves(match.id)] != []
        assert len(await MmaRepository(first).moves(match.id)) == saved["moves"]
        live = await BossfightRepository(second).live_raid(CHANNEL)
        assert live is not None and live.hp == raid.max_hp - 60.0 and saved["attacks"] == 60
    finally:
        await first.close()
        await second.close()


async def test_a_transaction_held_on_one_raid_does_not_delay_an_attack_in_another_channel(postgres_server):
    first, second = await _two_processes(postgres_server)
    try:
        repo = BossfightRepository(first)
        held_raid = await repo.spawn(GUILD, CHANNEL, BUILTIN_BOSSES[0], 1, replace=False)
        other_raid = await repo.spawn(GUILD, CHANNEL + 1, BUILTIN_BOSSES[0], 1, replace=False)
        holding, release = asyncio.Event(), asyncio.Event()

        async def hold() -> None:  # another process in the middle of a long write to the first raid
            async with second.transaction() as conn:
                await conn.fetch_locked("SELECT id FROM bossfight_raids WHERE id = ?", (held_raid.id,))
                await conn.execute("UPDATE bossfight_raids SET hp = hp - 1 WHERE id = ?", (held_raid.id,))
                holding.set()
                await release.wait()

        holder = asyncio.create_task(hold())
        await holding.wait()
        player = await repo.player(other_raid.id, 7)
        update = PlayerUpdate(deck_damage=0.0, deck_hp_after=10.0, knocked_out=False, at=time.time())
        # Bounded by the test, not measured: with a lock of the whole installation this waits for ever.
        record = await asyncio.wait_for(repo.record_attack(other_raid.id, 7, player, 5.0, update), timeout=20)
        assert record.raid.hp == other_raid.max_hp - 5.0
        assert not holder.done()
        release.set()
        await holder
    finally:
        await first.close()
        await second.close()


async def test_moves_in_thirty_channels_through_a_slow_network_take_a_small_multiple_of_one(postgres_server):
    """With 25 ms each way between the bot and PostgreSQL, 30 moves at once in 30 channels cost a few times one
    move (the pool's waves), not thirty times (their sum, as under one lock of the whole installation)."""
    from local_postgres.delay_proxy import delay_proxy
    from rules.mma.ai import choose_action
    from rules.mma.engine import apply_in_place, new_game, replay_rng
    from storage.mma import MmaRepository
    from storage.postgres import PostgresDatabase
    from tests.conftest import fresh_postgres_database

    url = await fresh_postgres_database(postgres_server)
    direct = await PostgresDatabase.open(url)  # migrated and set up without the delay
    try:
        created = []
        for channel in range(31):
            state, _ = new_game(channel)
            created.append(
                await MmaRepository(direct).create(
                    GUILD,
                    channel,
                    (7, None),
                    ("Ann", "AI"),
                    channel,
                    time.time(),
                    state=state,
                    feed=[],
                    expire_before=0.0,
                )
            )
    finally:
        await direct.close()
    async with delay_proxy(postgres_server.port, 0.025) as proxy:
        db = await PostgresDatabase.open(proxy.url(url))
        try:
            repo = MmaRepository(db)
            matches = created

            async def move(match_id: int) -> None:
                record = await repo.get(match_id)
                assert record is not None
                game = record.game
                action = choose_action(game, game.to_move, replay_rng(game))
                apply_in_place(game, action, replay_rng(game))
                await repo.save_moves(record, game, [], [action], time.time())

            await asyncio.gather(*(move(m.id) for m in matches[:10]))  # the pool opens its connections
            started = time.perf_counter()
            await move(matches[0].id)
            one = time.perf_counter() - started
            started = time.perf_counter()
            await asyncio.gather(*(move(m.id) for m in matches[1:]))
            thirty = time.perf_counter() - started
        finally:
            await db.close()
    assert thirty < 10 * one, (one, thirty)
