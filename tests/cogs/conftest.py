import pytest

from tests.cogs.harness import FakeDiscord, Harness, make_settings, start_bot


@pytest.fixture
def database_path(tmp_path):
    return tmp_path / "arena.sqlite3"


@pytest.fixture
async def harness(database_path):
    """The bot with a fresh database; `harness.restart()` gives a new bot on the same file."""
    fake = FakeDiscord()
    bot = await start_bot(make_settings(database_path), fake)
    h = Harness(bot, fake)

    async def restart() -> Harness:
        await h.bot.close()
        h.bot = await start_bot(make_settings(database_path), fake)
        return h

    h.restart = restart
    yield h
    await h.bot.close()
