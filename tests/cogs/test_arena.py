"""/arena profile through the real command tree: a little of each game is played, and the profile's figures
are compared with what that game's own commands show and its rows hold."""

from __future__ import annotations

import copy
import json

import discord
import pytest

from cogs.deck.render import measured
from offline_discord.harness import GUILD_ID, OTHER_GUILD_CHANNEL_ID, OTHER_GUILD_ID, User
from rules.contract import Tally
from rules.deck.fast import compile_kernels
from rules.text import format_number as num
from storage.andor import AndorRepository
from storage.bossfight import BossfightRepository
from storage.deck import DeckRepository
from storage.errors import DATABASE_UNREACHABLE, StorageOutage
from storage.member_data import MemberDataRepository
from storage.mma import MmaRepository
from storage.ratings import RatingRepository
from tests.cogs.test_andor import play, stored_character
from tests.cogs.test_bossfight import DECK_400, spawn
from tests.cogs.test_mma import CAROL, fix_deals, not_pings, start_pvp

FIELDS = ["🥊 MMA Warriors", "🐉 Boss raids", "🗺️ Andor's Trail", "🃏 Deck optimizer", "See more"]


async def profile(h, viewer: User, member: User | None = None):
    options = {} if member is None else {"member": member}
    (reply,) = await h.run("arena profile", viewer, **options)
    assert [f.name for f in reply.embed.fields] == FIELDS
    return reply


async def concede(h, match, user: User) -> None:
    (ask,) = not_pings(await h.click(match, "Concede", user))
    await h.click(ask, "Yes, concede", user)


async def test_a_member_who_never_played_gets_a_friendly_empty_profile(harness):
    h = harness
    reply = await profile(h, h.alice)
    assert not reply.ephemeral and reply.embed.title == "🏟️ Alice in this server"
    assert reply.embed.description == (
        "Alice has not played here yet. Every game is one command away: `/mma ai`, `/mma challenge`, "
        "`/bossfight attack`, `/andor fight` or `/deck optimize`."
    )
    assert reply.field("🥊 MMA Warriors") == (
        "Not rated yet: a match between two members rates both\nNo finished matches yet."
    )
    assert reply.field("🐉 Boss raids") == "No attacks yet."
    assert reply.field("🗺️ Andor's Trail") == "No character or fights yet."
    assert reply.field("🃏 Deck optimizer") == "No optimization yet."
    assert reply.field("See more") == (
        "`/mma stats` · `/mma leaderboard` · `/bossfight status` · `/bossfight history` · "
        "`/andor character show` · `/deck optimize`"
    )


async def test_mma_record_and_rating_are_the_games_own(harness):
    h = harness
    fix_deals(h)
    (ai_match,) = await h.run("mma ai", h.alice)
    await concede(h, ai_match, h.alice)  # a loss against the AI
    pvp = await start_pvp(h)
    await concede(h, pvp, h.bob)  # a win against Bob
    rating = await RatingRepository(h.bot.db).rating(GUILD_ID, h.alice.id)
    tallies = await MmaRepository(h.bot.db).tallies(GUILD_ID, h.alice.id)
    assert tallies.overall == Tally(wins=1, losses=1, draws=0) and tallies.against_ai == Tally(losses=1)

    (stats,) = await h.run("mma stats", h.bob, member=h.alice)
    reply = await profile(h, h.bob, h.alice)
    assert reply.embed.title == "🏟️ Alice in this server" and reply.embed.description is None
    assert reply.field("🥊 MMA Warriors") == (
        f"Rating **{rating.text_with_deviation()}** after 1 rated match\n**1** win · **1** loss · **0** draws; "
        "against the AI 0–1"
    )
    shown = f"**{rating.text_with_deviation()}**"  # as /mma stats shows it: `1500? ±225`
    assert stats.field("Rating").startswith(shown) and f" ±{round(rating.sigma)}" in shown
    counts = stats.description.split(" (")[0]  # /mma stats: "**1** win · **1** loss · **0** draws (50% won)…"
    assert counts in reply.field("🥊 MMA Warriors") and "against the AI 0–1" in stats.description
    assert rating.text().endswith("?")  # one game: provisional, shown as the games show it
    assert reply.field("🐉 Boss raids") == "No attacks yet."


async def test_raid_damage_and_bosses_felled_add_up_the_raids_leaderboards(harness):
    h = harness
    await spawn(h)  # Inu Dogemon, 1000 HP; DECK_400 deals 400 and takes 200 of its 1200 HP
    await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    await h.run("bossfight attack", h.bob, deck=("deck.csv", DECK_400))
    await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400))  # 200 left: 200 credited, the final blow
    (history,) = await h.run("bossfight history", h.alice)
    assert f"Final blow: <@{h.alice.id}>" in history.embed.description
    assert f"<@{h.alice.id}>: 600 damage dealt (2 attacks; overkill 200 not counted)" in history.embed.description
    await spawn(h)  # a second raid, still live
    await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400))

    repo = BossfightRepository(h.bot.db)
    raids = await h.bot.db.fetch_all("SELECT id FROM bossfight_raids ORDER BY id")
    totals = [t for raid in raids for t in await repo.leaderboard(raid["id"]) if t.user_id == h.alice.id]
    assert [(t.damage, t.attacks) for t in totals] == [(600, 2), (400, 1)]
    reply = await profile(h, h.alice)
    assert reply.field("🐉 Boss raids") == (
        f"**{num(sum(t.damage for t in totals))}** damage dealt in 3 attacks over 2 raids\n"
        "**1** boss felled (final blows) · knocked out 0 times"
    )
    bob = await profile(h, h.alice, h.bob)
    assert bob.field("🐉 Boss raids") == (
        "**400** damage dealt in 1 attack over 1 raid\n**0** bosses felled (final blows) · knocked out 0 times"
    )
    # Another server's raids are its own.
    elsewhere = await h.run("arena profile", h.alice, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID)
    assert elsewhere[0].field("🐉 Boss raids") == "No attacks yet."


async def test_andor_level_gold_potions_and_kills_are_the_stored_ones(harness):
    h = harness
    strong = {"attack_chance": 1000, "damage_min": 5, "damage_max": 5, "ap": 8, "attack_cost": 4, "hp_bonus": 500}
    await h.run("andor character set", h.alice, **strong)
    # Two rats: one killed, then away (a kill in a fight that was not won).
    (fled,) = await h.run("andor fight", h.alice, monster="Tiny rat", count=2, seed=6)
    assert await h.click(fled, "Attack Tiny rat 1", h.alice) == []
    while fled.components:
        assert await h.click(fled, "Flee (80%)", h.alice) == []
    assert fled.description.startswith("🏃 **You got away.**")
    (won,) = await h.run("andor fight", h.alice, monster="Tiny rat", seed=7)
    await play(h, won, h.alice, "Attack Tiny rat")
    assert won.description.startswith("🏆 **Victory!**")
    kills_shown = sum(line.count("**killed**") for line in (fled.description + won.description).splitlines())
    assert kills_shown == 2

    character = await stored_character(h, h.alice)
    (shown,) = await h.run("andor character show", h.alice)
    assert shown.field("Gold").startswith(f"{character.gold:,} ")
    assert shown.field("Potions").startswith(f"{character.potions}, ")
    totals = (await AndorRepository(h.bot.db).ended_fights(GUILD_ID, h.alice.id)).totals()
    assert (totals.ends.wins, totals.fled, totals.ends.losses, totals.kills) == (1, 1, 0, 2)
    reply = await profile(h, h.bob, h.alice)
    assert reply.field("🗺️ Andor's Trail") == (
        f"Level **{character.level}** ({character.xp}/{character.xp_to_next_level} XP) · **{character.gold:,}** gold · "
        f"**{character.potions}** potions\n**2** kills in 2 fights: 1 won, 1 fled"
    )
    assert shown.field("Level") == f"{character.level} ({character.xp}/{character.xp_to_next_level} XP)"

    # A character set but never fought, and fights whose character was reset since.
    await h.run("andor character set", h.bob, potions=1)
    bob = await profile(h, h.alice, h.bob)
    assert bob.field("🗺️ Andor's Trail") == "Level **1** (0/55 XP) · **0** gold · **1** potion\nNo fights yet."
    await h.run("andor character reset", h.alice)
    reply = await profile(h, h.alice)
    assert reply.field("🗺️ Andor's Trail") == (
        "No character stored (reset): the next fight starts a level 1 one.\n**2** kills in 2 fights: 1 won, 1 fled"
    )


@pytest.fixture
def compiled_kernels():
    compile_kernels()  # paid before the harness waits for a job


@pytest.mark.one_backend
async def test_the_best_deck_winrate_is_the_best_result_an_optimization_showed(harness, compiled_kernels):
    h = harness
    (better,) = await h.run("deck optimize", h.alice, iterations=30, games=200, seed=5)
    (worse,) = await h.run("deck optimize", h.alice, iterations=5, games=10, seed=1)
    rows = await h.bot.db.fetch_all("SELECT seed, wins, losses, ties, winrate FROM deck_results ORDER BY id")
    assert [(r["seed"], r["wins"] + r["losses"] + r["ties"]) for r in rows] == [(5, 10_000), (1, 10_000)]
    best = await DeckRepository(h.bot.db).best_result(GUILD_ID, h.alice.id)
    assert best is not None and best.seed == 5 and rows[0]["winrate"] > rows[1]["winrate"]
    shown = measured(best.score, bold=True)  # the result's winrate as the run's message shows it, bold
    assert shown in better.field("Winrate") and shown not in worse.field("Winrate")
    reply = await profile(h, h.alice)
    assert reply.field("🃏 Deck optimizer") == (
        f"Best winrate {shown}\nagainst a random deck from the seed · seed 5 · 30 iterations × 200 games"
    )
    assert (await profile(h, h.alice, h.bob)).field("🃏 Deck optimizer") == "No optimization yet."


async def test_names_are_shown_as_written_and_nobody_is_pinged(harness):
    h = harness
    sly = User(1200000000000000009, "*Sly* @everyone <@1200000000000000002>")
    (reply,) = await h.run("arena profile", h.alice, member=sly)
    assert reply.embed.title == "🏟️ \\*Sly\\* @\u200beveryone <@\u200b1200000000000000002> in this server"
    (sent,) = [r.payload.get("data", r.payload) for r in h.fake.requests if r.payload]
    assert sent["allowed_mentions"] == {"parse": []}


async def test_the_command_and_its_option_have_help(harness):
    group = harness.bot.tree.get_command("arena")
    command = group.get_command("profile")
    assert command.qualified_name == "arena profile" and command.description
    (member,) = command.parameters
    assert member.name == "member"
    assert member.description == "Whose profile (default: yours); a member who left can be given by id"
    assert {c.name for c in group.walk_commands()} == {"profile", "my-data", "forget-me", "web-pages"}


@pytest.mark.one_backend
async def test_a_result_the_database_cannot_keep_is_still_shown_and_the_member_is_told(
    harness, compiled_kernels, monkeypatch
):
    h = harness

    async def unreachable(job_id, result):
        raise StorageOutage(DATABASE_UNREACHABLE)

    monkeypatch.setattr(h.bot.get_cog("DeckOptimizer").results, "job_ended", unreachable)
    shown, told = await h.run("deck optimize", h.alice, iterations=5, games=10, seed=1)
    assert shown.embed.title.startswith("🃏 ") and "deck-1.csv" in shown.files
    assert told.ephemeral and told.content == f"⚠️ {DATABASE_UNREACHABLE}"
    assert await h.bot.db.fetch_all("SELECT * FROM deck_results") == []
    assert (await profile(h, h.alice)).field("🃏 Deck optimizer") == "No optimization yet."


# --- /arena-settings: a server's own game-master role (RULINGS 8, "Servers") ---------------------------------

RAID_LEADERS = (777, "Raid *Leaders*")
RAIDER = User(1200000000000000021, "Raider", role_ids=(777,))
NAMED_LEADER = User(1200000000000000022, "Named", role_ids=(555,))  # has the role GM_ROLE names, not the server's


async def settings(h, user: User, **options):
    (reply,) = await h.run("arena-settings", user, **options)
    assert reply.ephemeral
    return reply


async def spawn_as(h, user: User):
    (reply,) = await h.run("bossfight spawn", user, boss="Inu Dogemon", replace=True)
    return reply


@pytest.mark.one_backend
async def test_the_command_is_shown_to_members_with_manage_server_only(harness):
    command = harness.bot.tree.get_command("arena-settings")
    payload = command.to_dict(harness.bot.tree)
    assert payload["default_member_permissions"] == discord.Permissions(manage_guild=True).value
    assert [p.name for p in command.parameters] == [
        "gm_role",
        "clear_gm_role",
        "party_turn_seconds",
        "web_pages",
        "world_boss_channel",
        "clear_world_boss_channel",
    ]


async def test_a_server_sets_shows_and_clears_its_game_master_role(harness):
    h = harness
    h.bot.settings.gm_role = "Raid Leader"
    h.add_role(555, "raid leader")
    h.add_role(777, "Raid *Leaders*")

    shown = await settings(h, h.gm)
    assert shown.embed.title == "⚙️ Arena settings in this server" and shown.embed.description is None
    assert shown.field("Game-master role") == (
        "**Raid Leader** (by name: the bot's default, GM_ROLE, as this server set none)"
    )
    assert shown.embed.footer.text == "Members with Manage Server are always game masters."
    assert (await spawn_as(h, NAMED_LEADER)).embed.title == "◽ Inu Dogemon appears!"  # the default applies

    done = await settings(h, h.gm, gm_role=RAID_LEADERS)
    assert done.embed.description == "✅ Members with the **Raid \\*Leaders\\*** role are game masters here now."
    assert done.field("Game-master role") == "<@&777> (set for this server)"
    rows = await h.bot.db.fetch_all("SELECT guild_id, gm_role_id FROM guild_settings")
    assert [tuple(r) for r in rows] == [(GUILD_ID, 777)]

    # The server's role, by id, and no longer GM_ROLE's; Manage Server always.
    assert (await spawn_as(h, RAIDER)).embed.title == "◽ Inu Dogemon appears!"
    refused = await spawn_as(h, NAMED_LEADER)
    assert refused.ephemeral and refused.content == (
        "❌ Only a game master can do that: it needs the Manage Server permission or the <@&777> role."
    )
    refused = await spawn_as(h, h.alice)
    assert refused.content.endswith("the <@&777> role.")
    assert (await spawn_as(h, h.gm)).embed.title == "◽ Inu Dogemon appears!"

    # Another server keeps the default.
    (elsewhere,) = await h.run("arena-settings", h.gm, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID)
    assert elsewhere.field("Game-master role").startswith("**Raid Leader** (by name")

    cleared = await settings(h, h.gm, clear_gm_role=True)
    assert cleared.embed.description == (
        "✅ This server's game-master role is cleared: the bot's default applies here again."
    )
    assert cleared.field("Game-master role").startswith("**Raid Leader** (by name")
    assert (await spawn_as(h, NAMED_LEADER)).embed.title == "◽ Inu Dogemon appears!"
    assert (await spawn_as(h, RAIDER)).content.endswith("or the 'Raid Leader' role.")


async def test_a_server_sets_its_andor_party_turn_time(harness):
    h = harness
    assert (await settings(h, h.gm)).field("Andor party turn") == "60 s"
    done = await settings(h, h.gm, party_turn_seconds=15)
    assert done.embed.description == "✅ An Andor party member has 15 s for a turn here now."
    assert done.field("Andor party turn") == "15 s" and done.field("Game-master role").startswith("None set")
    rows = await h.bot.db.fetch_all("SELECT guild_id, gm_role_id, party_turn_seconds FROM guild_settings")
    assert [tuple(r) for r in rows] == [(GUILD_ID, None, 15)]
    (refused,) = await h.run("arena-settings", h.gm, party_turn_seconds=301)
    assert refused.ephemeral and "300" in refused.content
    h.add_role(777, "Raid *Leaders*")
    both = await settings(h, h.gm, gm_role=RAID_LEADERS, party_turn_seconds=300)
    assert both.embed.description.endswith("\n✅ An Andor party member has 300 s for a turn here now.")
    assert both.field("Andor party turn") == "300 s"


async def test_the_servers_role_runs_gm_buttons_and_outlives_a_restart(harness):
    from tests.cogs.test_mfd import HEROES, VILLAINS

    h = harness
    await settings(h, h.gm, gm_role=RAID_LEADERS)
    await h.restart()
    h.add_role(777, "Raid *Leaders*")  # the new process's cache, as the gateway brings it
    assert (await settings(h, h.gm)).field("Game-master role") == "<@&777> (set for this server)"
    (first,) = await h.run("mfd battle", RAIDER, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    (refused,) = await h.click(first, "Fight one more round", h.alice)
    assert refused.content.endswith("the Manage Server permission or the <@&777> role.")
    (second,) = await h.click(first, "Fight one more round", RAIDER)
    assert second.embed.title == "🤝 Draw: both sides fell in round 2"


async def test_only_manage_server_sees_or_changes_the_settings(harness):
    h = harness
    for options in ({}, {"gm_role": RAID_LEADERS}, {"clear_gm_role": True}, {"web_pages": True}):
        refused = await settings(h, h.alice, **options)
        assert refused.content == (
            "❌ Only members with the Manage Server permission can see or change this server's Arena settings."
        )
    assert (await settings(h, h.gm, gm_role=(GUILD_ID, "@everyone"))).content == (
        "❌ @everyone cannot be the game-master role: every member would be a game master."
    )
    both = await settings(h, h.gm, gm_role=RAID_LEADERS, clear_gm_role=True)
    assert both.content == "❌ Give a game-master role or clear it, not both."
    assert await h.bot.db.fetch_all("SELECT * FROM guild_settings") == []


async def test_a_server_turns_its_web_pages_on_and_a_member_hides_their_own(harness):
    from cogs.common.web_links import match_path, with_page_link

    h = harness
    assert (await settings(h, h.gm)).field("Web pages") == (
        "Off: `/arena-settings web_pages:True` turns them on (members can still hide their own)"
    )
    assert await with_page_link(h.bot, GUILD_ID, None, match_path(GUILD_ID, 5)) is None  # no address known
    on = await settings(h, h.gm, web_pages=True)
    assert on.embed.description == "✅ This server's pages are on the web now: anyone with the address can read them."
    assert (
        on.field("Web pages")
        == "On, but the bot has no WEB_BASE_URL: its owner has not said where its pages are served"
    )
    h.bot.settings.web_base_url = "https://arena.example"
    assert (await settings(h, h.gm)).field("Web pages") == f"On: https://arena.example/servers/{GUILD_ID}"
    rows = await h.bot.db.fetch_all("SELECT guild_id, gm_role_id, web_pages FROM guild_settings")
    assert [tuple(r) for r in rows] == [(GUILD_ID, None, 1)]
    # The messages' link button, in a row of its own after their buttons.
    view = await with_page_link(h.bot, GUILD_ID, None, match_path(GUILD_ID, 5))
    assert view is not None
    assert [(b.label, b.url) for b in view.children] == [  # type: ignore[attr-defined]
        ("Open on the web", f"https://arena.example/servers/{GUILD_ID}/matches/5")
    ]
    assert await with_page_link(h.bot, OTHER_GUILD_ID, None, match_path(OTHER_GUILD_ID, 5)) is None  # pages off

    (hidden,) = await h.run("arena web-pages", h.alice, visible=False)
    assert hidden.ephemeral and hidden.content == (
        "✅ Your page is hidden, and your name shows on no page of this server: your matches read "
        '"a hidden member". `/arena web-pages visible:True` shows them again.'
    )
    rows = await h.bot.db.fetch_all("SELECT guild_id, user_id FROM web_hidden_members")
    assert [tuple(r) for r in rows] == [(GUILD_ID, h.alice.id)]
    (shown,) = await h.run("arena web-pages", h.alice, visible=True)
    assert shown.ephemeral and shown.content.startswith("✅ Your page and your name are shown")
    assert await h.bot.db.fetch_all("SELECT * FROM web_hidden_members") == []

    off = await settings(h, h.gm, web_pages=False)
    assert off.embed.description == "✅ This server's pages are off the web now."
    assert await with_page_link(h.bot, GUILD_ID, None, match_path(GUILD_ID, 5)) is None


# --- members who leave, members who ask (RULINGS 8: "a former member") -----------------------------------------

ALICE_ELSEWHERE = {"guild_id": OTHER_GUILD_ID, "channel_id": OTHER_GUILD_CHANNEL_ID}


async def test_a_member_who_left_is_still_shown_by_stats_history_and_profile(harness):
    h = harness
    fix_deals(h)
    pvp = await start_pvp(h)
    await concede(h, pvp, h.bob)
    gone = User(h.alice.id, "*Alice*", left=True)  # resolved as a user without member data
    (stats,) = await h.run("mma stats", h.bob, member=gone)
    assert stats.embed.title == "📊 \\*Alice\\*: MMA Warriors record in this server"
    assert stats.embed.description.startswith("**1** win")
    (history,) = await h.run("mma history", h.bob, member=gone)
    assert history.embed.description.startswith(f"<@{h.alice.id}>: 1 finished match")
    reply = await profile(h, h.bob, gone)
    assert reply.embed.title == "🏟️ \\*Alice\\* in this server"
    assert reply.field("🥊 MMA Warriors").endswith("**1** win · **0** losses · **0** draws; against the AI 0–0")


async def alice_and_bob_play_here_and_alice_elsewhere(h) -> None:
    """Alice beats Bob (rated), loses to the AI, saves a raid deck and attacks a raid Bob also attacks, fights in
    Andor's Trail, has a /deck result and an upload, and saves a raid deck in another server too."""
    fix_deals(h)
    pvp = await start_pvp(h)
    await concede(h, pvp, h.bob)
    (ai_match,) = await h.run("mma ai", h.alice)
    await concede(h, ai_match, h.alice)
    await spawn(h)
    for user in (h.alice, h.bob):
        await h.run("bossfight deck save", user, deck=("deck.csv", DECK_400))
        await h.run("bossfight attack", user)
    await h.run("bossfight deck save", h.alice, deck=("mine.csv", DECK_400), **ALICE_ELSEWHERE)
    (fight,) = await h.run("andor fight", h.alice, monster="Tiny rat", seed=7)
    await play(h, fight, h.alice, "Attack Tiny rat")
    async with h.bot.db.transaction() as conn:  # a /deck result each and Alice's upload, as their commands store them
        for user in (h.alice, h.bob):
            await conn.execute(
                "INSERT INTO deck_results (guild_id, user_id, seed, iterations, iterations_done, games, "
                "opponent_file, wins, losses, ties, winrate, finished_at) "
                "VALUES (?, ?, 1, 10, 10, 10, NULL, 5, 5, 0, 0.5, 'x')",
                (GUILD_ID, user.id),
            )
        await conn.execute(
            "INSERT INTO guild_uploads (guild_id, kind, name_key, entry_json, uploaded_by) VALUES (?, 'boss', ?, '{}', ?)",
            (GUILD_ID, "alices boss", h.alice.id),
        )


async def rows_about(h, user: User, guild: int = GUILD_ID) -> dict:
    return (await MemberDataRepository(h.bot.db).export(guild, user.id)).rows


async def test_forget_me_erases_the_members_rows_here_and_opponents_keep_a_former_member(harness):
    h = harness
    await alice_and_bob_play_here_and_alice_elsewhere(h)
    before = await rows_about(h, h.alice)
    assert set(before) == {
        "mma_ratings", "mma_rating_changes", "mma_results", "mma_fielded", "mma_matches", "bossfight_decks",
        "bossfight_attacks", "bossfight_players", "andor_characters", "andor_fights", "deck_results", "guild_uploads",
    }  # fmt: skip
    bobs = await rows_about(h, h.bob)
    elsewhere = await rows_about(h, h.alice, OTHER_GUILD_ID)
    credited = await h.bot.db.fetch_one("SELECT sum(credited) AS c FROM bossfight_attacks")

    (ask,) = await h.run("arena forget-me", h.alice)
    assert ask.ephemeral and ask.embed.title == "🗑️ Erase what Arena keeps about you in this server?"
    assert "- MMA results: **2**" in ask.embed.description and "- saved raid deck: **1**" in ask.embed.description
    assert [c["label"] for c in ask.components] == ["Erase my data here", "Keep it"]
    stale_copy = copy.deepcopy(ask)
    (refused,) = await h.click(ask, "Erase my data here", h.bob)
    assert (
        refused.content
        == "❌ This confirmation is someone else's, so nothing was changed: `/arena forget-me` is yours."
    )
    assert await rows_about(h, h.alice) == before

    assert await h.click(ask, "Erase my data here", h.alice) == []  # the confirmation becomes the receipt
    assert ask.embed.title == "✅ Erased what Arena kept about you in this server" and ask.components == []
    assert await rows_about(h, h.alice) == {}
    # The other server's rows and Bob's own rows are untouched, but for Alice's id in them.
    assert await rows_about(h, h.alice, OTHER_GUILD_ID) == elsewhere
    bobs_now = await rows_about(h, h.bob)
    assert bobs_now.keys() == bobs.keys()
    for table in ("mma_ratings", "bossfight_decks", "bossfight_players", "deck_results", "mma_fielded"):
        assert bobs_now[table] == bobs[table], table
    assert [r["opponent_id"] for r in bobs_now["mma_results"]] == [0]  # a former member
    assert [r["opponent_id"] for r in bobs_now["mma_rating_changes"]] == [0]
    assert [r["mu_after"] for r in bobs_now["mma_rating_changes"]] == [
        r["mu_after"] for r in bobs["mma_rating_changes"]
    ]
    (match,) = bobs_now["mma_matches"]  # the AI match was Alice's alone, and is gone
    assert (match["player0_id"], match["player0_name"]) == (0, "a former member")
    assert f"<@{h.alice.id}>" not in match["feed_json"] and "a former member" in match["feed_json"]
    attackers = await h.bot.db.fetch_all("SELECT user_id FROM bossfight_attacks ORDER BY id")
    assert [r["user_id"] for r in attackers] == [0, h.bob.id]
    assert (await h.bot.db.fetch_one("SELECT sum(credited) AS c FROM bossfight_attacks"))["c"] == credited["c"]
    assert await h.bot.db.fetch_all("SELECT * FROM guild_uploads") == []

    (history,) = await h.run("mma history", h.bob)
    assert "vs a former member: **Loss** (Conceded)" in history.embed.description
    (board,) = await h.run("mma leaderboard", h.bob)
    assert f"<@{h.alice.id}>" not in board.text()
    assert (await profile(h, h.bob, h.alice)).embed.description.startswith("Alice has not played here yet.")

    (again,) = await h.click(stale_copy, "Erase my data here", h.alice)
    assert again.content == "❌ Arena keeps nothing about you in this server now, so nothing was changed."
    (nothing,) = await h.run("arena forget-me", h.alice)
    assert nothing.content == "❌ Arena keeps nothing about you in this server: there is nothing to erase."


async def test_forget_me_waits_for_live_games_and_for_a_fresh_confirmation(harness):
    h = harness
    (challenge,) = await h.run("mma challenge", h.alice, opponent=h.bob)
    (refused,) = await h.run("arena forget-me", h.alice)
    assert refused.content == (
        "❌ You have 1 MMA match or challenge going in this server, so nothing was erased: finish them first (a "
        "match's Concede button, a fight's Flee, or decline the challenge), then run `/arena forget-me` again."
    )
    await h.click(challenge, "Decline", h.bob)
    await h.run("bossfight deck save", h.alice, deck=("deck.csv", DECK_400))
    (ask,) = await h.run("arena forget-me", h.alice)
    earlier = copy.deepcopy(ask)
    assert await h.click(ask, "Keep it", h.alice) == []
    assert ask.content == "Nothing was erased: Arena keeps your data here as it was." and ask.components == []
    await h.run("bossfight deck save", h.alice, deck=("other.csv", DECK_400))  # changed since it asked
    (changed,) = await h.click(earlier, "Erase my data here", h.alice)
    assert changed.content == (
        "❌ Your data here changed since this confirmation was shown, so nothing was erased: run `/arena forget-me` "
        "again to see it as it is."
    )
    assert (await rows_about(h, h.alice))["bossfight_decks"][0]["file_name"] == "other.csv"
    await h.restart()  # the confirmation's buttons outlive a restart
    (ask,) = await h.run("arena forget-me", h.alice)
    assert await h.click(ask, "Erase my data here", h.alice) == []
    assert await rows_about(h, h.alice) == {}


async def test_my_data_is_the_members_rows_here_and_nothing_of_others(harness):
    h = harness
    await alice_and_bob_play_here_and_alice_elsewhere(h)
    (reply,) = await h.run("arena my-data", h.alice)
    assert reply.ephemeral
    assert reply.content.startswith("📦 Everything Arena keeps about you in this server, ")
    assert "- MMA results: **2**" in reply.content
    data = json.loads(reply.files["arena-my-data.json"])
    assert (data["guild_id"], data["user_id"]) == (GUILD_ID, h.alice.id)
    assert data["tables"] == json.loads(json.dumps(await rows_about(h, h.alice), default=str))
    tables = data["tables"]
    for table in ("mma_ratings", "mma_rating_changes", "mma_results", "mma_fielded", "bossfight_decks",
                  "bossfight_attacks", "bossfight_players", "andor_characters", "andor_fights", "deck_results"):  # fmt: skip
        assert tables[table] and all(row["user_id"] == h.alice.id for row in tables[table]), table
    assert all(row.get("guild_id", GUILD_ID) == GUILD_ID for rows in tables.values() for row in rows)
    assert [r["file_name"] for r in tables["bossfight_decks"]] == ["deck.csv"]  # not the other server's
    assert all(h.alice.id in (m["player0_id"], m["player1_id"]) for m in tables["mma_matches"])

    (empty,) = await h.run("arena my-data", CAROL)
    assert empty.content == "Arena keeps nothing about you in this server." and empty.files == {}
