"""How an MMA match ended is stored as a code (rules.mma.state.EndReason's value) and shown by its label: rewording
a label changes no stored row. Rows and states kept before, in the words, read as the codes: migration 0022 turns
the columns, the codec's upgrade (version 2 -> 3) the match states."""

from __future__ import annotations

import json
import sqlite3
import time

import asyncpg
import pytest

from cogs.mma.matches.render import end_title
from cogs.mma.rivalry.render import history_line
from rules.mma import state as mma_state
from rules.mma.engine import CONCEDE, apply_in_place, new_game, outcome, replay_rng, simple_action
from rules.mma.simulate import play_ai_game
from rules.mma.state import END_REASON_LABELS, EndReason
from storage.mma import CHANNEL_DELETED, MATCH_STATE, MatchStatus, MmaRepository, ended_words
from storage.postgres import PostgresDatabase, numbered, postgres_migration
from storage.schema import discover_migrations
from storage.sqlite import Database
from tests.conftest import fresh_postgres_database
from tests.storage.migrated import migrate_before

GUILD, CHANNEL, ANN, BEN = 10, 20, 7, 8
# How the rows and states before migration 0022 kept each ending: the words of its end screen.
WORDS_BEFORE_0022 = {
    EndReason.HEALTH_DEPLETED: "Health depleted",
    EndReason.NO_FIGHTERS: "No fighters in hand",
    EndReason.DECK_OUT: "Deck Out",
    EndReason.JUDGES: "Judges' decision",
    EndReason.CONCEDED: "Conceded",
    EndReason.IDLE: "Opponent idle",
}


def test_each_ending_is_a_code_of_its_name_and_has_one_label():
    assert [reason.value for reason in EndReason] == [reason.name.lower() for reason in EndReason]
    assert set(END_REASON_LABELS) == set(EndReason)
    assert [reason.label for reason in EndReason] == [END_REASON_LABELS[reason] for reason in EndReason]
    assert CHANNEL_DELETED == "channel_deleted" and ended_words(CHANNEL_DELETED) == "channel deleted"


async def test_a_reworded_label_is_shown_and_changes_no_stored_row(database, monkeypatch):
    reworded = {**END_REASON_LABELS, EndReason.CONCEDED: "Threw in the towel"}
    monkeypatch.setattr(mma_state, "END_REASON_LABELS", reworded)
    repo = MmaRepository(database)
    challenge = await repo.create(GUILD, CHANNEL, (ANN, BEN), ("Ann", "Ben"), 3, time.time(), state=None, feed=[],
                                  expire_before=0.0)  # fmt: skip
    state, _ = new_game(3)
    match = await repo.answer_challenge(challenge, MatchStatus.LIVE, time.time(), state=state)
    concession = simple_action(state.current, CONCEDE)
    apply_in_place(state, concession, replay_rng(state))
    ended = await repo.save_moves(match, state, [], [concession], time.time())

    stored = [
        *await database.fetch_all("SELECT result_reason FROM mma_matches"),
        *await database.fetch_all("SELECT reason FROM mma_results"),
        *await database.fetch_all("SELECT reason FROM mma_rating_changes"),
    ]
    assert [row[0] for row in stored] == ["conceded"] * 5
    assert json.loads((await database.fetch_one("SELECT state_json FROM mma_matches"))["state_json"])["reason"] == (
        "conceded"
    )
    # The words come from the labels alone: the end screen and the history say the new ones.
    result = outcome(state)
    assert result is not None
    assert end_title(ended, result)[1].endswith("was defeated! Threw in the towel.")
    (finished,) = await repo.finished(GUILD, ANN, limit=10)
    assert "(Threw in the towel)" in history_line(finished)


def old_rows() -> list[tuple[str, tuple[object, ...]]]:
    """A database at migration 0021: a match that ended on health, with its state (codec version 2) and results
    in the words, and a match abandoned when its channel was deleted."""
    state = next(state for state, _ in map(play_ai_game, range(20)) if state.reason == EndReason.HEALTH_DEPLETED)
    version_2 = json.dumps({"version": 2, **state.to_dict(), "reason": "Health depleted"})
    judges = WORDS_BEFORE_0022[EndReason.JUDGES]
    return [
        (
            "INSERT INTO mma_matches (id, guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
            "status, seed, state_json, last_move_at, winner_slot, result_reason) "
            "VALUES (1, ?, ?, ?, 'Ann', ?, 'Ben', 'over', 7, ?, '2026-01-01T00:00:00.000Z', ?, 'Health depleted')",
            (GUILD, CHANNEL, ANN, BEN, version_2, state.winner),
        ),
        (
            "INSERT INTO mma_matches (id, guild_id, channel_id, player0_id, player0_name, player1_id, player1_name, "
            "status, seed, last_move_at, result_reason) "
            "VALUES (2, ?, ?, ?, 'Ann', ?, 'Ben', 'abandoned', 8, '2026-01-02T00:00:00.000Z', 'channel deleted')",
            (GUILD, CHANNEL, ANN, BEN),
        ),
        *(
            (
                "INSERT INTO mma_results (guild_id, user_id, match_id, outcome, opponent_id, reason, finished_at) "
                "VALUES (?, ?, 1, ?, ?, ?, '2026-01-01T00:00:00.000Z')",
                (GUILD, user, outcome_, opponent, words),
            )
            for user, outcome_, opponent, words in ((ANN, "win", BEN, "Health depleted"), (BEN, "loss", ANN, judges))
        ),
        (
            "INSERT INTO mma_rating_changes (match_id, user_id, guild_id, opponent_id, result, reason, mu_before, "
            "sigma_before, mu_after, sigma_after, games_after, rated_at) "
            "VALUES (1, ?, ?, ?, 'win', 'Opponent idle', 1500, 90, 1510, 80, 1, '2026-01-01T00:00:00.000Z')",
            (ANN, GUILD, BEN),
        ),
    ]


async def assert_read_as_codes(db) -> None:
    columns = [
        *await db.fetch_all("SELECT result_reason FROM mma_matches ORDER BY id"),
        *await db.fetch_all("SELECT reason FROM mma_results ORDER BY user_id"),
        *await db.fetch_all("SELECT reason FROM mma_rating_changes"),
    ]
    assert [row[0] for row in columns] == ["health_depleted", "channel_deleted", "health_depleted", "judges", "idle"]
    repo = MmaRepository(db)
    match = await repo.get(1)
    assert match is not None and match.state is not None
    ended = outcome(match.state)
    assert ended is not None and ended.termination is EndReason.HEALTH_DEPLETED
    assert MATCH_STATE.from_text(MATCH_STATE.to_text(match.state)) == match.state  # saved again as version 3
    assert [(m.match_id, m.reason) for m in await repo.finished(GUILD, ANN, limit=10)] == [
        (2, CHANNEL_DELETED),
        (1, EndReason.HEALTH_DEPLETED),
    ]


async def test_migration_0022_and_the_codec_read_the_words_kept_before_as_codes_on_sqlite(tmp_path):
    path = tmp_path / "arena.sqlite3"
    with sqlite3.connect(path) as old:
        migrate_before(old, 22)
        for sql, params in old_rows():
            old.execute(sql, params)
    db = await Database.open(path)
    try:
        await assert_read_as_codes(db)
    finally:
        await db.close()


async def test_migration_0022_and_the_codec_read_the_words_kept_before_as_codes_on_postgres(postgres_server):
    url = await fresh_postgres_database(postgres_server)
    old = await asyncpg.connect(url)
    try:
        await old.execute("CREATE TABLE arena_schema (version BIGINT NOT NULL)")
        for number, migration in discover_migrations():
            if number < 22:
                await old.execute(postgres_migration(migration))
                await old.execute("INSERT INTO arena_schema (version) VALUES ($1)", number)
        for sql, params in old_rows():
            await old.execute(numbered(sql), *params)
    finally:
        await old.close()
    db = await PostgresDatabase.open(url)
    try:
        await assert_read_as_codes(db)
    finally:
        await db.close()


@pytest.mark.parametrize("reason", list(EndReason))
def test_a_match_state_kept_in_the_words_reads_as_its_code(reason):
    state, _ = new_game(2)
    kept = json.dumps({"version": 2, **state.to_dict(), "reason": WORDS_BEFORE_0022[reason]})
    assert MATCH_STATE.from_text(kept).reason == reason
