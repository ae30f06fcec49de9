"""/bossfight through the real command tree, with a real SQLite file."""

from datetime import datetime
from pathlib import Path

from offline_discord.harness import GUILD_ID, HeldCall, User
from rules.text import format_number as num
from storage.bossfight import RaidStatus
from storage.times import stored_time, unix_time
from tests.rules.test_csvio import formulas

DECK_HEADER = (
    "token,trait,element,health,physical_damage,physical_penetration,physical_resistance,"
    "magical_damage,magical_penetration,magical_resistance"
)
BOSS_HEADER = (
    "name,level,element,health,physical_damage,physical_penetration,physical_resistance,"
    "magical_damage,magical_penetration,magical_resistance"
)
EXAMPLE_DECK = (Path(__file__).resolve().parents[2] / "examples" / "bossfight" / "deck.csv").read_bytes()


def csv(header: str, *rows: str) -> bytes:
    return ("\n".join([header, *rows]) + "\n").encode()


# Against Inu Dogemon (1000 HP, 200 physical, 100 magical, element None, no pen/res):
# 300 physical + 100 magical = 400 damage; the deck takes 200 x 0.5 (one resisting row) + 100 = 200.
DECK_400 = csv(DECK_HEADER, "Fox,Bite,Fire,500,300,N,Y,0,N,N", "Owl,Hoot,Air,700,0,N,N,100,N,N")


async def run(h, path: str, user: User, **options):
    """One command of `user`: the messages it posted (a deferral's answer is its placeholder, as on Discord)."""
    return await h.run(path, user, **options)


async def spawn(h, boss: str = "Inu Dogemon", **options):
    return await run(h, "bossfight spawn", h.gm, boss=boss, **options)


def public(h):
    return [m for m in h.messages if not m.ephemeral]


async def test_spawn_attack_twice_status_and_the_fall(harness):
    h = harness
    (spawned,) = await spawn(h)
    assert spawned.embed.title == "◽ Inu Dogemon appears!"
    assert "░" not in spawned.embed.description and "1000/1000" in spawned.embed.description

    (first,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert not first.ephemeral
    assert first.embed.title == "⚔️ Alice hits Inu Dogemon for 400"
    assert "600/1000" in first.embed.description
    assert "= **200**" in first.field("Damage your deck took")
    assert first.field("Your deck").splitlines()[::2] == [
        "health 1200 − taken earlier in the raid 0 − this attack 200 = **1000** left",
        "still in the raid ✅",
    ]
    assert "physical ×0.5 · magical ×1 · element ×1 (over 2 traits" in first.field("Stacked modifiers of your deck")
    breakdown = first.files["attack-breakdown.txt"].decode()
    assert "Boss HP: 1000 - 400 -> 600" in breakdown

    await run(h, "bossfight attack", h.bob, deck=("deck.csv", DECK_400))
    (status,) = await run(h, "bossfight status", h.alice)
    assert "200/1000" in status.embed.description
    attackers = status.field("Attackers (2)")
    assert "<@1200000000000000002>: 400 damage dealt (1 attack), 200 taken" in attackers
    assert "<@1200000000000000003>: 400 damage dealt (1 attack), 200 taken" in attackers

    # The boss's damage to Alice adds up over the raid: her second attack starts at 1200 - 200.
    hit, announcement = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert "0/1000" in hit.embed.description
    assert hit.field("Your deck").startswith(
        "health 1200 − taken earlier in the raid 200 − this attack 200 = **800** left"
    )
    assert (
        "Deck HP: 1200 - 200 taken earlier in the raid - 200 = 800 (survives)"
        in hit.files["attack-breakdown.txt"].decode()
    )
    assert "Boss HP: 200 - 400 -> 0 (defeated)" in hit.files["attack-breakdown.txt"].decode()
    assert not announcement.ephemeral and announcement.embed.title == "🏆 Inu Dogemon has fallen!"
    # RULINGS 7: Alice's last 400 hit a boss with 200 left: 200 is credited, 200 is overkill, shown apart.
    assert hit.embed.description.splitlines()[-1] == (
        "The boss had 200 HP left: 200 is credited to you, 200 is overkill (shown apart, not counted)."
    )
    board = announcement.embed.description.splitlines()
    assert board[1] == "🥇 <@1200000000000000002>: 600 damage dealt (2 attacks; overkill 200 not counted), 400 taken"
    assert board[2] == "🥈 <@1200000000000000003>: 400 damage dealt (1 attack), 200 taken"

    rows = await h.bot.db.fetch_all("SELECT status, hp FROM bossfight_raids")
    assert [tuple(r) for r in rows] == [(RaidStatus.DEFEATED, 0)]
    attacks = await h.bot.db.fetch_all(
        "SELECT user_id, damage, credited, boss_hp_after FROM bossfight_attacks ORDER BY id"
    )
    assert [tuple(r) for r in attacks] == [
        (h.alice.id, 400, 400, 600),
        (h.bob.id, 400, 400, 200),
        (h.alice.id, 400, 200, 0),
    ]
    (after,) = await run(h, "bossfight attack", h.bob, deck=("deck.csv", DECK_400))
    assert after.ephemeral and after.content == (
        "❌ There is no boss in this channel. A GM can start a raid with `/bossfight spawn`."
    )


async def test_three_decimal_attacks_fell_the_boss_with_the_announcement(harness):
    # RULINGS 6: 333.3 + 333.3 + 333.4 fell a 1000-HP boss; unrounded it stayed alive at "0/1000".
    h = harness
    await spawn(h)
    replies = []
    for user, damage in ((h.alice, "333.3"), (h.bob, "333.3"), (h.alice, "333.4")):
        deck = csv(DECK_HEADER, f"Fox,Bite,None,1000,{damage},N,N,0,N,N")
        replies.append(await run(h, "bossfight attack", user, deck=("deck.csv", deck)))
    assert "666.7/1000" in replies[0][0].embed.description
    assert "333.4/1000" in replies[1][0].embed.description
    hit, announcement = replies[2]
    assert "0/1000" in hit.embed.description
    assert "Boss HP: 333.4 - 333.4 -> 0 (defeated)" in hit.files["attack-breakdown.txt"].decode()
    assert announcement.embed.title == "🏆 Inu Dogemon has fallen!"
    board = announcement.embed.description.splitlines()
    assert board[1:3] == [
        "🥇 <@1200000000000000002>: 666.7 damage dealt (2 attacks), 600 taken",
        "🥈 <@1200000000000000003>: 333.3 damage dealt (1 attack), 300 taken",
    ]
    (raid,) = await h.bot.db.fetch_all("SELECT status, hp FROM bossfight_raids")
    assert tuple(raid) == (RaidStatus.DEFEATED, 0)


async def test_one_attack_whose_tokens_add_up_to_the_hp_in_decimals_fells_the_boss(harness):
    h = harness
    await spawn(h)
    deck = csv(DECK_HEADER, *(f"T{i},Bite,None,1000,{d},N,N,0,N,N" for i, d in enumerate(("200.7", "311.4", "487.9"))))
    hit, announcement = await run(h, "bossfight attack", h.alice, deck=("deck.csv", deck))
    assert hit.embed.title == "⚔️ Alice hits Inu Dogemon for 1000"
    assert announcement.embed.title == "🏆 Inu Dogemon has fallen!"
    (raid,) = await h.bot.db.fetch_all("SELECT status, hp FROM bossfight_raids")
    assert tuple(raid) == (RaidStatus.DEFEATED, 0)


async def test_a_boss_left_with_a_sliver_of_hp_never_reads_as_0(harness):
    h = harness
    await spawn(h)
    (hit,) = await run(
        h, "bossfight attack", h.alice, deck=("deck.csv", csv(DECK_HEADER, "Fox,Bite,None,5000,999.996,N,N,0,N,N"))
    )
    assert tuple((await h.bot.db.fetch_all("SELECT status, hp FROM bossfight_raids"))[0]) == (RaidStatus.LIVE, 0.004)
    assert hit.embed.description.endswith("█░░░░░░░░░░░░░░░░░░░ 0.004/1000")
    (status,) = await run(h, "bossfight status", h.bob)
    assert "0.004/1000" in status.embed.description
    (refusal,) = await spawn(h, "Axieom Asmodeus")
    assert "Inu Dogemon is still alive here (0.004 HP)" in refusal.content


async def test_the_attack_reply_can_be_checked_by_hand(harness):
    # examples/bossfight/deck.csv against Axieom Asmodeus (Water, 25000 HP, physical 2000 resisted, magical 1500
    # penetrating): Ember Fox (Fire) 1000 x 0.5 + 500 x 1 x 0.5 = 750, Gale Hawk 0, Stone Golem (Earth,
    # penetrates physically) 1500 x 1 + 1000 x 1 x 2 = 3500; total 4250. The deck: three resisting rows give
    # 0.5^3 physical; elements 2^2 (Fire, 2 rows) x 1 (Air) x 0.5^2 (Earth, 2 rows) = 1; 2000 x 0.125 + 1500 = 1750.
    h = harness
    await spawn(h, "Axieom Asmodeus")
    (hit,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", EXAMPLE_DECK))
    assert hit.embed.title == "⚔️ Alice hits Axieom Asmodeus for 4250"
    assert "20750/25000" in hit.embed.description
    table = hit.field("Damage per token").splitlines()
    assert table[1:5] == [
        "token          element   ×phys  ×mag ×elem  ×you     dealt",
        "Ember Fox      Fire        0.5     1   0.5     2       750",
        "Gale Hawk      Air         0.5     1     1     1         0",
        "Stone Golem    Earth         1     1     2   0.5      3500",
    ]
    header = table[1].split()
    assert len(header) == len(set(header))  # every header names its own column
    assert hit.field("Damage your deck took") == "2000 × 0.125 + 1500 × 1 × 1 = **1750**"
    assert "this attack 1750 = **10050** left" in hit.field("Your deck")

    breakdown = hit.files["attack-breakdown.txt"].decode().splitlines()
    assert "  physical damage 2000, penetration N, resistance Y" in breakdown
    assert "Ember Fox    Fire       3500      1000    N       0.5      500    Y        1       0.5    750" in breakdown
    assert "Total damage to the boss: 750 + 0 + 3500 = 4250" in breakdown
    per_trait = breakdown[breakdown.index("token        trait     phys res  phys mod  mag res  mag mod  elem mod") :]
    assert per_trait[1:6] == [
        "Ember Fox    V                N         1        N        1         2",
        "Ember Fox    Assassin         Y       0.5        N        1         2",
        "Gale Hawk    Elixir           Y       0.5        N        1         1",
        "Stone Golem  Epic             Y       0.5        Y        1       0.5",
        "Stone Golem  Fair             N         1        N        1       0.5",
    ]
    assert "Stacked (the product of each column over 5 traits): physical 0.125, magical 1, element 1" in breakdown
    assert "Damage to the deck: 2000 x 0.125 + 1500 x 1 x 1 = 1750" in breakdown
    assert "Deck HP: 11800 - 1750 = 10050 (survives)" in breakdown


async def test_tiny_modifiers_are_shown_exactly(harness):
    # 20 resisting traits against Dogemon: 0.5^20 would be rounded as a decimal, so it is written 2^-20.
    h = harness
    await spawn(h)
    deck = csv(DECK_HEADER, *[f"T,r{i},None,10,1,N,Y,0,N,Y" for i in range(20)])
    (hit,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", deck))
    assert hit.field("Damage your deck took").startswith("200 × 2^-20 + 100 × 2^-20 × 1 = **")


async def test_concurrent_attacks_both_count_and_each_shows_the_hp_it_hit(harness):
    h = harness
    await spawn(h)
    await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400), wait=False)
    await h.run("bossfight attack", h.bob, deck=("deck.csv", DECK_400), wait=False)
    await h.settle()
    (hp,) = await h.bot.db.fetch_one("SELECT hp FROM bossfight_raids WHERE status = ?", (RaidStatus.LIVE,))
    assert hp == 200
    files = sorted(m.files["attack-breakdown.txt"].decode().splitlines()[-2] for m in public(h) if m.files)
    assert files == ["Boss HP: 1000 - 400 -> 600", "Boss HP: 600 - 400 -> 200"]


async def test_non_gm_cannot_spawn_upload_or_remove(harness):
    h = harness
    (refusal,) = await run(h, "bossfight spawn", h.alice, boss="Inu Dogemon")
    assert refusal.ephemeral
    assert refusal.content == "❌ Only a game master can do that: it needs the Manage Server permission."
    (refusal,) = await run(
        h, "bossfight upload", h.alice, bosses=("b.csv", csv(BOSS_HEADER, "X,1,Fire,10,1,N,N,1,N,N"))
    )
    assert "Only a game master" in refusal.content
    (refusal,) = await run(h, "bossfight remove", h.alice, boss="Inu Dogemon")
    assert "Only a game master" in refusal.content
    assert await h.bot.db.fetch_all("SELECT * FROM bossfight_raids") == []
    assert await h.bot.db.fetch_all("SELECT * FROM guild_uploads WHERE kind = 'boss'") == []


async def test_gm_role_setting_counts_as_gm(database_path):
    from offline_discord.harness import FakeDiscord, Harness, make_settings, start_bot

    fake, settings = FakeDiscord(), make_settings(database_path, gm_role="Raid Leader")
    bot = await start_bot(settings, fake)
    try:
        h = Harness(bot, fake, settings)
        h.add_role(555, "raid leader")
        leader = User(1200000000000000009, "Leader", role_ids=(555,))
        (spawned,) = await run(h, "bossfight spawn", leader, boss="Inu Dogemon")
        assert spawned.embed.title == "◽ Inu Dogemon appears!"
        (refusal,) = await run(h, "bossfight spawn", h.alice, boss="Inu Dogemon", replace=True)
        assert "the Manage Server permission or the 'Raid Leader' role" in refusal.content
    finally:
        await bot.close()


async def test_an_attack_landing_after_the_raid_was_replaced_says_so(harness, monkeypatch):
    h = harness
    await spawn(h)
    attack = HeldCall(monkeypatch, h.cog_module("Bossfight"), "calculate_attack")
    before = len(h.messages)
    await h.run("bossfight attack", h.alice, wait=False, deck=("deck.csv", DECK_400))
    await attack.entered()
    await spawn(h, "Inu Dogemon", replace=True)
    attack.release()
    await h.settle()
    assert "❌ Inu Dogemon was replaced by a GM's new raid before your attack landed; nothing was changed." in [
        m.content for m in h.messages[before:]
    ]
    rows = await h.bot.db.fetch_all("SELECT status, hp FROM bossfight_raids ORDER BY id")
    assert [tuple(r) for r in rows] == [(RaidStatus.REPLACED, 1000), (RaidStatus.LIVE, 1000)]


async def test_spawn_refused_while_live_unless_replace(harness):
    h = harness
    await spawn(h)
    (refusal,) = await spawn(h, "Axieom Asmodeus")
    assert refusal.ephemeral and "Inu Dogemon is still alive here (1000 HP)" in refusal.content
    (replaced,) = await spawn(h, "axieom asmodeus", replace=True)
    assert replaced.embed.title == "💧 Axieom Asmodeus appears!"
    rows = await h.bot.db.fetch_all("SELECT status FROM bossfight_raids ORDER BY id")
    assert [r["status"] for r in rows] == [RaidStatus.REPLACED, RaidStatus.LIVE]


async def test_bad_deck_gets_the_specific_error_privately_and_nothing_is_stored(harness):
    h = harness
    await spawn(h)
    bad = csv(DECK_HEADER, "Fox,Bite,Fire,500,300,N,Y,0,N,N", "Fox,Claw,Water,5,1,N,N,1,N,N")
    (reply,) = await run(h, "bossfight attack", h.alice, deck=("mine.csv", bad))
    assert reply.ephemeral
    assert reply.content.startswith("❌ mine.csv, row 3, column 'element': token 'Fox' is Water here but Fire on row 2")
    (reply,) = await run(
        h, "bossfight deck save", h.alice, deck=("mine.csv", csv(DECK_HEADER, "Fox,Bite,Fire,x,1,N,N,1,N,N"))
    )
    assert reply.content == "❌ mine.csv, row 2, column 'health': 'x' is not a number"
    (reply,) = await run(
        h, "bossfight deck save", h.alice, deck=("my_deck_.csv", csv(DECK_HEADER, "Fox,Bite,Fire,**x**,1,N,N,1,N,N"))
    )
    assert reply.content == r"❌ my\_deck\_.csv, row 2, column 'health': '\*\*x\*\*' is not a number"  # as typed
    # The attack's public "thinking…" placeholder is gone: only the spawn message is public.
    assert [m.embed.title for m in public(h)] == ["◽ Inu Dogemon appears!"]
    assert await h.bot.db.fetch_all("SELECT * FROM bossfight_attacks") == []
    assert await h.bot.db.fetch_all("SELECT * FROM bossfight_decks") == []
    (raid,) = await h.bot.db.fetch_all("SELECT hp FROM bossfight_raids")
    assert raid["hp"] == 1000


async def test_a_quote_never_closed_is_refused_at_the_row_it_opens(harness):
    h = harness
    await spawn(h)
    bad = csv(
        DECK_HEADER,
        "Fox,Bite,Fire,500,300,N,Y,0,N,N",
        '"Blade,Cut,Fire,500,300,N,Y,0,N,N',
        "Owl,Hoot,Air,700,0,N,N,100,N,N",
    )
    (reply,) = await run(h, "bossfight attack", h.alice, deck=("mine.csv", bad))
    assert reply.ephemeral and reply.content == (
        '❌ mine.csv, row 3: has a quote (") that opens here and is never closed; close it, or remove it'
    )
    assert await h.bot.db.fetch_all("SELECT * FROM bossfight_attacks") == []


async def test_bad_boss_csv_is_refused_and_nothing_is_stored(harness):
    h = harness
    bosses = csv(BOSS_HEADER, "Frost Wyrm,6,Ice,50000,100,N,N,100,N,N")
    (reply,) = await run(h, "bossfight upload", h.gm, bosses=("bosses.csv", bosses))
    assert reply.ephemeral and reply.content == (
        "❌ bosses.csv, row 2, column 'element': 'Ice' is not one of Water, Fire, Air, Lightning, Earth, None"
    )
    assert await h.bot.db.fetch_all("SELECT * FROM guild_uploads WHERE kind = 'boss'") == []


async def test_non_utf8_and_oversized_attachments_are_refused(harness):
    h = harness
    (reply,) = await run(h, "bossfight deck save", h.alice, deck=("my_deck_.csv", "tok\xe9n".encode("latin-1")))
    assert reply.content.startswith(r"❌ my\_deck\_.csv is not UTF-8 text")
    (reply,) = await run(h, "bossfight deck save", h.alice, deck=("big.csv", b"x" * (1024 * 1024 + 1)))
    assert reply.content == "❌ big.csv is 1,048,577 bytes; the limit is 1,048,576 bytes (1,024 KiB)."


async def test_a_deck_saved_by_a_spreadsheet_with_a_byte_order_mark_is_read(harness):
    (saved,) = await run(harness, "bossfight deck save", harness.alice, deck=("excel.csv", b"\xef\xbb\xbf" + DECK_400))
    assert saved.content == "✅ Saved excel.csv: 2 tokens, 2 traits, 1200 health in all."


async def test_mentions_in_replies_never_ping(harness):
    h = harness
    await spawn(h)
    await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    (status,) = await run(h, "bossfight status", h.bob)
    assert "<@1200000000000000002>" in status.field("Attackers (1)")
    # Interaction responses carry their message under "data", followups at the top.
    messages = [r.payload.get("data", r.payload) for r in h.fake.requests if r.payload]
    sent = [m["allowed_mentions"] for m in messages if "allowed_mentions" in m]
    assert len(sent) == 3 and all(mentions == {"parse": []} for mentions in sent)


async def test_saved_deck_is_used_and_shown(harness):
    h = harness
    (saved,) = await run(h, "bossfight deck save", h.alice, deck=("my deck.csv", DECK_400))
    assert saved.ephemeral and saved.content == "✅ Saved my deck.csv: 2 tokens, 2 traits, 1200 health in all."
    (shown,) = await run(h, "bossfight deck show", h.alice)
    assert shown.ephemeral and shown.embed.title == "Your deck: my deck.csv"
    assert shown.embed.description.splitlines() == [
        "🔥 **Fox** (Fire): 1 trait, HP 500, physical 300, magical 0",
        "🌪️ **Owl** (Air): 1 trait, HP 700, physical 0, magical 100",
    ]
    assert shown.embed.footer.text.startswith("2 tokens, 1200 health; saved ")
    assert shown.files["my deck.csv"] == DECK_400
    (nothing,) = await run(h, "bossfight deck show", h.bob)
    assert nothing.content == "❌ You have no saved deck in this server; save one with `/bossfight deck save`."
    await spawn(h)
    (hit,) = await run(h, "bossfight attack", h.alice)
    assert hit.embed.title == "⚔️ Alice hits Inu Dogemon for 400"
    (no_deck,) = await run(h, "bossfight attack", h.bob)
    assert (
        no_deck.ephemeral and no_deck.content == "❌ Attach a deck CSV, or save one first with `/bossfight deck save`."
    )


# Token names a spreadsheet would run as formulas, and one whose apostrophe is its own (`''=kept` is `'=kept`).
HOSTILE_DECK = csv(
    DECK_HEADER,
    '"=HYPERLINK(""http://x"",""y"")",Bite,Fire,500,300,N,Y,0,N,N',
    "@SUM(1),Hoot,Air,700,0,N,N,100,N,N",
    "\"+1+cmd|' /C calc'!A0\",Hoot,Air,100,0,N,N,1,N,N",
    "-2+3,Hoot,Air,100,0,N,N,1,N,N",
    "''=kept,Hoot,Air,100,0,N,N,1,N,N",
)


async def test_a_saved_deck_comes_back_with_formulas_neutralized_and_saves_again_as_the_same_deck(harness):
    h = harness
    await run(h, "bossfight deck save", h.alice, deck=("deck.csv", HOSTILE_DECK))
    (shown,) = await run(h, "bossfight deck show", h.alice)
    handed_back = shown.files["deck.csv"].decode()
    assert formulas(handed_back) == []
    assert handed_back.splitlines()[1:] == [
        '"\'=HYPERLINK(""http://x"",""y"")",Bite,Fire,500,300,N,Y,0,N,N',
        "'@SUM(1),Hoot,Air,700,0,N,N,100,N,N",
        "'+1+cmd|' /C calc'!A0,Hoot,Air,100,0,N,N,1,N,N",
        "'-2+3,Hoot,Air,100,0,N,N,1,N,N",
        "''=kept,Hoot,Air,100,0,N,N,1,N,N",
    ]
    assert "**'=kept**" in shown.embed.description  # the name, not the file's cell
    # Saved again from the file handed back, it is the same deck.
    await run(h, "bossfight deck save", h.alice, deck=("deck.csv", handed_back.encode()))
    (again,) = await run(h, "bossfight deck show", h.alice)
    assert again.embed.description == shown.embed.description
    assert again.files["deck.csv"].decode() == handed_back
    # A file with nothing to neutralize comes back byte for byte.
    await run(h, "bossfight deck save", h.bob, deck=("mine.csv", DECK_400))
    (plain,) = await run(h, "bossfight deck show", h.bob)
    assert plain.files["mine.csv"] == DECK_400


async def test_counts_of_one_read_as_one(harness):
    h = harness
    one = csv(DECK_HEADER, "Fox,Bite,None,500,1,N,N,0,N,N")
    (saved,) = await run(h, "bossfight deck save", h.alice, deck=("one.csv", one))
    assert saved.content == "✅ Saved one.csv: 1 token, 1 trait, 500 health in all."
    (shown,) = await run(h, "bossfight deck show", h.alice)
    assert shown.embed.footer.text.startswith("1 token, 500 health; saved ")
    await spawn(h)
    (hit,) = await run(h, "bossfight attack", h.alice)
    assert "(over 1 trait; " in hit.field("Stacked modifiers of your deck")


async def test_upload_adds_to_roster_and_replaces_by_name(harness):
    h = harness
    bosses = csv(BOSS_HEADER, "Frost Wyrm,6,Water,50000,100,N,N,100,N,N", "inu dogemon,2,Earth,3000,1,N,N,1,N,N")
    (reply,) = await run(h, "bossfight upload", h.gm, bosses=("bosses.csv", bosses))
    assert reply.ephemeral and reply.embed.title == "Roster updated: 2 bosses saved (2 of this server's own)"
    (roster,) = await run(h, "bossfight roster", h.alice)
    assert roster.embed.title == "Boss roster (7)"
    assert "**Frost Wyrm**: level 6 Water, HP 50000" in roster.embed.description
    assert "**inu dogemon**: level 2 Earth, HP 3000" in roster.embed.description
    assert "Inu Dogemon**" not in roster.embed.description
    choices = await h.autocomplete("bossfight spawn", "boss", "wyr", h.gm)
    assert choices == [{"name": "Frost Wyrm (level 6, Water)", "value": "Frost Wyrm"}]
    rows = await h.bot.db.fetch_all(
        "SELECT guild_id, name_key FROM guild_uploads WHERE kind = 'boss' ORDER BY name_key"
    )
    assert [tuple(r) for r in rows] == [(GUILD_ID, "frost wyrm"), (GUILD_ID, "inu dogemon")]


async def test_remove_takes_an_upload_out_and_brings_back_the_builtin_it_replaced(harness):
    h = harness
    bosses = csv(BOSS_HEADER, "Frost Wyrm,6,Water,50000,100,N,N,100,N,N", "Inu Dogemon,2,Earth,3000,1,N,N,1,N,N")
    await run(h, "bossfight upload", h.gm, bosses=("bosses.csv", bosses))
    # Only the server's own bosses are offered, and found as any boss name is: by part of it too.
    assert await h.autocomplete("bossfight remove", "boss", "", h.gm) == [
        {"name": "Frost Wyrm", "value": "Frost Wyrm"},
        {"name": "Inu Dogemon", "value": "Inu Dogemon"},
    ]
    (reply,) = await run(h, "bossfight remove", h.gm, boss="dogemon")
    assert reply.ephemeral and reply.content == (
        "✅ Removed Inu Dogemon. A raid already running against it goes on. The built-in Inu Dogemon is back in the "
        "roster."
    )
    (spawned,) = await spawn(h)
    assert "level 1 None, HP 1000" in spawned.embed.description
    (reply,) = await run(h, "bossfight remove", h.gm, boss="Axieom Asmodeus")
    assert reply.content == "❌ This server has no uploaded boss called 'Axieom Asmodeus'; built-in bosses stay."
    rows = await h.bot.db.fetch_all("SELECT name_key FROM guild_uploads WHERE kind = 'boss'")
    assert [r["name_key"] for r in rows] == ["frost wyrm"]


async def test_the_uploaded_roster_has_a_stated_limit(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(h.bot.get_cog("Bossfight").bosses, "limit", 3)
    await run(
        h,
        "bossfight upload",
        h.gm,
        bosses=("a.csv", csv(BOSS_HEADER, *[f"B{i},1,Fire,10,1,N,N,1,N,N" for i in range(2)])),
    )
    # Replacing by name does not count twice; a new name past the limit refuses the whole file.
    more = csv(BOSS_HEADER, "b1,2,Fire,10,1,N,N,1,N,N", "C,1,Air,10,1,N,N,1,N,N", "D,1,Air,10,1,N,N,1,N,N")
    (reply,) = await run(h, "bossfight upload", h.gm, bosses=("more.csv", more))
    assert reply.content == (
        "❌ With more.csv this server would have 4 uploaded bosses; the limit is 3. Nothing was saved; remove "
        "some with `/bossfight remove` first."
    )
    rows = await h.bot.db.fetch_all("SELECT name_key FROM guild_uploads WHERE kind = 'boss' ORDER BY name_key")
    assert [r["name_key"] for r in rows] == ["b0", "b1"]


async def test_autocomplete_offers_at_most_25_bosses(harness):
    h = harness
    bosses = csv(BOSS_HEADER, *[f"Minion {i:02},1,Fire,10,1,N,N,1,N,N" for i in range(40)])
    await run(h, "bossfight upload", h.gm, bosses=("bosses.csv", bosses))
    choices = await h.autocomplete("bossfight spawn", "boss", "", h.gm)
    assert len(choices) == 25
    assert len(await h.autocomplete("bossfight preview", "boss", "minion 3", h.alice)) == 10


async def test_names_from_files_cannot_break_the_formatting(harness):
    h = harness
    await run(h, "bossfight upload", h.gm, bosses=("b.csv", csv(BOSS_HEADER, "**Dark_Lord**,1,Fire,10,1,N,N,1,N,N")))
    (roster,) = await run(h, "bossfight roster", h.alice)
    assert r"🔥 **\*\*Dark\_Lord\*\***: level 1 Fire" in roster.embed.description
    await spawn(h)
    deck = csv(DECK_HEADER, "```x,a,None,10,1,N,N,1,N,N")
    (hit,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", deck))
    assert hit.field("Damage per token").count("```") == 2


async def test_a_name_written_as_a_mention_is_shown_as_text(harness):
    h = harness
    named = f"<@{h.bob.id}> @everyone"
    await run(h, "bossfight upload", h.gm, bosses=("b.csv", csv(BOSS_HEADER, f"{named},1,Fire,10,1,N,N,1,N,N")))
    (spawned,) = await spawn(h, named)
    assert spawned.embed.title == f"🔥 <@\u200b{h.bob.id}> @\u200beveryone appears!"
    (hit, fallen) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert f"<@{h.bob.id}>" not in hit.embed.title and "@everyone" not in fallen.embed.title


async def test_a_huge_deck_fits_discords_limits_and_the_file_has_every_trait(harness):
    h = harness
    await spawn(h, "Axieom Asmodeus")
    rows = [f"{'Token' * 19}{i:03},{'Trait' * 19}{i:03},Fire,10,1,N,Y,0,N,N" for i in range(500)]
    (hit,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", csv(DECK_HEADER, *rows)))
    assert hit.field("Damage per token").splitlines()[-2].startswith("… and ")
    breakdown = hit.files["attack-breakdown.txt"].decode()
    assert all(f"{'Trait' * 19}{i:03}" in breakdown for i in range(500))
    assert (
        "Stacked (the product of each column over 500 traits): physical 2^-500, magical 1, element 2^500" in breakdown
    )
    await run(h, "bossfight deck save", h.alice, deck=("deck.csv", csv(DECK_HEADER, *rows)))
    (shown,) = await run(h, "bossfight deck show", h.alice)
    assert shown.embed.description.splitlines()[-1].startswith("… and ")


async def test_unknown_boss_is_refused(harness):
    (reply,) = await run(harness, "bossfight spawn", harness.gm, boss="Nobody")
    assert (
        reply.content == "❌ There is no boss called 'Nobody' in this server's roster. `/bossfight roster` lists them."
    )
    (reply,) = await run(harness, "bossfight spawn", harness.gm, boss="Inu Dogmon")
    assert reply.content == (
        "❌ There is no boss called 'Inu Dogmon' in this server's roster. Did you mean Inu Dogemon? "
        "`/bossfight roster` lists them."
    )
    (spawned,) = await run(harness, "bossfight spawn", harness.gm, boss="dogemon")  # the only name containing it
    assert spawned.embed.title == "◽ Inu Dogemon appears!"


async def test_preview_changes_nothing(harness):
    h = harness
    await spawn(h)
    await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    (preview,) = await run(h, "bossfight preview", h.bob, boss="Inu Dogemon", deck=("deck.csv", DECK_400))
    assert preview.ephemeral
    assert preview.embed.title == "🔍 Preview: your deck against Inu Dogemon would deal 400"
    assert "200/1000" in preview.embed.description  # from the live raid's 600
    assert "Boss HP: 600 - 400 -> 200" in preview.files["attack-breakdown.txt"].decode()
    (hp,) = await h.bot.db.fetch_one("SELECT hp FROM bossfight_raids")
    assert hp == 600
    assert len(await h.bot.db.fetch_all("SELECT * FROM bossfight_attacks")) == 1


async def test_preview_of_the_live_boss_uses_it_as_spawned(harness):
    h = harness
    await spawn(h)
    await run(h, "bossfight upload", h.gm, bosses=("b.csv", csv(BOSS_HEADER, "Inu Dogemon,9,Fire,99999,1,N,N,1,N,N")))
    (preview,) = await run(h, "bossfight preview", h.bob, boss="inu dogemon", deck=("deck.csv", DECK_400))
    assert "600/1000" in preview.embed.description
    (partly_named,) = await run(h, "bossfight preview", h.bob, boss="dogemon", deck=("deck.csv", DECK_400))
    assert "600/1000" in partly_named.embed.description
    (elsewhere,) = await h.run(
        "bossfight preview", h.bob, boss="Inu Dogemon", deck=("deck.csv", DECK_400), channel_id=1383596870860809999
    )
    assert "99999" in elsewhere.embed.description


async def test_restart_keeps_the_live_raid(harness):
    h = harness
    await spawn(h)
    await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    await h.restart()
    (status,) = await run(h, "bossfight status", h.bob)
    assert "600/1000" in status.embed.description
    (hit,) = await run(h, "bossfight attack", h.bob, deck=("deck.csv", DECK_400))
    assert "200/1000" in hit.embed.description


async def test_unexpected_error_gets_an_error_id_and_is_logged(harness, monkeypatch, caplog):
    h = harness
    await spawn(h)
    cog = h.bot.get_cog("Bossfight")

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(cog.repo, "record_attack", broken)
    (reply,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert reply.ephemeral and reply.content.startswith("⚠️ Something went wrong on our side (error id `")
    error_id = reply.content.split("`")[1]
    assert any(error_id in r.getMessage() and r.exc_info for r in caplog.records)


async def test_a_failed_announcement_keeps_the_attack_reply(harness, monkeypatch):
    h = harness
    await spawn(h, "Inu Dogemon")
    cog = h.bot.get_cog("Bossfight")

    async def broken(raid):
        raise RuntimeError("no leaderboard")

    monkeypatch.setattr(cog, "victory_embed", broken)
    deck = csv(DECK_HEADER, "Giant,Club,None,10,5000,N,N,0,N,N")
    hit, apology = await run(h, "bossfight attack", h.alice, deck=("deck.csv", deck))
    assert hit.embed.title == "⚔️ Alice hits Inu Dogemon for 5000" and not hit.ephemeral
    assert hit.id in h.fake.messages  # not deleted by the error reply
    assert apology.ephemeral and apology.content.startswith("⚠️ Something went wrong on our side")


def test_deck_help_names_the_columns(harness):
    group = harness.bot.tree.get_command("bossfight")
    columns = "CSV: token, trait, element, health, then physical_ and magical_ damage, penetration, resistance"
    assert str(group.get_command("deck").get_command("save")._params["deck"].description) == columns
    assert "lists the columns" in str(group.get_command("attack")._params["deck"].description)


# --- RULINGS 6: the boss's damage to players counts -----------------------------------------------------

# Against Inu Dogemon (200 physical + 100 magical, no penetration): 300 damage to a deck without resistance.
DECK_300_HEALTH = csv(DECK_HEADER, "Fox,Bite,None,300,100,N,N,0,N,N")


async def player_rows(h):
    rows = await h.bot.db.fetch_all("SELECT user_id, damage_taken, knocked_out FROM bossfight_players ORDER BY user_id")
    return [tuple(r) for r in rows]


async def test_a_deck_brought_to_0_knocks_its_player_out_until_a_gm_revives_them(harness):
    h = harness
    await spawn(h)
    (hit,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_300_HEALTH))
    assert hit.field("Your deck").splitlines()[::2] == [
        "health 300 − taken earlier in the raid 0 − this attack 300 = **0** left",
        "💀 knocked out of the raid: a GM can bring you back with `/bossfight revive`",
    ]
    assert await player_rows(h) == [(h.alice.id, 300, 1)]

    (refusal,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert refusal.ephemeral and refusal.content == (
        "❌ You are knocked out of this raid: the boss has dealt you 300 since the raid began or your last revive. A GM can bring you back with "
        "`/bossfight revive`."
    )
    (status,) = await run(h, "bossfight status", h.bob)
    assert (
        status.field("Attackers (1)")
        == "🥇 <@1200000000000000002>: 100 damage dealt (1 attack), 300 taken · 💀 knocked out, waiting for a revive"
    )

    (not_gm,) = await run(h, "bossfight revive", h.bob, member=h.alice)
    assert not_gm.ephemeral and not_gm.content.startswith("❌ Only a game master can do that")
    (revived,) = await run(h, "bossfight revive", h.gm, member=h.alice)
    assert not revived.ephemeral and revived.content == (
        "✨ <@1200000000000000002> is back in the raid against Inu Dogemon: their next attack starts with no damage "
        "taken. The raid's record keeps the 300 the boss had dealt them."
    )
    assert await player_rows(h) == [(h.alice.id, 0, 0)]
    (again,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert again.field("Your deck").startswith("health 1200 − taken earlier in the raid 0 − this attack 200")
    # RULINGS 7: the revive reset what her next attack started from, not the raid's record: 300 + 200 taken,
    # and the knock-out stays.
    (status,) = await run(h, "bossfight status", h.bob)
    assert status.field("Attackers (1)") == (
        "🥇 <@1200000000000000002>: 500 damage dealt (2 attacks), 500 taken (200 since the last revive) "
        "· 💀 knocked out, revived"
    )
    (nothing,) = await run(h, "bossfight revive", h.gm, member=h.bob)
    assert nothing.ephemeral and nothing.content == (
        "❌ <@1200000000000000003> has taken no damage in this raid; there is nothing to revive."
    )
    # The revive names the player with a mention that does not ping (the bot allows no mentions).
    sent = [r.payload.get("data", r.payload) for r in h.fake.requests if r.payload]
    assert all(m["allowed_mentions"] == {"parse": []} for m in sent if "allowed_mentions" in m)

    # Two more attacks of 400 fell the boss (500 -> 100 -> 0: the last is credited 100, 300 is overkill); the
    # final leaderboard keeps the whole raid: 300 + 200 + 200 + 200 taken, knocked out once.
    await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    _, fallen = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert fallen.embed.description.splitlines()[1] == (
        "🥇 <@1200000000000000002>: 1000 damage dealt (4 attacks; overkill 300 not counted), 900 taken · 💀 knocked out"
    )


async def test_damage_taken_reads_the_same_in_the_status_and_the_revive(harness):
    h = harness
    await run(h, "bossfight upload", h.gm, bosses=("b.csv", csv(BOSS_HEADER, "Ogre,1,None,1000,100.123456,N,N,0,N,N")))
    await spawn(h, "Ogre")
    await run(h, "bossfight attack", h.alice, deck=("d.csv", csv(DECK_HEADER, "Fox,Bite,Fire,500,300,N,Y,0,N,N")))
    (status,) = await run(h, "bossfight status", h.alice)
    assert "50.06 taken" in status.field("Attackers (1)")
    (revived,) = await run(h, "bossfight revive", h.gm, member=h.alice)
    assert "The raid's record keeps the 50.06 the boss had dealt them." in revived.content


async def test_a_deck_the_raid_has_already_spent_cannot_attack_and_nothing_changes(harness):
    h = harness
    await spawn(h)
    await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))  # 200 taken
    small = csv(DECK_HEADER, "Mouse,Nibble,None,150,5,N,N,0,N,N")
    (refusal,) = await run(h, "bossfight attack", h.alice, deck=("small.csv", small))
    assert refusal.ephemeral and refusal.content == (
        "❌ this deck has 150 health and the boss has dealt you 200 in this raid, so it would start at -50: "
        "attack with a deck of more than 200 health"
    )
    assert await player_rows(h) == [(h.alice.id, 200, 0)]
    (raid,) = await h.bot.db.fetch_all("SELECT hp FROM bossfight_raids")
    assert raid["hp"] == 600


async def test_a_cooldown_set_at_spawn_makes_each_player_wait_between_attacks(harness):
    h = harness
    (spawned,) = await spawn(h, cooldown=90)
    assert spawned.field("Raid rules").endswith("Each player attacks at most once every 1 min 30 s.")
    await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    (wait,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    # The harness's interactions are milliseconds apart: the whole cooldown is left.
    assert wait.ephemeral and wait.content == (
        "❌ This raid lets each player attack once every 1 min 30 s: try again in 1 min 30 s."
    )
    (other,) = await run(h, "bossfight attack", h.bob, deck=("deck.csv", DECK_400))  # per player
    assert "200/1000" in other.embed.description
    async with h.bot.db.transaction() as tx:  # 91 s later
        for row in await tx.fetch_all("SELECT raid_id, user_id, last_attack_at FROM bossfight_players"):
            await tx.execute(
                "UPDATE bossfight_players SET last_attack_at = ? WHERE raid_id = ? AND user_id = ?",
                (stored_time(unix_time(row["last_attack_at"]) - 91), row["raid_id"], row["user_id"]),
            )
    later, fallen = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert "0/1000" in later.embed.description and fallen.embed.title == "🏆 Inu Dogemon has fallen!"


async def test_damage_taken_survives_a_restart(harness):
    h = harness
    await spawn(h)
    await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    await h.restart()
    (hit,) = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400))
    assert hit.field("Your deck").startswith("health 1200 − taken earlier in the raid 200 − this attack 200")


async def test_one_players_attacks_at_once_all_count_against_their_deck(harness):
    h = harness
    await spawn(h)
    for _ in range(3):
        await h.run("bossfight attack", h.alice, deck=("deck.csv", DECK_400), wait=False)
    await h.settle()
    taken = [r["deck_damage"] for r in await h.bot.db.fetch_all("SELECT deck_damage FROM bossfight_attacks")]
    assert len(taken) == 3
    assert await player_rows(h) == [(h.alice.id, sum(taken), 0)]
    lefts = sorted(m.field("Your deck").split(" = ")[0] for m in public(h) if m.files)
    step = taken[0]
    assert lefts == sorted(
        f"health 1200 − taken earlier in the raid {num(i * step)} − this attack {num(step)}" for i in range(3)
    )


# --- RULINGS 7: the raid's record -------------------------------------------------------------------------

# A 21,000-HP boss with no resistance, penetration nor element, and a deck that deals 4,750 and takes 1 a blow.
GIANT = csv(BOSS_HEADER, "Giant,3,None,21000,1,N,N,0,N,N")
DECK_4750 = csv(DECK_HEADER, "Ram,Charge,None,100000,4750,N,N,0,N,N")


async def test_a_blow_beyond_the_hp_left_is_credited_with_that_hp_and_its_overkill_shown_apart(harness):
    # Four blows of 4,750 leave 21,000 - 19,000 = 2,000; the fifth 4,750 is credited 2,000 and 2,750 is overkill.
    # Credited in full, the leaderboard used to total 23,750 on a 21,000-HP boss; now it adds up to 21,000.
    h = harness
    await run(h, "bossfight upload", h.gm, bosses=("giant.csv", GIANT))
    await spawn(h, "Giant")
    for user in (h.alice, h.bob, h.alice, h.bob):
        await run(h, "bossfight attack", user, deck=("deck.csv", DECK_4750))
    hit, fallen = await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_4750))
    assert hit.embed.title == "⚔️ Alice hits Giant for 4750"  # what the blow dealt
    assert hit.embed.description.splitlines()[-1] == (
        "The boss had 2000 HP left: 2000 is credited to you, 2750 is overkill (shown apart, not counted)."
    )
    breakdown = hit.files["attack-breakdown.txt"].decode()
    assert "Boss HP: 2000 - 4750 -> 0 (defeated)\nCredited: 2000, overkill beyond the HP left: 2750" in breakdown
    assert fallen.embed.description.splitlines()[1:3] == [
        "🥇 <@1200000000000000002>: 11500 damage dealt (3 attacks; overkill 2750 not counted), 3 taken",
        "🥈 <@1200000000000000003>: 9500 damage dealt (2 attacks), 2 taken",
    ]
    (total,) = await h.bot.db.fetch_one("SELECT sum(credited) FROM bossfight_attacks")
    assert total == 21000 == 11500 + 9500


async def fell(h, boss: str = "Inu Dogemon", **where):
    """Spawn `boss` and fell it: Alice deals 400, Bob the final 400 on 600 left, then Alice the last 200."""
    await run(h, "bossfight spawn", h.gm, boss=boss, replace=True, **where)
    await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400), **where)
    await run(h, "bossfight attack", h.bob, deck=("deck.csv", DECK_400), **where)
    return await run(h, "bossfight attack", h.alice, deck=("deck.csv", DECK_400), **where)


async def test_members_with_ids_of_todays_size_raid_and_are_ranked(harness):
    """Discord's ids have 19 digits since 2022, up to the largest 64-bit integer."""
    h = harness
    nineteen, largest = User(1234567890123456789, "Nineteen"), User(2**63 - 1, "Largest")
    await run(h, "bossfight spawn", h.gm, boss="Inu Dogemon")
    await run(h, "bossfight attack", nineteen, deck=("deck.csv", DECK_400))
    await run(h, "bossfight attack", largest, deck=("deck.csv", DECK_400))
    _, fallen = await run(h, "bossfight attack", nineteen, deck=("deck.csv", DECK_400))
    assert fallen.embed.description.splitlines()[1:3] == [
        f"🥇 {nineteen.mention}: 600 damage dealt (2 attacks; overkill 200 not counted), 400 taken",
        f"🥈 {largest.mention}: 400 damage dealt (1 attack), 200 taken",
    ]
    (history,) = await run(h, "bossfight history", largest, raid="#1")
    assert f"🥇 {nineteen.mention}: 600 damage dealt" in history.embed.description


async def test_history_shows_a_fallen_raids_record_after_the_raid_is_gone(harness):
    h = harness
    (nothing,) = await run(h, "bossfight history", h.alice)
    assert nothing.ephemeral and nothing.content == (
        "❌ This channel has no finished raid yet: a raid is kept here once its boss falls."
    )
    await fell(h)
    (none_live,) = await run(h, "bossfight status", h.alice)
    assert none_live.content.startswith("❌ There is no boss in this channel.")

    (shown,) = await run(h, "bossfight history", h.bob)
    assert shown.ephemeral
    assert shown.embed.title == "📜 Inu Dogemon has fallen"
    (raid,) = await h.bot.db.fetch_all("SELECT id, spawned_at, ended_at FROM bossfight_raids")
    started, ended = (int(datetime.fromisoformat(raid[key]).timestamp()) for key in ("spawned_at", "ended_at"))
    lines = shown.embed.description.splitlines()
    assert lines[0] == f"Raid #{raid['id']} in this channel: started <t:{started}:f>, ended <t:{ended}:f>"
    assert lines[1] == "**HP** ░░░░░░░░░░░░░░░░░░░░ 0/1000"
    assert lines[2] == "Final blow: <@1200000000000000002>"
    # Alice's last 400 hit 200 left: credited 200, overkill 200; 400 + 200 taken over the raid.
    assert lines[5:] == [
        "🥇 <@1200000000000000002>: 600 damage dealt (2 attacks; overkill 200 not counted), 400 taken",
        "🥈 <@1200000000000000003>: 400 damage dealt (1 attack), 200 taken",
    ]
    assert not shown.embed.fields  # no other finished raid here
    # Names are mentions that never ping: the bot allows no mentions.
    sent = [r.payload.get("data", r.payload) for r in h.fake.requests if r.payload]
    assert all(m["allowed_mentions"] == {"parse": []} for m in sent if "allowed_mentions" in m)


async def test_history_offers_the_channels_finished_raids_and_shows_the_one_named(harness):
    h = harness
    named = f"**Dark_Lord** <@{h.bob.id}>"
    await run(h, "bossfight upload", h.gm, bosses=("b.csv", csv(BOSS_HEADER, f"{named},1,None,1000,200,N,N,100,N,N")))
    await fell(h)  # raid 1
    await run(h, "bossfight spawn", h.gm, boss="Axieom Asmodeus")  # raid 2: replaced before it fell
    await run(h, "bossfight attack", h.bob, deck=("deck.csv", EXAMPLE_DECK))
    await fell(h, named)  # replaces raid 2; raid 3
    await fell(h, channel_id=1383596870860809999)  # raid 4, in another channel
    await spawn(h)  # raid 5: live, not in the history

    choices = await h.autocomplete("bossfight history", "raid", "", h.alice)
    assert [c["value"] for c in choices] == ["3", "2", "1"]
    today = (await h.bot.db.fetch_one("SELECT ended_at FROM bossfight_raids WHERE id = 1"))[0][:10]
    assert choices[0]["name"] == f"#3 {named} · felled {today}"  # plain text: choices show no markdown
    assert choices[1]["name"] == f"#2 Axieom Asmodeus · replaced by a GM {today}"
    assert [c["value"] for c in await h.autocomplete("bossfight history", "raid", "dogem", h.alice)] == ["1"]

    (latest,) = await run(h, "bossfight history", h.alice)
    assert latest.embed.title == "📜 \\*\\*Dark\\_Lord\\*\\* <@\u200b1200000000000000003> has fallen"
    assert latest.field("Other finished raids here").splitlines() == [
        f"#2 Axieom Asmodeus · replaced by a GM {today}",
        f"#1 Inu Dogemon · felled {today}",
    ]
    (replaced,) = await run(h, "bossfight history", h.alice, raid="2")
    assert replaced.embed.title == "📜 Axieom Asmodeus was replaced by a GM before it fell"
    assert "Final blow" not in replaced.embed.description
    assert (
        replaced.embed.description.splitlines()[-1]
        == "🥇 <@1200000000000000003>: 4250 damage dealt (1 attack), 1750 taken"
    )
    (by_boss,) = await run(h, "bossfight history", h.alice, raid="inu dogemon")
    assert by_boss.embed.title == "📜 Inu Dogemon has fallen" and "Raid #1 in this channel" in by_boss.embed.description

    (elsewhere,) = await run(h, "bossfight history", h.alice, raid="4")
    assert elsewhere.ephemeral and elsewhere.content == (
        "❌ This channel has no finished raid #4. Pick one from the list `/bossfight history` offers."
    )
    (live,) = await run(h, "bossfight history", h.alice, raid="#5")
    assert (
        live.content == "❌ This channel has no finished raid #5. Pick one from the list `/bossfight history` offers."
    )
    # the largest id the databases hold is looked up; a larger number is no id, so it names no boss either
    (largest,) = await run(h, "bossfight history", h.alice, raid=f"#{2**63 - 1}")
    assert largest.content == (
        f"❌ This channel has no finished raid #{2**63 - 1}. Pick one from the list `/bossfight history` offers."
    )
    for too_large in (str(2**63), "1" * 20, "²"):
        (refused,) = await run(h, "bossfight history", h.alice, raid=too_large)
        assert refused.content == (
            f"❌ This channel has no finished raid against a boss called '{too_large}'. Pick one from the list "
            "`/bossfight history` offers."
        )
    (unknown,) = await run(h, "bossfight history", h.alice, raid="**Nobody**")
    assert unknown.content == (
        r"❌ This channel has no finished raid against a boss called '\*\*Nobody\*\*'. Pick one from the list "
        "`/bossfight history` offers."
    )


async def test_a_long_history_lists_the_latest_raids_and_counts_the_rest(harness):
    h = harness
    for _ in range(13):
        await run(h, "bossfight spawn", h.gm, boss="Inu Dogemon", replace=True)
    await run(h, "bossfight attack", h.alice, deck=("deck.csv", csv(DECK_HEADER, "Giant,Club,None,10,5000,N,N,0,N,N")))
    (latest,) = await run(h, "bossfight history", h.alice)
    assert latest.embed.title == "📜 Inu Dogemon has fallen"
    listed = latest.field("Other finished raids here").splitlines()
    assert [line.split(" ")[0] for line in listed] == [f"#{n}" for n in range(12, 2, -1)] + ["…"]
    assert listed[-1] == "… and 2 older"
    assert len(await h.autocomplete("bossfight history", "raid", "", h.alice)) == 13
