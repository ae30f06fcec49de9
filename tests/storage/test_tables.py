"""The games' table declarations (storage/tables.py, listed in storage/games.py) against the live schema of each
backend after every migration: a table, a member column or a foreign key no game declares would keep a member's
rows after /arena forget-me, leave them out of /arena my-data, or outlive its server's erasure."""

from __future__ import annotations

import re
from dataclasses import dataclass

from storage.games import DECLARED, TABLES
from storage.member_data import MemberDataRepository
from storage.sqlite import Database
from storage.tables import FORMER_MEMBER, FORMER_MEMBER_NAME, Kept
from tests.storage.test_lifecycle import GUILD, fill

OTHER_GUILD = GUILD + 1

# Columns naming a member, by the names the schema gives them (a role's or a channel's id is no member's).
MEMBER_COLUMN = re.compile(r"^(user_id|member_id|opponent_id|player\d*_id|winner_id|loser_id|\w+_user_id|\w+_by)$")
SERVER_COLUMN = "guild_id"


@dataclass(frozen=True)
class LiveTable:
    columns: frozenset[str]
    references: frozenset[str]  # the tables its foreign keys reference


async def live_schema(db) -> dict[str, LiveTable]:
    if isinstance(db, Database):
        names = [
            row["name"]
            for row in await db.fetch_all(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        schema = {}
        for name in names:
            columns = await db.fetch_all(f"PRAGMA table_info({name})")
            keys = await db.fetch_all(f"PRAGMA foreign_key_list({name})")
            schema[name] = LiveTable(frozenset(c["name"] for c in columns), frozenset(k["table"] for k in keys))
        return schema
    columns = await db.fetch_all(
        "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema()"
    )
    keys = await db.fetch_all(
        "SELECT tc.table_name, ccu.table_name AS referenced FROM information_schema.table_constraints tc "
        "JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name "
        "AND ccu.table_schema = tc.table_schema "
        "WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()"
    )
    names = {row["table_name"] for row in columns} - {"arena_schema"}  # PostgreSQL's record of the migrations
    return {
        name: LiveTable(
            frozenset(row["column_name"] for row in columns if row["table_name"] == name),
            frozenset(row["referenced"] for row in keys if row["table_name"] == name),
        )
        for name in names
    }


def listed(sql: str) -> set[str]:
    """The columns of an SQL list ("a, b DESC")."""
    return {part.split()[0] for part in sql.split(",")}


def undeclared(schema: dict[str, LiveTable]) -> list[str]:
    """What the schema and the declarations disagree on, one line each."""
    problems: list[str] = []
    declared = {table.name: table for table in TABLES}
    for name, live in sorted(schema.items()):
        if name not in declared:
            naming = sorted(c for c in live.columns if c == SERVER_COLUMN or MEMBER_COLUMN.match(c))
            problems.append(
                f"table {name} (columns naming a server or a member: {', '.join(naming) or 'none'}) is declared by "
                "no game: add it to the TABLES of the game that writes it (storage/tables.py)"
            )
    for name, table in declared.items():
        live = schema.get(name)
        if live is None:
            problems.append(f"table {name} is declared but does not exist")
            continue
        named = {column.column for column in table.members}
        wanted = set(named) | {c.name for c in table.members if isinstance(c, Kept) and c.name is not None}
        wanted |= {c for c in (table.server, table.mentions_in) if c is not None}
        wanted |= listed(table.order) if table.order else set()
        wanted |= listed(table.columns) - {"*"}
        if table.parent is not None:
            wanted.add(table.parent.column)
            parent = schema.get(table.parent.table.name)
            if parent is not None and table.parent.key not in parent.columns:
                problems.append(f"{name}'s parent {table.parent.table.name} has no column {table.parent.key}")
        problems += [
            f"column {name}.{column} is declared but does not exist" for column in sorted(wanted - live.columns)
        ]
        problems += [
            f"column {name}.{column} names a member, but {name}'s declaration does not say what becomes of it"
            for column in sorted(live.columns - named)
            if MEMBER_COLUMN.match(column)
        ]
        if SERVER_COLUMN in live.columns and table.server != SERVER_COLUMN:
            problems.append(f"table {name} has a {SERVER_COLUMN} its declaration does not name as its server")
        if set(table.depends_on) != live.references:
            problems.append(
                f"table {name} references {sorted(live.references)}, its declaration {sorted(table.depends_on)}"
            )
        if table.exported and table.of_server is None:
            problems.append(f"table {name} hands a member's rows out but names no server")
    return problems


async def test_every_table_with_a_server_or_a_member_is_declared_as_the_schema_has_it(database):
    problems = undeclared(await live_schema(database))
    assert not problems, "the schema and the games' declarations disagree:\n" + "\n".join(problems)


def test_a_table_is_declared_in_one_place():
    names = [table.name for owner in DECLARED for table in owner.tables]
    assert len(names) == len(set(names))


async def test_a_declared_table_or_column_the_schema_lacks_fails(database):
    schema = await live_schema(database)
    del schema["mfd_battles"]
    results = schema["mma_results"]
    schema["mma_results"] = LiveTable(results.columns - {"opponent_id"}, results.references)
    assert undeclared(schema) == [
        "column mma_results.opponent_id is declared but does not exist",
        "table mfd_battles is declared but does not exist",
    ]


async def named_rows(db, guild_id: int, user_id: int) -> dict[str, int]:
    """The server's rows naming the member in a declared member column, by table and column."""
    counts = {}
    for table in TABLES:
        if table.of_server is None:  # the installation's (a world boss and who spawned it): no server's rows
            continue
        for column in table.members:
            sql = f"SELECT count(*) AS n FROM {table.name} WHERE {table.of_server} AND {column.column} = ?"
            counts[f"{table.name}.{column.column}"] = (await db.fetch_one(sql, (guild_id, user_id)))["n"]
    return {name: n for name, n in counts.items() if n}


async def test_forget_leaves_no_row_of_the_server_naming_the_member_in_any_declared_column(database):
    # fill() puts member 100 in every table a player writes, 200 as their opponent, and member 1 as the one who
    # opened, spawned, ran or uploaded; each erases their data, and the other server keeps theirs.
    members = MemberDataRepository(database)
    await fill(database, GUILD, 1)
    await fill(database, OTHER_GUILD, 2)
    everyone = (200, 100, 1)
    elsewhere = {user: await named_rows(database, OTHER_GUILD, user) for user in everyone}
    exported = {
        200: {"mma_matches"},  # named in 100's result and rating change, which are 100's
        100: {
            "mma_ratings", "mma_rating_changes", "mma_results", "mma_fielded", "mma_matches", "bossfight_decks",
            "bossfight_attacks", "bossfight_players", "andor_characters", "andor_fights", "andor_party_members", "andor_parties", "deck_results", "deck_jobs", "web_hidden_members", "world_boss_attacks", "world_boss_players",
            "mma_tournament_entrants",
        },
        1: {"bossfight_raids", "guild_uploads", "mma_tournaments", "mfd_battles"},
    }  # fmt: skip
    for user in everyone:
        assert await named_rows(database, GUILD, user)
        data = await members.export(GUILD, user)
        assert set(data.rows) == exported[user], user
        await members.forget(GUILD, user, data.fingerprint)
        assert await named_rows(database, GUILD, user) == {}, user
        assert (await members.export(GUILD, user)).empty

    assert {user: await named_rows(database, OTHER_GUILD, user) for user in everyone} == elsewhere
    # Kept rows stay for the others, with former members in them.
    kept = await database.fetch_all(
        "SELECT player0_id, player0_name, player1_id, player1_name FROM mma_matches WHERE guild_id = ?", (GUILD,)
    )
    assert [tuple(row) for row in kept] == [(FORMER_MEMBER, FORMER_MEMBER_NAME, FORMER_MEMBER, FORMER_MEMBER_NAME)]
    attacks = await database.fetch_all(
        "SELECT a.user_id FROM bossfight_attacks a JOIN bossfight_raids r ON r.id = a.raid_id WHERE r.guild_id = ?",
        (GUILD,),
    )
    assert [row["user_id"] for row in attacks] == [FORMER_MEMBER]
