"""The world boss through the bot's real dispatch (issue 40, RULINGS 9): two bot processes ("shards") on one
PostgreSQL, each serving one server, members of both attacking until the boss falls; the credit adds up to the HP
exactly with one final blow, both processes announce the end in their servers' channels, and an attack stored
after the fall is told so. And on one process (SQLite): who may spawn, where one may attack."""

from __future__ import annotations

import asyncio

from cogs.bossfight import Bossfight
from offline_discord.harness import (
    CHANNEL_ID,
    GUILD_ID,
    OTHER_GUILD_CHANNEL_ID,
    OTHER_GUILD_ID,
    FakeDiscord,
    Harness,
    User,
    make_settings,
    start_bot,
)
from rules.bossfight.world import AttackOutcome
from storage.guild_settings import GuildSettingsRepository
from tests.conftest import fresh_postgres_database

OWNER = 1200000000000000001  # the harness's game master, named in OWNER_IDS
CAROL = User(1200000000000000004, "Carol")
# Inu Dogemon (1000 HP): 300 physical + 100 magical = 400 to the boss; the deck (1200 health) takes 200.
DECK = (
    b"token,trait,element,health,physical_damage,physical_penetration,physical_resistance,"
    b"magical_damage,magical_penetration,magical_resistance\n"
    b"Fox,Bite,Fire,500,300,N,Y,0,N,N\n"
    b"Owl,Hoot,Air,700,0,N,N,100,N,N\n"
)


async def bot_serving(guild: int, channel: int, tmp_path, name: str, fake: FakeDiscord, **overrides) -> Harness:
    """A bot process serving one server, whose world-boss channel is set; every bot of a test talks to one fake
    Discord (discord.py's route base is one for the whole test process)."""
    settings = make_settings(tmp_path / f"{name}.sqlite3", owner_ids=str(OWNER), **overrides)
    h = Harness(await start_bot(settings, fake), fake, settings)
    fake.channel(channel, guild)
    h.guild_create(guild)
    await GuildSettingsRepository(h.bot.db).set_world_boss_channel(guild, channel)
    return h


def news(h: Harness):
    cog = h.bot.get_cog("Bossfight")
    assert isinstance(cog, Bossfight)
    return cog.world.news


async def test_two_processes_fight_one_world_boss_to_its_fall_with_exact_credit(postgres_server, tmp_path):
    url = await fresh_postgres_database(postgres_server)
    fake = FakeDiscord()
    one = await bot_serving(GUILD_ID, CHANNEL_ID, tmp_path, "one", fake, database_url=url)
    two = await bot_serving(OTHER_GUILD_ID, OTHER_GUILD_CHANNEL_ID, tmp_path, "two", fake, database_url=url)
    try:
        spawned, posted = await one.run("bossfight world spawn", one.gm, boss="Inu Dogemon", hp=1000.0)
        assert spawned.ephemeral and spawned.embed.title == "🌍 A world boss appears: Inu Dogemon"
        assert posted.channel_id == CHANNEL_ID and posted.embed.title == spawned.embed.title
        # The spawn is announced by the process serving each server (one posted with its command; two polls).
        await news(two).tick()
        await two.settle()
        appeared = [m.channel_id for m in fake.messages.values() if m.embeds and "appears" in str(m.embeds[0].title)]
        assert appeared == [CHANNEL_ID, CHANNEL_ID, OTHER_GUILD_CHANNEL_ID]  # the reply, one's post, two's post
        await news(one).tick()
        await one.settle()
        assert len(fake.messages) == 3  # each server's once

        (hit,) = await one.run("bossfight world attack", one.alice, deck=("deck.csv", DECK), channel_id=CHANNEL_ID)
        assert hit.embed.title == "⚔️ Alice hits Inu Dogemon for 400"
        assert hit.field("Credited") == "**400**"
        assert hit.field("World boss HP") == "600/1000"
        (hit,) = await two.run(
            "bossfight world attack", two.bob, deck=("deck.csv", DECK), guild_id=OTHER_GUILD_ID,
            channel_id=OTHER_GUILD_CHANNEL_ID,
        )  # fmt: skip
        assert hit.field("World boss HP") == "200/1000"
        assert hit.field("This server's place") == "2 of 2"  # a tie at 400: the server that attacked first ranks first

        # 200 HP left, two attacks of 400 at once from the two processes: one fells it, the other comes after.
        before = set(asyncio.all_tasks())
        await one.run("bossfight world attack", CAROL, deck=("deck.csv", DECK), channel_id=CHANNEL_ID, wait=False)
        await two.run(
            "bossfight world attack", two.alice, deck=("deck.csv", DECK), guild_id=OTHER_GUILD_ID,
            channel_id=OTHER_GUILD_CHANNEL_ID, wait=False,
        )  # fmt: skip
        await one.settle(before)
        await two.settle(before)
        replies = [m for m in fake.messages.values() if m.embeds and str(m.embeds[0].title).startswith("⚔️")]
        credited = sorted(m.field("Credited") for m in replies[-2:])
        assert credited == ["**200** - the final blow!", "nothing: your attack was stored after the boss fell"]

        rows = await one.bot.db.fetch_all("SELECT guild_id, outcome, credited_micro FROM world_boss_attacks")
        assert sum(r["credited_micro"] for r in rows) == 1000 * 10**6
        assert [r["outcome"] for r in rows].count(AttackOutcome.FINAL_BLOW) == 1

        # Both processes announce the end in their servers' channels.
        await news(one).tick()
        await news(two).tick()
        await one.settle()
        await two.settle()
        ends = [m for m in fake.messages.values() if m.embeds and m.embeds[0].title == "🏆 Inu Dogemon has fallen!"]
        assert sorted(m.channel_id for m in ends) == [CHANNEL_ID, OTHER_GUILD_CHANNEL_ID]
        for end in ends:
            assert "This server's place: " in str(end.embed.description)
        # A late attack once it has fallen: there is no world boss now.
        (late,) = await one.run("bossfight world attack", one.bob, deck=("deck.csv", DECK), channel_id=CHANNEL_ID)
        assert late.ephemeral and "There is no world boss now" in late.content
        (history,) = await two.run(
            "bossfight world history", two.bob, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID
        )
        assert "Inu Dogemon: felled (1000 HP" in str(history.embed.description)
    finally:
        await one.bot.close()
        await two.bot.close()


async def test_only_owners_spawn_and_attacks_happen_in_the_world_boss_channel(tmp_path):
    h = await bot_serving(GUILD_ID, CHANNEL_ID, tmp_path, "solo", FakeDiscord())
    try:
        (refused,) = await h.run("bossfight world spawn", h.alice, boss="Inu Dogemon")
        assert refused.ephemeral
        assert refused.content == "❌ Only the bot's owners can spawn a world boss: the members listed in OWNER_IDS."
        (none,) = await h.run("bossfight world status", h.alice)
        assert "There is no world boss now" in none.content
        await h.run("bossfight world spawn", h.gm, boss="Inu Dogemon", multiplier=2.0, cooldown=60)
        (elsewhere,) = await h.run(
            "bossfight world attack", h.alice, deck=("deck.csv", DECK), channel_id=CHANNEL_ID + 1
        )
        assert elsewhere.content == f"❌ The world boss is fought in <#{CHANNEL_ID}>."
        (hit,) = await h.run("bossfight world attack", h.alice, deck=("deck.csv", DECK), channel_id=CHANNEL_ID)
        assert hit.field("World boss HP") == "1600/2000"
        (again,) = await h.run("bossfight world attack", h.alice, deck=("deck.csv", DECK), channel_id=CHANNEL_ID)
        assert "try again in 1 min" in again.content
        (status,) = await h.run("bossfight world status", h.alice)
        assert status.embed.title == "🌍 Inu Dogemon: 1600/2000 HP"
        assert "<@1200000000000000002>: 400 (1 attack)" in status.field("This server's board")
    finally:
        await h.bot.close()


async def test_a_server_chooses_its_channel_with_arena_settings_and_sees_the_live_boss_at_once(tmp_path):
    fake = FakeDiscord()
    h = await bot_serving(GUILD_ID, CHANNEL_ID, tmp_path, "later", fake)
    cog = h.bot.get_cog("Bossfight")
    assert isinstance(cog, Bossfight)
    cog.clock = lambda: 1_900_000_000.0

    async def stored_channels() -> list[tuple[int, int | None]]:
        rows = await h.bot.db.fetch_all("SELECT guild_id, world_boss_channel_id FROM guild_settings ORDER BY guild_id")
        return [tuple(r) for r in rows]

    async def settings_there(user: User, **options) -> list:  # /arena-settings in the other server
        return await h.run(
            "arena-settings", user, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID, **options
        )

    try:
        await h.run("bossfight world spawn", h.gm, boss="Inu Dogemon", days=0.01)  # 864 s
        h.guild_create(OTHER_GUILD_ID)
        before = await stored_channels()
        assert before == [(GUILD_ID, CHANNEL_ID)]

        # A member without Manage Server, and a game master giving both: refused, nothing stored or posted.
        (refused,) = await settings_there(h.alice, world_boss_channel=OTHER_GUILD_CHANNEL_ID)
        assert refused.ephemeral and refused.content == (
            "❌ Only members with the Manage Server permission can see or change this server's Arena settings."
        )
        (both,) = await settings_there(h.gm, world_boss_channel=OTHER_GUILD_CHANNEL_ID, clear_world_boss_channel=True)
        assert both.ephemeral and both.content == "❌ Give a world-boss channel or clear it, not both."
        assert await stored_channels() == before

        # The option arrives as Discord sends it: the id in the option, the channel in the resolved data.
        done, announced = await settings_there(h.gm, world_boss_channel=OTHER_GUILD_CHANNEL_ID)
        assert done.ephemeral and done.embed.title == "⚙️ Arena settings in this server"
        assert done.embed.description == f"✅ World bosses are announced and fought in <#{OTHER_GUILD_CHANNEL_ID}> now."
        assert done.field("World-boss channel") == (
            f"<#{OTHER_GUILD_CHANNEL_ID}>: world bosses are announced and fought there"
        )
        assert await stored_channels() == [(GUILD_ID, CHANNEL_ID), (OTHER_GUILD_ID, OTHER_GUILD_CHANNEL_ID)]
        # The live boss, at once, in the new channel (world_boss_channel_set, not the next poll).
        assert not announced.ephemeral and announced.channel_id == OTHER_GUILD_CHANNEL_ID
        assert announced.embed.title == "🌍 A world boss appears: Inu Dogemon"

        (cleared,) = await settings_there(h.gm, clear_world_boss_channel=True)
        assert cleared.embed.description == "✅ This server no longer takes part in world bosses."
        assert cleared.field("World-boss channel") == "None: not taking part"
        assert await stored_channels() == [(GUILD_ID, CHANNEL_ID), (OTHER_GUILD_ID, None)]
        # Its end is announced where the server still takes part only.
        cog.clock = lambda: 1_900_000_000.0 + 864
        await cog.world.news.tick()
        await h.settle()
        ends = [
            m.channel_id for m in fake.messages.values() if m.embeds and m.embeds[0].title == "⌛ Inu Dogemon got away"
        ]
        assert ends == [CHANNEL_ID]
    finally:
        await h.bot.close()


async def test_a_boss_whose_time_runs_out_gets_away_and_a_late_attack_is_told(tmp_path):
    h = await bot_serving(GUILD_ID, CHANNEL_ID, tmp_path, "timeout", FakeDiscord())
    try:
        cog = h.bot.get_cog("Bossfight")
        assert isinstance(cog, Bossfight)
        cog.clock = lambda: 1_900_000_000.0
        await h.run("bossfight world spawn", h.gm, boss="Inu Dogemon", days=0.01)  # 864 s
        (hit,) = await h.run("bossfight world attack", h.alice, deck=("deck.csv", DECK), channel_id=CHANNEL_ID)
        assert hit.field("World boss HP") == "600/1000"
        cog.clock = lambda: 1_900_000_000.0 + 864
        (late,) = await h.run("bossfight world attack", h.bob, deck=("deck.csv", DECK), channel_id=CHANNEL_ID)
        assert late.field("Credited") == "nothing: your attack was stored after the boss's end time"
        await cog.world.news.tick()
        await h.settle()
        (end,) = [m for m in h.fake.messages.values() if m.embeds and m.embeds[0].title == "⌛ Inu Dogemon got away"]
        assert end.channel_id == CHANNEL_ID
        assert "Its time ran out with 600/1000 HP left." in str(end.embed.description)
        (history,) = await h.run("bossfight world history", h.bob)
        assert history.embed.description == "#1 Inu Dogemon: got away (1000 HP, ended <t:1900000864:f>)"
    finally:
        await h.bot.close()
