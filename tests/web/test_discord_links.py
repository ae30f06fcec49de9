"""From Discord to the page: with WEB_BASE_URL set and the server's pages on, /mma stats, /mma leaderboard,
/mma replay, a tournament's standings and /bossfight world status carry a link button to their page; without
either, none."""

from __future__ import annotations

from cogs.common.web_links import PAGE_LINK_LABEL
from cogs.mma.cog import COG_NAME
from cogs.mma.tournaments import rounds as tournament_rounds
from offline_discord.harness import CHANNEL_ID, GUILD_ID, FakeDiscord, Harness, make_settings, start_bot
from storage.guild_settings import GuildSettingsRepository
from tests.web.builders import played_match, running_tournament

BASE = "https://arena.example"


def links(message) -> list[str]:
    return [c["url"] for c in message.components if c.get("label") == PAGE_LINK_LABEL]


async def test_the_mma_readings_link_to_their_pages(tmp_path):
    fake = FakeDiscord()
    settings = make_settings(tmp_path / "arena.sqlite3", web_base_url=BASE)
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        match = await played_match(
            h.bot.db, ((h.alice.id, "Alice"), (h.bob.id, "Bob")), 3, 1_780_000_000.0, guild_id=GUILD_ID
        )
        (board,) = await h.run("mma leaderboard", h.alice)
        assert links(board) == []  # the server's pages are off
        await GuildSettingsRepository(h.bot.db).set_web_pages(GUILD_ID, True)
        (board,) = await h.run("mma leaderboard", h.alice)
        assert links(board) == [f"{BASE}/servers/{GUILD_ID}"]
        (stats,) = await h.run("mma stats", h.alice)
        assert links(stats) == [f"{BASE}/servers/{GUILD_ID}/members/{h.alice.id}"]
        await h.run("arena web-pages", h.bob, visible=False)
        (stats,) = await h.run("mma stats", h.alice, member=h.bob)
        assert links(stats) == []  # Bob hid his page
        (replay,) = await h.run("mma replay", h.alice, match=match.id)
        assert links(replay) == [f"{BASE}/servers/{GUILD_ID}/matches/{match.id}"]
        await h.click(replay, "Forward ▶", h.alice)  # still there a step on
        assert links(replay) == [f"{BASE}/servers/{GUILD_ID}/matches/{match.id}"]
    finally:
        await h.bot.close()


async def test_a_tournaments_standings_link_to_its_page(tmp_path):
    fake = FakeDiscord()
    settings = make_settings(tmp_path / "arena.sqlite3", web_base_url=BASE)
    h = Harness(await start_bot(settings, fake), fake, settings)
    try:
        await GuildSettingsRepository(h.bot.db).set_web_pages(GUILD_ID, True)
        players = [(h.alice.id, "Alice"), (h.bob.id, "Bob"), (7003, "Carol"), (7004, "Dave")]
        tournament, _ = await running_tournament(
            h.bot.db, players, 1_780_000_000.0, guild_id=GUILD_ID, channel_id=CHANNEL_ID
        )
        fake.channel(CHANNEL_ID)  # the channel the tournament was opened in, as Discord knows it
        await tournament_rounds.show_standings(h.bot.get_cog(COG_NAME).tournaments, tournament)  # type: ignore[union-attr]
        (standings,) = fake.messages.values()
        assert standings.embed.title == "🏆 MMA Warriors Swiss tournament #1"
        assert links(standings) == [f"{BASE}/servers/{GUILD_ID}/tournaments/{tournament.id}"]
    finally:
        await h.bot.close()


async def test_the_world_boss_status_links_to_its_page(tmp_path):
    from tests.cogs.test_world_boss import bot_serving

    h = await bot_serving(GUILD_ID, CHANNEL_ID, tmp_path, "world", FakeDiscord(), web_base_url=BASE)
    try:
        await h.run("bossfight world spawn", h.gm, boss="Inu Dogemon")
        (status,) = await h.run("bossfight world status", h.alice)
        assert status.embed.title == "🌍 Inu Dogemon: 1000/1000 HP" and links(status) == []  # pages off
        await GuildSettingsRepository(h.bot.db).set_web_pages(GUILD_ID, True)
        (status,) = await h.run("bossfight world status", h.alice)
        assert status.ephemeral and links(status) == [f"{BASE}/world-boss"]
    finally:
        await h.bot.close()
