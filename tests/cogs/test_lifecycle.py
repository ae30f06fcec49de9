"""Servers and channels come and go (docs/architecture.md): a deleted channel (or thread) ends its games, also
one deleted while the bot was down, through the gateway's events as discord.py parses them."""

from __future__ import annotations

import asyncio
import logging
import time

import discord

from offline_discord.harness import CHANNEL_ID, GUILD_ID, OTHER_GUILD_CHANNEL_ID, OTHER_GUILD_ID, SERVER_NAME
from storage.andor import FightStatus
from storage.bossfight import RaidStatus
from storage.mma import MatchStatus
from storage.times import stored_time
from tests.cogs.test_mfd import HEROES, VILLAINS
from tests.cogs.test_mma import CAROL, fix_deals

RAID_CHANNEL, FIGHT_CHANNEL, BATTLE_CHANNEL = CHANNEL_ID + 11, CHANNEL_ID + 12, CHANNEL_ID + 13


async def gateway_settled(h) -> None:
    await asyncio.sleep(0)  # listeners run as tasks
    await h.settle()


async def start_every_game(h, channel_id: int) -> None:
    """A live MMA match (Alice and Bob), a pending challenge (Carol's), Alice's fight, a raid and a battle."""
    fix_deals(h)
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob, channel_id=channel_id)
    await h.click(challenge, "Accept", h.bob)
    await h.run("mma challenge", CAROL, opponent=h.gm, channel_id=channel_id)
    await h.run("andor fight", h.alice, monster="Wolf", seed=5, channel_id=channel_id)
    await h.run("bossfight spawn", h.gm, boss="Inu Dogemon", channel_id=channel_id)
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1, channel_id=channel_id)


async def stored(h, sql: str) -> list[tuple]:
    return [tuple(row) for row in await h.bot.db.fetch_all(sql)]


async def assert_every_game_ended(h, channel_id: int) -> None:
    assert await stored(h, f"SELECT status, result_reason FROM mma_matches WHERE channel_id = {channel_id}") == [
        (MatchStatus.ABANDONED, "channel_deleted"),
        (MatchStatus.EXPIRED, None),
    ]
    assert await stored(h, "SELECT count(*) FROM mma_results") == [(0,)]  # not rated, no result (RULINGS 8)
    assert await stored(h, "SELECT count(*) FROM mma_rating_changes") == [(0,)]
    assert await stored(h, f"SELECT status FROM andor_fights WHERE channel_id = {channel_id}") == [(FightStatus.FLED,)]
    assert await stored(h, f"SELECT status FROM bossfight_raids WHERE channel_id = {channel_id}") == [
        (RaidStatus.CLOSED,)
    ]
    (closed,) = await stored(h, f"SELECT closed_at IS NOT NULL FROM mfd_battles WHERE channel_id = {channel_id}")
    assert closed == (True,)


async def test_a_deleted_channel_ends_every_game_of_it_and_keeps_them_in_history(harness, caplog):
    h = harness
    caplog.set_level(logging.INFO)
    await start_every_game(h, CHANNEL_ID)
    mma = h.bot.get_cog("MMA")
    (match_id,) = list(mma.matches.claim_openings.timers)  # the idle claim's timer of the live match

    h.delete_channel(CHANNEL_ID)
    await gateway_settled(h)

    await assert_every_game_ended(h, CHANNEL_ID)
    assert mma.matches.claim_openings.timers == {}  # its timer is cancelled
    assert [r.levelname for r in caplog.records if r.levelno >= logging.WARNING] == []

    # No longer live for either player: both may play again at once, elsewhere.
    elsewhere = CHANNEL_ID + 1
    (challenge,) = await h.run("mma challenge", h.bob, opponent=h.alice, channel_id=elsewhere)
    assert challenge.embeds and not challenge.ephemeral
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=5, channel_id=elsewhere)
    assert not fight.content.startswith("You are already in a fight")

    # Shown as abandoned in both players' histories, not rated.
    for member, opponent in ((h.alice, h.bob), (h.bob, h.alice)):
        (history,) = await h.run("mma history", member, member=member, channel_id=elsewhere)
        lines = history.description.splitlines()
        assert lines[0] == f"{member.mention}: 1 finished match, newest first"
        assert lines[2].startswith(f"`#{match_id}` <t:")
        assert lines[2].endswith(f":d> vs {opponent.mention}: **Abandoned**: its channel was deleted · not rated")
    (stats,) = await h.run("mma stats", h.alice, channel_id=elsewhere)
    assert "1500?" in stats.text()  # the rating did not move


async def test_a_deleted_thread_ends_its_match_and_the_parent_channel_keeps_its_games(harness):
    h = harness
    fix_deals(h)
    thread = h.fake.thread(CHANNEL_ID)
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob, channel_id=thread.id)
    await h.click(challenge, "Accept", h.bob)
    await h.run("bossfight spawn", h.gm, boss="Inu Dogemon")  # in the parent channel

    h.delete_channel(thread.id)  # THREAD_DELETE
    await gateway_settled(h)

    assert await stored(h, "SELECT channel_id, status FROM mma_matches") == [(thread.id, MatchStatus.ABANDONED)]
    assert await stored(h, "SELECT channel_id, status FROM bossfight_raids") == [(CHANNEL_ID, RaidStatus.LIVE)]
    assert h.bot.get_cog("MMA").matches.claim_openings.timers == {}


async def test_a_channel_deleted_while_the_bot_was_down_is_noticed_when_its_server_comes_up(harness, caplog):
    h = harness
    caplog.set_level(logging.INFO)
    await start_every_game(h, CHANNEL_ID + 1)  # its channel is deleted while the bot is down
    fix_deals(h)
    archived = h.fake.thread(CHANNEL_ID)  # a thread archived meanwhile: not in the server's active threads
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob, channel_id=archived.id)
    await h.click(challenge, "Accept", h.bob)
    hidden = h.fake.thread(CHANNEL_ID + 2)  # archived too, in a channel the bot may no longer see (403)
    await h.run("bossfight spawn", h.gm, boss="Inu Dogemon", channel_id=hidden.id)
    await h.run("bossfight spawn", h.gm, boss="Inu Dogemon")  # in a channel that stays

    await h.bot.close()
    del h.fake.channels[CHANNEL_ID + 1]
    archived.archived = hidden.archived = True
    h.fake.overwrite(CHANNEL_ID + 2, "bot", deny=discord.Permissions(view_channel=True))
    await h.restart()
    h.guild_create(GUILD_ID, unavailable=False)  # the server as the bot finds it when it connects again
    await gateway_settled(h)

    await assert_every_game_ended(h, CHANNEL_ID + 1)
    assert await stored(h, f"SELECT status FROM mma_matches WHERE channel_id = {archived.id}") == [(MatchStatus.LIVE,)]
    assert await stored(h, "SELECT channel_id, status FROM bossfight_raids ORDER BY id") == [
        (CHANNEL_ID + 1, RaidStatus.CLOSED),
        (hidden.id, RaidStatus.LIVE),
        (CHANNEL_ID, RaidStatus.LIVE),
    ]
    asked = [r.path for r in h.fake.requests if r.method == "GET" and r.path == "/channels/{channel_id}"]
    assert len(asked) == 3  # only the channels the server's news did not name
    assert [r.levelname for r in caplog.records if r.levelno >= logging.WARNING] == []


DAY = 86400.0


async def rows_of(h, guild_id: int) -> dict[str, int]:
    tables = ("mma_matches", "mma_moves", "mma_results", "bossfight_raids", "andor_characters", "guild_departures")
    counted = {}
    for table in tables:
        where = (
            f"match_id IN (SELECT id FROM mma_matches WHERE guild_id = {guild_id})"
            if table == "mma_moves"
            else f"guild_id = {guild_id}"
        )
        (row,) = await stored(h, f"SELECT count(*) FROM {table} WHERE {where}")
        counted[table] = row[0]
    return counted


async def play_here_and_elsewhere(h) -> None:
    """A finished match against the AI, a raid and a character, in the server and in another one."""
    for guild_id, channel_id in ((GUILD_ID, CHANNEL_ID), (OTHER_GUILD_ID, OTHER_GUILD_CHANNEL_ID)):
        (ai,) = await h.run("mma ai", h.alice, seed=3, guild_id=guild_id, channel_id=channel_id)
        (confirm,) = await h.click(ai, "Concede", h.alice, guild_id=guild_id)
        await h.click(confirm, "Yes, concede", h.alice, guild_id=guild_id)
        await h.run("bossfight spawn", h.gm, boss="Inu Dogemon", guild_id=guild_id, channel_id=channel_id)
        await h.run("andor character set", h.alice, armor=50, guild_id=guild_id, channel_id=channel_id)


async def test_a_server_that_removed_the_bot_is_erased_once_the_retention_is_over(harness, caplog):
    h = harness
    caplog.set_level(logging.INFO)
    cog = h.bot.get_cog("Lifecycle")
    await play_here_and_elsewhere(h)
    kept = await rows_of(h, GUILD_ID)
    assert kept == {
        "mma_matches": 1,
        "mma_moves": 1,
        "mma_results": 1,
        "bossfight_raids": 1,
        "andor_characters": 1,
        "guild_departures": 0,
    }
    elsewhere = await rows_of(h, OTHER_GUILD_ID)

    h.guild_delete(GUILD_ID, unavailable=True)  # out of reach for a while: not a removal
    await gateway_settled(h)
    assert (await rows_of(h, GUILD_ID))["guild_departures"] == 0

    cog.clock = lambda: 1_000_000.0
    h.guild_delete(GUILD_ID, unavailable=False)  # removed
    await gateway_settled(h)
    assert await stored(h, "SELECT guild_id, left_at FROM guild_departures") == [(GUILD_ID, stored_time(1_000_000.0))]

    cog.clock = lambda: 1_000_000.0 + 30 * DAY - 1  # the retention (GUILD_RETENTION_DAYS, 30 by default) runs
    await cog.erase_departed()
    assert await rows_of(h, GUILD_ID) == {**kept, "guild_departures": 1}

    cog.clock = lambda: 1_000_000.0 + 30 * DAY  # and is over
    await cog.erase_departed()
    assert set((await rows_of(h, GUILD_ID)).values()) == {0}
    assert await rows_of(h, OTHER_GUILD_ID) == elsewhere
    assert [r.levelname for r in caplog.records if r.levelno >= logging.WARNING] == []


async def test_a_server_that_invites_the_bot_again_keeps_everything(harness):
    h = harness
    cog = h.bot.get_cog("Lifecycle")
    await play_here_and_elsewhere(h)
    kept = await rows_of(h, GUILD_ID)
    cog.clock = lambda: 1_000_000.0
    h.guild_delete(GUILD_ID, unavailable=False)
    await gateway_settled(h)
    h.guild_create(GUILD_ID, unavailable=None)  # GUILD_CREATE of a server that adds the bot: on_guild_join
    await gateway_settled(h)
    cog.clock = lambda: 1_000_000.0 + 365 * DAY
    await cog.erase_departed()
    assert await rows_of(h, GUILD_ID) == kept


async def test_a_server_is_known_by_the_name_discord_last_gave_it(harness):
    """For its web pages: the name of GUILD_CREATE at every start-up and join, and of GUILD_UPDATE on a rename; a
    server in an outage (its name unknown) keeps the last."""
    h = harness

    async def stored() -> list[tuple[int, str]]:
        return [tuple(row) for row in await h.bot.db.fetch_all("SELECT guild_id, name FROM server_names")]

    h.guild_create(GUILD_ID)
    await gateway_settled(h)
    assert await stored() == [(GUILD_ID, SERVER_NAME)]
    renamed = "الساحة 🔥 <b>The Pit</b> **"
    h.guild_update(GUILD_ID, name=renamed)
    await gateway_settled(h)
    assert await stored() == [(GUILD_ID, renamed)]
    assert h.bot.get_guild(GUILD_ID).name == renamed
    h.guild_delete(GUILD_ID, unavailable=True)
    h.guild_create(GUILD_ID, unavailable=True)  # still in an outage at the next start-up
    await gateway_settled(h)
    assert await stored() == [(GUILD_ID, renamed)]


async def test_the_retention_ended_while_the_bot_was_down_is_erased_at_start_up(harness):
    h = harness
    await play_here_and_elsewhere(h)
    cog = h.bot.get_cog("Lifecycle")
    cog.clock = lambda: time.time() - 31 * DAY
    h.guild_delete(GUILD_ID, unavailable=False)
    await gateway_settled(h)
    elsewhere = await rows_of(h, OTHER_GUILD_ID)
    await h.restart()
    assert set((await rows_of(h, GUILD_ID)).values()) == {0}
    assert await rows_of(h, OTHER_GUILD_ID) == elsewhere
