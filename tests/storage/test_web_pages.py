"""What the web pages read beyond the games' repositories (storage/web_pages.py), on both backends."""

from __future__ import annotations

from storage.guild_settings import GuildSettings, GuildSettingsRepository
from storage.web_pages import WebPagesRepository
from tests.web.builders import GUILD, OTHER_GUILD, played_match, stored_name

NOW = 1_780_000_000.0


async def test_pages_are_off_until_a_game_master_turns_them_on(database):
    repo = WebPagesRepository(database)
    settings = GuildSettingsRepository(database)
    assert not await repo.pages_on(GUILD)
    assert await settings.set_gm_role(GUILD, 555) == GuildSettings(gm_role_id=555, web_pages=False)
    assert await settings.set_web_pages(GUILD, True) == GuildSettings(gm_role_id=555, web_pages=True)
    assert await repo.pages_on(GUILD) and not await repo.pages_on(OTHER_GUILD)
    assert await settings.set_gm_role(GUILD, None) == GuildSettings(gm_role_id=None, web_pages=True)
    await settings.set_web_pages(GUILD, False)
    assert not await repo.pages_on(GUILD)


async def test_a_member_hides_their_pages_and_shows_them_again(database):
    repo = WebPagesRepository(database)
    for guild_id in (GUILD, OTHER_GUILD):
        await GuildSettingsRepository(database).set_web_pages(guild_id, True)
    await repo.set_hidden(GUILD, 7, True)
    await repo.set_hidden(GUILD, 7, True)  # twice: still hidden, once
    await repo.set_hidden(OTHER_GUILD, 8, True)
    assert await repo.shown_except(GUILD) == {7}
    await repo.set_hidden(GUILD, 7, False)
    assert await repo.shown_except(GUILD) == set() and await repo.shown_except(OTHER_GUILD) == {8}


async def test_names_are_the_latest_a_member_played_under_and_found_by_any_part(database):
    repo = WebPagesRepository(database)
    await played_match(database, ((1, "Old_Name"), (2, "50% Bob")), 1, NOW)
    await played_match(database, ((2, "50% Bob"), (1, "New*Name")), 2, NOW + 60)
    await played_match(database, ((3, "Carol"), (4, "Dave")), 3, NOW, guild_id=OTHER_GUILD)
    assert await repo.names(GUILD, [1, 2, 3, 0]) == {1: stored_name("New*Name"), 2: "50% Bob"}
    assert await repo.named_like(GUILD, stored_name("name"), 10) == [1]  # any of the names played under, any case
    assert await repo.named_like(GUILD, "%", 10) == [2]  # a LIKE wildcard is a character like any other
    assert await repo.named_like(GUILD, "!", 10) == []  # nor is the escape character
    assert await repo.named_like(GUILD, "carol", 10) == []  # another server's member


async def test_every_page_asks_first_whether_the_server_shows_pages_and_who_hid_theirs(database):
    repo = WebPagesRepository(database)
    assert await repo.shown_except(GUILD) is None  # unknown
    await GuildSettingsRepository(database).set_gm_role(GUILD, 555)
    assert await repo.shown_except(GUILD) is None  # known, pages off
    await GuildSettingsRepository(database).set_web_pages(GUILD, True)
    assert await repo.shown_except(GUILD) == frozenset()
    await repo.set_hidden(GUILD, 7, True)
    await repo.set_hidden(GUILD, 9, True)
    await repo.set_hidden(OTHER_GUILD, 8, True)
    assert await repo.shown_except(GUILD) == {7, 9}
