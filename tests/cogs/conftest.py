import pytest

from offline_discord.harness import FakeDiscord, Harness, HeldCall, make_settings, start_bot
from tests.conftest import emptied

# The games whose commands store things run on both backends (issue 15); the others on SQLite alone.
STORING_MODULES = {
    "test_andor",
    "test_arena",
    "test_bossfight",
    "test_deck_restarts",
    "test_lifecycle",
    "test_mfd",
    "test_mma",
    "test_mma_rivalry",
    "test_mma_tournament",
}


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        module = metafunc.module.__name__.rsplit(".", 1)[-1]
        both = module in STORING_MODULES and metafunc.definition.get_closest_marker("one_backend") is None
        metafunc.parametrize("backend", ["sqlite", "postgres"] if both else ["sqlite"])


@pytest.fixture(autouse=True)
def held_calls_released():
    """A test that holds an engine call (`HeldCall`) and never releases it fails, however it ends."""
    HeldCall.live.clear()
    yield
    HeldCall.check_all_released()


@pytest.fixture(autouse=True)
async def fake_discords_stopped():
    """Every fake Discord a test started stops with the test, as its event loop does."""
    yield
    for fake in list(FakeDiscord.live):
        await fake.stop()


@pytest.fixture
def database_path(tmp_path):
    return tmp_path / "arena.sqlite3"


@pytest.fixture
async def harness(backend, database_path, request):
    """The bot with a fresh database (SQLite, or PostgreSQL for the storing games' second run);
    `harness.restart()` gives a new bot on the same database."""
    overrides = {}
    if backend == "postgres":
        overrides["database_url"] = await emptied(request.getfixturevalue("postgres_games_database"))
    fake, settings = FakeDiscord(), make_settings(database_path, **overrides)
    h = Harness(await start_bot(settings, fake), fake, settings)
    yield h
    await h.bot.close()
