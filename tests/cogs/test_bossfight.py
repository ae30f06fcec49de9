"""/bossfight through the real command tree, with a real SQLite file."""


from tests.cogs.harness import GUILD_ID, User

DECK_HEADER = ("token,trait,element,health,physical_damage,physical_penetration,physical_resistance,"
               "magical_damage,magical_penetration,magical_resistance")
BOSS_HEADER = ("name,level,element,health,physical_damage,physical_penetration,physical_resistance,"
               "magical_damage,magical_penetration,magical_resistance")


def csv(header: str, *rows: str) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode()


# Against Inu Dogemon (1000 HP, 200 physical, 100 magical, element None, no pen/res):
# 300 physical + 100 magical = 400 damage; the deck takes 200 x 0.5 (one resisting row) + 100 = 200.
DECK_400 = csv(DECK_HEADER, "Fox,Bite,Fire,500,300,N,Y,0,N,N", "Owl,Hoot,Air,700,0,N,N,100,N,N")


async def spawn_dogemon(h, **options):
    return await h.run("bossfight spawn", h.gm, boss="Inu Dogemon", **options)


async def test_spawn_attack_twice_status_and_the_fall(harness):
    h = harness
    (spawned,) = await spawn_dogemon(h)
    assert spawned.embed.title == "◽ Inu Dogemon appears!"
    assert "░" not in spawned.embed.description and "1000/1000" in spawned.embed.description

    (first,) = await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert first.embed.title == "⚔️ Alice hits Inu Dogemon for 400"
    assert "600/1000" in first.embed.description
    assert "= **200**" in first.field("Damage your deck took")
    assert "leftover 1000: survives" in first.field("Your deck")
    assert "physical ×0.5 · magical ×1 · element ×1 (over 2 traits)" in first.field("Stacked modifiers of your deck")
    table = first.field("Damage per token")
    assert "Fox" in table and "300" in table and "Owl" in table and "100" in table
    breakdown = first.files["attack-breakdown.txt"].decode()
    assert "Boss HP: 1000 -> 600" in breakdown
    assert not first.ephemeral

    await h.run("bossfight attack", h.bob, deck=("deck.csv", DECK_400))
    (status,) = await h.run("bossfight status", h.alice)
    assert "200/1000" in status.embed.description
    attackers = status.field("Attackers (2)")
    assert "<@800000000000000002>: 400 damage (1 attack)" in attackers
    assert "<@800000000000000003>: 400 damage (1 attack)" in attackers

    hit, announcement = await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert "0/1000" in hit.embed.description
    assert announcement.embed.title == "🏆 Inu Dogemon has fallen!"
    board = announcement.embed.description.splitlines()
    assert board[1] == "🥇 <@800000000000000002>: 800 damage (2 attacks)"
    assert board[2] == "🥈 <@800000000000000003>: 400 damage (1 attack)"

    rows = await h.bot.db.fetch_all("SELECT status, hp FROM bossfight_raids")
    assert [tuple(r) for r in rows] == [("defeated", 0)]
    attacks = await h.bot.db.fetch_all("SELECT user_id, damage, boss_hp_after FROM bossfight_attacks ORDER BY id")
    assert [tuple(r) for r in attacks] == [
        (h.alice.id, 400, 600), (h.bob.id, 400, 200), (h.alice.id, 400, 0),
    ]
    (after,) = await h.run("bossfight attack", h.bob, deck=("deck.csv", DECK_400))
    assert after.ephemeral and "There is no boss in this channel" in after.content


async def test_concurrent_attacks_both_count(harness):
    h = harness
    await spawn_dogemon(h)
    await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400), wait=False)
    await h.run("bossfight attack", h.bob, deck=("deck.csv", DECK_400), wait=False)
    await h.settle()
    (hp,) = await h.bot.db.fetch_one("SELECT hp FROM bossfight_raids WHERE status = 'live'")
    assert hp == 200


async def test_non_gm_cannot_spawn_or_upload(harness):
    h = harness
    (refusal,) = await h.run("bossfight spawn", h.alice, boss="Inu Dogemon")
    assert refusal.ephemeral
    assert refusal.content == "❌ Only a game master can do that: it needs the Manage Server permission."
    (refusal,) = await h.run("bossfight upload", h.alice, bosses=("b.csv", csv(BOSS_HEADER, "X,1,Fire,10,1,N,N,1,N,N")))
    assert "Only a game master" in refusal.content
    assert await h.bot.db.fetch_all("SELECT * FROM bossfight_raids") == []
    assert await h.bot.db.fetch_all("SELECT * FROM bossfight_bosses") == []


async def test_gm_role_setting_counts_as_gm(database_path):
    from tests.cogs.harness import FakeDiscord, Harness, make_settings, start_bot

    fake = FakeDiscord()
    bot = await start_bot(make_settings(database_path, gm_role="Raid Leader"), fake)
    try:
        h = Harness(bot, fake)
        h.add_role(555, "raid leader")
        leader = User(800000000000000009, "Leader", role_ids=(555,))
        (spawned,) = await h.run("bossfight spawn", leader, boss="Inu Dogemon")
        assert spawned.embed.title == "◽ Inu Dogemon appears!"
        (refusal,) = await h.run("bossfight spawn", h.alice, boss="Inu Dogemon", replace=True)
        assert "the Manage Server permission or the 'Raid Leader' role" in refusal.content
    finally:
        await bot.close()


async def test_spawn_refused_while_live_unless_replace(harness):
    h = harness
    await spawn_dogemon(h)
    (refusal,) = await h.run("bossfight spawn", h.gm, boss="Axieom Asmodeus")
    assert refusal.ephemeral and "Inu Dogemon is still alive here (1000 HP)" in refusal.content
    (replaced,) = await h.run("bossfight spawn", h.gm, boss="axieom asmodeus", replace=True)
    assert replaced.embed.title == "💧 Axieom Asmodeus appears!"
    rows = await h.bot.db.fetch_all("SELECT status FROM bossfight_raids ORDER BY id")
    assert [r["status"] for r in rows] == ["replaced", "live"]


async def test_bad_deck_gets_the_specific_error_and_nothing_is_stored(harness):
    h = harness
    await spawn_dogemon(h)
    bad = csv(DECK_HEADER, "Fox,Bite,Fire,500,300,N,Y,0,N,N", "Fox,Claw,Water,5,1,N,N,1,N,N")
    (reply,) = await h.run("bossfight attack", h.alice, deck=("mine.csv", bad))
    assert reply.ephemeral
    assert reply.content.startswith("❌ mine.csv, row 3, column 'element': token 'Fox' is Water here but Fire on row 2")
    (reply,) = await h.run("bossfight deck save", h.alice, deck=("mine.csv", csv(DECK_HEADER, "Fox,Bite,Fire,x,1,N,N,1,N,N")))
    assert reply.content == "❌ mine.csv, row 2, column 'health': 'x' is not a number"
    assert await h.bot.db.fetch_all("SELECT * FROM bossfight_attacks") == []
    assert await h.bot.db.fetch_all("SELECT * FROM bossfight_decks") == []
    (raid,) = await h.bot.db.fetch_all("SELECT hp FROM bossfight_raids")
    assert raid["hp"] == 1000


async def test_non_utf8_and_oversized_attachments_are_refused(harness):
    h = harness
    (reply,) = await h.run("bossfight deck save", h.alice, deck=("deck.csv", "tok\xe9n".encode("latin-1")))
    assert "deck.csv is not UTF-8 text" in reply.content
    (reply,) = await h.run("bossfight deck save", h.alice, deck=("big.csv", b"x" * (1024 * 1024 + 1)))
    assert reply.content == "❌ big.csv is 1024 KiB; the limit is 1024 KiB."


async def test_saved_deck_is_used_and_shown(harness):
    h = harness
    (saved,) = await h.run("bossfight deck save", h.alice, deck=("my deck.csv", DECK_400))
    assert saved.content == "✅ Saved my deck.csv: 2 tokens, 2 traits, 1200 health in all."
    (shown,) = await h.run("bossfight deck show", h.alice)
    assert shown.ephemeral and shown.embed.title == "Your deck: my deck.csv"
    assert shown.files["my deck.csv"] == DECK_400
    (nothing,) = await h.run("bossfight deck show", h.bob)
    assert "You have no saved deck" in nothing.content
    await spawn_dogemon(h)
    (hit,) = await h.run("bossfight attack", h.alice)
    assert hit.embed.title == "⚔️ Alice hits Inu Dogemon for 400"
    (no_deck,) = await h.run("bossfight attack", h.bob)
    assert no_deck.content == "❌ Attach a deck CSV, or save one first with `/bossfight deck save`."


async def test_upload_adds_to_roster_and_replaces_by_name(harness):
    h = harness
    bosses = csv(BOSS_HEADER, "Frost Wyrm,6,Water,50000,100,N,N,100,N,N", "inu dogemon,2,Earth,3000,1,N,N,1,N,N")
    (reply,) = await h.run("bossfight upload", h.gm, bosses=("bosses.csv", bosses))
    assert reply.embed.title == "Roster updated: 2 bosses saved"
    (roster,) = await h.run("bossfight roster", h.alice)
    assert roster.embed.title == "Boss roster (7)"
    assert "**Frost Wyrm**: level 6 Water, HP 50000" in roster.embed.description
    assert "**inu dogemon**: level 2 Earth, HP 3000" in roster.embed.description
    assert "Inu Dogemon**" not in roster.embed.description
    choices = await h.autocomplete("bossfight spawn", "boss", "wyr", h.gm)
    assert choices == [{"name": "Frost Wyrm (level 6, Water)", "value": "Frost Wyrm"}]
    rows = await h.bot.db.fetch_all("SELECT guild_id, name_key FROM bossfight_bosses ORDER BY name_key")
    assert [tuple(r) for r in rows] == [(GUILD_ID, "frost wyrm"), (GUILD_ID, "inu dogemon")]


async def test_unknown_boss_is_refused(harness):
    (reply,) = await harness.run("bossfight spawn", harness.gm, boss="Nobody")
    assert "There is no boss called 'Nobody'" in reply.content


async def test_preview_changes_nothing(harness):
    h = harness
    await spawn_dogemon(h)
    await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    (preview,) = await h.run("bossfight preview", h.bob, boss="Inu Dogemon", deck=("deck.csv", DECK_400))
    assert preview.ephemeral
    assert preview.embed.title == "🔍 Preview: your deck against Inu Dogemon would deal 400"
    assert "200/1000" in preview.embed.description  # from the live raid's 600
    (hp,) = await h.bot.db.fetch_one("SELECT hp FROM bossfight_raids")
    assert hp == 600
    assert len(await h.bot.db.fetch_all("SELECT * FROM bossfight_attacks")) == 1


async def test_restart_keeps_the_live_raid(harness):
    h = harness
    await spawn_dogemon(h)
    await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    await h.restart()
    (status,) = await h.run("bossfight status", h.bob)
    assert "600/1000" in status.embed.description
    (hit,) = await h.run("bossfight attack", h.bob, deck=("deck.csv", DECK_400))
    assert "200/1000" in hit.embed.description


async def test_unexpected_error_gets_an_error_id_and_is_logged(harness, monkeypatch, caplog):
    h = harness
    await spawn_dogemon(h)
    cog = h.bot.get_cog("Bossfight")

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(cog.repo, "record_attack", broken)
    (reply,) = await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert reply.ephemeral and reply.content.startswith("⚠️ Something went wrong on our side (error id `")
    error_id = reply.content.split("`")[1]
    assert any(error_id in r.getMessage() and r.exc_info for r in caplog.records)

