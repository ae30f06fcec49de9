"""/mfd through the real command tree, with a real SQLite file."""

from __future__ import annotations

from pathlib import Path

from tests.cogs.harness import CHANNEL_ID
from tests.rules.test_mfd_engine import EXPECTED_LOG, EXPECTED_ROUND_2, VILLAINS_CSV
from tests.rules.test_mfd_roster import DRAGON_CSV

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mfd"
HEROES = ("Heroes.csv", DRAGON_CSV.encode())
VILLAINS = ("Villains.csv", VILLAINS_CSV.encode())
OTHER_CHANNEL = CHANNEL_ID + 7


async def battles(h) -> list[tuple]:
    rows = await h.bot.db.fetch_all(
        "SELECT channel_id, rounds_fought, outcome, heroes_left, villains_left, version, seed FROM mfd_battles")
    return [tuple(r) for r in rows]


async def test_battle_with_attachments_replies_with_outcome_files_and_stores_the_battle(harness):
    h = harness
    thinking, reply = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    assert not reply.ephemeral
    assert reply.embed.title == "⏸️ After round 1 both sides still stand"
    assert reply.embed.description.startswith("Round 1 fought · seed 1")
    assert reply.field("Heroes standing (2)") == "Dragon: 1 HP\nSummoner: 3 HP"
    assert reply.field("Villains standing (1)") == "Boss: 3 HP"
    assert reply.field("Fallen this run (4)") == ("Round 1, Villains (3): Clone, Grunt A, Grunt B\n"
                                                  "Round 1, Heroes (1): Tom")
    assert reply.files["BattleLog.txt"].decode() == EXPECTED_LOG
    assert reply.files["Heroes-final.csv"].decode().splitlines()[1:] == [
        'Dragon,13000,1500,-1,0.9,0,1,,Summoner,1,Mythic,"Dragon,Summoner,Tom",0.06,0.02',
        "Summoner,5800,-1000,1,0.15,-0.1,1,,Dragon,3,,,,"]
    assert reply.files["Villains-final.csv"].decode().splitlines()[1:] == ["Boss,9000,0,1,0.2,0,2,,,3"]
    (row,) = await h.bot.db.fetch_all("SELECT id FROM mfd_battles")
    assert reply.component("Fight one more round")["custom_id"] == f"mfd:{row['id']}:1:next"
    assert await battles(h) == [(CHANNEL_ID, 1, "round_limit", 2, 1, 1, 1)]


async def test_continue_with_a_replaced_side(harness):
    h = harness
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    reinforcements = b"Name,XP,BonusHP\nFresh Ogre,6000,3\nFresh Imp,1000,\n"
    _, reply = await h.run("mfd continue", h.gm, rounds=1, villains=("Villains-final.csv", reinforcements))
    log = reply.files["BattleLog.txt"].decode()
    assert log.startswith("Marked for Death: battle log, continued from round 2 (seed 1)")
    assert "Villains (2), from Villains-final.csv:" in log and "Boss" not in log
    assert "Dragon: HP 1, ToHit 99%, ToDefend 32%" in log  # exhaustion carried over from round 1
    assert reply.embed.description.startswith("Round 2 fought (continued)")
    (row,) = await battles(h)
    assert row[1] == 2 and row[5] == 2  # rounds fought, version


async def test_continuing_through_the_bot_equals_running_on(harness):
    h = harness
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    _, continued = await h.run("mfd continue", h.gm)
    _, whole = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, seed=1, channel_id=OTHER_CHANNEL)
    assert EXPECTED_ROUND_2 in continued.files["BattleLog.txt"].decode()
    assert EXPECTED_ROUND_2 in whole.files["BattleLog.txt"].decode()
    assert continued.embed.title == whole.embed.title == "🤝 Draw: both sides fell in round 2"
    assert continued.components == []  # the battle is over: no button
    assert sorted(await battles(h)) == [(CHANNEL_ID, 2, "draw", 0, 0, 2, 1), (OTHER_CHANNEL, 2, "draw", 0, 0, 1, 1)]
    _, replaced = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, seed=4, channel_id=OTHER_CHANNEL)
    assert "This replaces the channel's previous battle (seed 1, 2 rounds fought)." in replaced.embed.description
    assert sorted(r[6] for r in await battles(h)) == [1, 4]
    (over,) = [m for m in await h.run("mfd continue", h.gm) if m.content]
    assert "the battle is over: Heroes and Villains have no one standing" in over.content


async def test_the_button_fights_one_round_once(harness):
    h = harness
    heroes = (EXAMPLES / "Heroes.csv").read_bytes()
    villains = (EXAMPLES / "Villains.csv").read_bytes()
    _, first = await h.run("mfd battle", h.gm, heroes=("h.csv", heroes), villains=("v.csv", villains), max_rounds=1,
                           seed=5)
    (refused,) = await h.click(first, "Fight one more round", h.alice)
    assert refused.ephemeral and "Only a game master can fight on" in refused.content
    (second,) = await h.click(first, "Fight one more round", h.gm)
    assert second.embed.description.startswith("Round 2 fought (continued) · seed 5")
    assert first.components == []  # the pressed button is gone
    (status,) = await h.run("mfd status", h.alice)  # carries a button for the battle as it stands
    (third,) = await h.click(second, "Fight one more round", h.gm)
    assert third.embed.description.startswith("Round 3 fought (continued)")
    (stale,) = await h.click(status, "Fight one more round", h.gm)
    assert stale.ephemeral and "This button is from an earlier run: the battle is at round 3 now" in stale.content
    (row,) = await battles(h)
    assert row[1] == 3 and row[5] == 3


async def test_odds_with_chart_progress_and_every_fighter(harness):
    h = harness
    (message,) = await h.run("mfd odds", h.alice, heroes=HEROES, villains=VILLAINS, battles=300, seed=3)
    assert message.embed.title.startswith("🎲 ") and "over 300 battles" in message.embed.title
    assert "**Heroes win**:" in message.embed.description and "95% CI" in message.embed.description
    assert "Dragon:" in message.field("Heroes: survival rate")
    assert message.embed.image.url == "attachment://mfd-odds-3.png"
    assert message.files["mfd-odds-3.png"].startswith(b"\x89PNG")
    assert message.files["Odds.txt"].decode().startswith("300 battles (seed 3)")
    shown = [r.payload for r in h.fake.requests if r.method == "PATCH" and r.payload and r.payload.get("embeds")]
    assert shown[0]["embeds"][0]["title"] == "🎲 Simulating 300 battles…"
    assert await battles(h) == []  # odds store nothing


async def test_non_gm_is_refused_and_nothing_is_stored(harness):
    h = harness
    (refusal,) = await h.run("mfd battle", h.alice, heroes=HEROES, villains=VILLAINS)
    assert refusal.ephemeral
    assert refusal.content == "❌ Only a game master can do that: it needs the Manage Server permission."
    (refusal,) = await h.run("mfd continue", h.bob)
    assert "Only a game master" in refusal.content
    assert await battles(h) == []


async def test_bad_csvs_get_their_specific_messages_and_nothing_is_stored(harness):
    h = harness
    bad = b"Name,XP,AOE\nAlice,1000,1.5\n"
    # The public "thinking…" placeholder is replaced by one private reply.
    (reply,) = await h.run("mfd battle", h.gm, heroes=("H.csv", bad), villains=VILLAINS)
    assert reply.ephemeral
    assert reply.content == "❌ H.csv, row 2, column 'AOE': '1.5' is not a whole number"
    broken = b"Name,XP,BuffName,BuffWho,BuffOffense\nA,1000,X,A,0.1\n"
    replies = await h.run("mfd odds", h.alice, heroes=HEROES, villains=("V.csv", broken))
    assert replies[-1].content.startswith("❌ V.csv, row 1, column 'BuffOffense': broken buff group")
    assert await battles(h) == []
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    replies = await h.run("mfd continue", h.gm, heroes=("H.csv", b"Name,XP\nA,1000\nA,5\n"))
    assert replies[-1].content.startswith("❌ H.csv, row 3, column 'Name': 'A' is already the name")
    assert (await battles(h))[0][5] == 1  # version unchanged


async def test_warnings_are_shown_but_the_battle_runs(harness):
    h = harness
    heroes = ("H.csv", b"Name,XP,LinkedTo\nSolo,5000,Ghost\n")
    _, reply = await h.run("mfd battle", h.gm, heroes=heroes, villains=VILLAINS, seed=2)
    warnings = reply.field("⚠️ Warnings (1)")
    assert "H.csv, row 2, column 'LinkedTo': LinkedTo names 'Ghost', who is not in this file; ignored" in warnings


async def test_status_and_no_battle(harness):
    h = harness
    (nothing,) = await h.run("mfd status", h.alice)
    assert nothing.ephemeral and "There is no battle in this channel" in nothing.content
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    (status,) = await h.run("mfd status", h.alice)
    assert status.embed.title == "⏸️ After round 1 both sides still stand"
    assert "1 round fought · seed 1" in status.embed.description
    assert status.field("Fallen (4)").startswith("Round 1, Villains (3)")
    assert status.files["Villains-final.csv"].decode().splitlines()[1] == "Boss,9000,0,1,0.2,0,2,,,3"


async def test_template_gives_the_examples_and_a_guide(harness):
    (reply,) = await harness.run("mfd template", harness.bob)
    assert reply.ephemeral and "BodyguardFor" in reply.embed.description
    assert reply.files["Heroes.csv"] == (EXAMPLES / "Heroes.csv").read_bytes()
    assert reply.files["Villains.csv"] == (EXAMPLES / "Villains.csv").read_bytes()


async def test_concurrent_continues_cannot_both_apply(harness):
    h = harness
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    before = len(h.messages)
    await h.run("mfd continue", h.gm, rounds=1, wait=False)
    await h.run("mfd continue", h.gm, rounds=1, wait=False)
    await h.settle()
    texts = [m.content for m in h.messages[before:] if m.content]
    assert texts == ["❌ This battle changed while your run was being fought (another run was saved or a new "
                     "battle started), so nothing was saved. Check the newest result and run it again."]
    (row,) = await battles(h)
    assert row[1] == 2 and row[5] == 2


async def test_restart_keeps_the_battle_and_its_button(harness):
    h = harness
    _, first = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    await h.restart()
    (after,) = await h.click(first, "Fight one more round", h.gm)
    assert EXPECTED_ROUND_2 in after.files["BattleLog.txt"].decode()
