import pytest

from tests.cogs.harness import FakeDiscord, Harness, make_settings, start_bot


@pytest.fixture
def database_path(tmp_path):
    return tmp_path / "arena.sqlite3"


@pytest.fixture
async def harness(database_path):
    """The bot with a fresh database; `harness.restart()` gives a new bot on the same file."""
    fake, settings = FakeDiscord(), make_settings(database_path)
    h = Harness(await start_bot(settings, fake), fake, settings)
    yield h
    await h.bot.close()
