"""Every game's repository on both backends (tests/storage/conftest.py): the same rows, the same version
checks, the same refusals."""

from __future__ import annotations

import asyncio
import time

import pytest

from rules.andor.engine import apply_in_place as andor_move
from rules.andor.engine import replay_rng as andor_rng
from rules.andor.engine import settle, start_fight
from rules.andor.engine import summary as andor_summary
from rules.andor.models import END_TURN, Character, Monster
from rules.bossfight import BUILTIN_BOSSES
from rules.contract import Tally
from rules.mma.engine import CONCEDE, apply_in_place, new_game, replay_rng, simple_action
from storage.andor import AndorRepository, FightAlreadyLive
from storage.bossfight import BossfightRepository, PlayerUpdate
from storage.mma import MmaRepository
from storage.schema import discover_migrations
from storage.versioned import StaleUpdate
from tests.storage.migrated import migrate_before

GUILD, CHANNEL = 10, 20
# andor_fights after migration 0014: no `target` (the fight's state holds the Attack button's monster)
ANDOR_FIGHT_COLUMNS = [
    *("id", "guild_id", "channel_id", "user_id", "seed", "version", "status", "state_json"),
    *("xp_change", "level_after", "xp_after", "started_at", "ended_at", "message_id", "kills"),
]


async def test_concurrent_attacks_all_count_and_the_board_adds_them_up(database):
    repo = BossfightRepository(database)
    boss = BUILTIN_BOSSES[0]
    raid = await repo.spawn(GUILD, CHANNEL, boss, 1, replace=False)

    async def attack(user_id: int, damage: float) -> None:
        for _ in range(5):  # the cog's retry on a lost race for the player's row
            player = await repo.player(raid.id, user_id)
            update = PlayerUpdate(deck_damage=2.0, deck_hp_after=8.0, knocked_out=user_id == 3, at=time.time())
            try:
                await repo.record_attack(raid.id, user_id, player, damage, update)
                return
            except StaleUpdate:
                continue
        raise AssertionError("five lost races in a row")

    await asyncio.gather(*(attack(user, 1.5) for user in (1, 2, 3) for _ in range(4)))
    live = await repo.live_raid(CHANNEL)
    assert live is not None and live.hp == pytest.approx(boss.health - 12 * 1.5)
    board = await repo.leaderboard(raid.id)
    assert sorted((t.user_id, t.attacks, t.damage, t.overkill, t.taken, t.knockouts, t.out_now) for t in board) == [
        (1, 4, 6.0, 0.0, 8.0, 0, False),
        (2, 4, 6.0, 0.0, 8.0, 0, False),
        (3, 4, 6.0, 0.0, 8.0, 4, True),
    ]
    assert await repo.revive(raid.id, 3) == pytest.approx(8.0)
    assert (await repo.player(raid.id, 3)).standing.knocked_out is False
    # The revive resets what the next attack starts from; the raid's record keeps what happened (RULINGS 7).
    (revived,) = [t for t in await repo.leaderboard(raid.id) if t.user_id == 3]
    assert (revived.taken, revived.knockouts, revived.taken_now, revived.out_now) == (8.0, 4, 0.0, False)


async def test_an_mma_match_saves_with_its_version_and_its_end_writes_the_records(database):
    repo = MmaRepository(database)
    state, _ = new_game(3)
    match = await repo.create(GUILD, CHANNEL, (7, None), ("Ann", "AI"), 3, time.time(), state=state, feed=[],
                              expire_before=0.0)  # fmt: skip
    draw = simple_action(0, "draw")
    apply_in_place(state, draw, replay_rng(state))
    saved = await repo.save_moves(match, state, ["Ann draws"], [draw], time.time())
    assert saved.version == match.version + 1 and saved.feed == ("Ann draws",)
    with pytest.raises(StaleUpdate):  # the same starting version again: someone saved first
        await repo.save_moves(match, state, [], [draw], time.time())
    record = await repo.get(match.id)
    assert record is not None
    conceded = record.game
    apply_in_place(conceded, simple_action(0, CONCEDE), replay_rng(conceded))
    await repo.save_moves(record, conceded, [], [simple_action(0, CONCEDE)], time.time())
    ann = await repo.tallies(GUILD, 7)
    assert (ann.overall, ann.against_ai) == (Tally(losses=1), Tally(losses=1))
    (finished,) = await repo.finished(GUILD, 7, limit=10)
    assert (finished.match_id, finished.opponent_id, finished.result, finished.change) == (match.id, None, "loss", None)
    assert await repo.finished_count(GUILD, 7) == 1
    assert [a.kind for a in await repo.moves(match.id)] == ["draw", CONCEDE]


async def test_an_andor_fight_and_its_character_move_together(database):
    repo = AndorRepository(database)
    statue = Monster(name="Statue", hp=5, xp=4, damage_min=0, damage_max=0, damage_resistance=99)
    await repo.update_character(GUILD, 7, lambda stored: (stored or Character()).model_copy(update={"gold": 3}))
    state, _ = start_fight(Character(), statue, seed=2)
    fight = await repo.start_fight(GUILD, CHANNEL, 7, 2, state)
    with pytest.raises(FightAlreadyLive):
        await repo.start_fight(GUILD, CHANNEL, 7, 3, state)
    while (result := andor_summary(state)) is None:  # 20 quiet rounds: a draw
        andor_move(state, END_TURN, andor_rng(state))
    ended = await repo.update_fight(fight, state, settle=lambda stored: settle(stored or Character(), result))
    assert (ended.status, ended.version, ended.xp_change) == ("draw", 1, 0)
    with pytest.raises(StaleUpdate):
        await repo.update_fight(fight, state)
    character = await repo.character(GUILD, 7)
    assert character is not None and character.gold == 3
    assert await repo.delete_character(GUILD, 7) is True
    assert await repo.delete_character(GUILD, 7) is False


async def test_an_ended_fight_stores_its_kills_and_older_fights_are_counted_from_their_state(database):
    from rules.andor.models import Action

    repo = AndorRepository(database)
    rat = Monster(name="Rat", hp=1, xp=1, damage_min=0, damage_max=0)
    hero = Character(attack_chance=200, damage_min=5, damage_max=5)
    for seed in (1, 2):  # two fights, each killing both rats
        state, _ = start_fight(hero, rat, 2, seed=seed)
        fight = await repo.start_fight(GUILD, CHANNEL, 7, seed, state)
        while andor_summary(state) is None:
            target = next(i for i, m in enumerate(state.monsters) if m.alive)
            andor_move(state, Action.attack(target), andor_rng(state))
        await repo.update_fight(fight, state)
    rows = await database.fetch_all("SELECT kills FROM andor_fights ORDER BY id")
    assert [row["kills"] for row in rows] == [2, 2]
    async with database.transaction() as conn:  # as a fight that ended before kills were stored
        await conn.execute("UPDATE andor_fights SET kills = NULL WHERE id = (SELECT min(id) FROM andor_fights)")
    ended = await repo.ended_fights(GUILD, 7)
    assert [(kills, text is not None) for _, _, kills, text in ended.rows] == [(None, True), (2, False)]
    totals = ended.totals()
    assert (totals.ends.wins, totals.kills) == (2, 4)


async def test_migration_0014_drops_the_andor_fight_target_column_the_state_holds(database):
    repo = AndorRepository(database)
    state, _ = start_fight(Character(), Monster(name="Rat", hp=5, xp=1), 2, seed=4)
    fight = await repo.start_fight(GUILD, CHANNEL, 7, 4, state)
    andor_move(state, END_TURN, andor_rng(state))
    await repo.update_fight(fight, state)
    row = await database.fetch_one("SELECT * FROM andor_fights")
    assert row is not None and list(row.keys()) == ANDOR_FIGHT_COLUMNS and row["version"] == 1
    assert await database.schema_version() == len(discover_migrations())  # 14 and every later one
    stored = await repo.fight(fight.id)
    assert stored is not None and stored.state == state


async def test_migration_0014_keeps_the_fights_stored_before_it(tmp_path):
    import sqlite3

    from storage.sqlite import Database

    state, _ = start_fight(Character(), Monster(name="Rat", hp=5, xp=1), seed=4)
    path = tmp_path / "arena.sqlite3"
    with sqlite3.connect(path) as old:
        migrate_before(old, 14)
        old.execute(
            "INSERT INTO andor_fights (id, guild_id, channel_id, user_id, seed, status, target, state_json) "
            "VALUES (3, ?, ?, 7, 4, 'live', 1, ?)",
            (GUILD, CHANNEL, state.model_dump_json()),
        )
    db = await Database.open(path)
    try:
        fight = await AndorRepository(db).fight(3)
        assert fight is not None and fight.state == state and fight.user_id == 7
        row = await db.fetch_one("SELECT * FROM andor_fights WHERE id = 3")
        assert row is not None and list(row.keys()) == ANDOR_FIGHT_COLUMNS
    finally:
        await db.close()


async def test_a_marked_for_death_battle_is_stored_compressed_and_saved_with_its_version(database):
    from rules.mfd.battle import continue_battle, start_battle
    from storage.mfd import MfdRepository, encode_state
    from tests.rules.test_mfd_continuing import original_rosters

    repo = MfdRepository(database)
    first = start_battle(*original_rosters(), seed=5, max_rounds=1).state
    stored = await repo.start(GUILD, CHANNEL, first, encode_state(first), 7)
    assert stored.state() == first and (stored.rounds_fought, stored.version) == (1, 1)
    second = continue_battle(first, max_rounds=1).state
    saved = await repo.save(stored, second, encode_state(second), 8)
    assert (saved.rounds_fought, saved.version, saved.updated_by) == (2, 2, 8)
    with pytest.raises(StaleUpdate):
        await repo.save(stored, second, encode_state(second), 8)
    again = await repo.battle(CHANNEL)
    assert again is not None and again.state() == second
