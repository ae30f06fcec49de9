"""/mfd through the real command tree, with a real SQLite file."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import discord
import pytest

from cogs.common import EmbedLimits
from cogs.mfd.render import fallen_lines
from offline_discord.harness import CHANNEL_ID, OTHER_GUILD_CHANNEL_ID, OTHER_GUILD_ID, HeldCall, User
from rules.errors import InputProblem
from rules.mfd import engine
from rules.mfd.battle import start_battle
from rules.mfd.chart import battle_chart_png
from rules.mfd.models import Casualty, Fighter
from rules.mfd.roster import read_roster, write_roster
from tests.rules.test_csvio import formulas
from tests.rules.test_mfd_continuing import (
    AFTER_ROUND_1_WARNINGS,
    AFTER_ROUND_3_WARNINGS,
    BUFF_GROUP,
    FINAL_HEADER,
    ORIGINAL_VILLAINS_CSV,
    ORIGINAL_WARNINGS,
    REINFORCEMENTS,
    original_heroes_csv,
)
from tests.rules.test_mfd_engine import (
    EXPECTED_LOG,
    EXPECTED_ROUND_2,
    FOCUS_HEROES_CSV,
    FOCUS_ROUND_1,
    FOCUS_ROUND_2,
    FOCUS_VILLAINS_CSV,
    VILLAINS_CSV,
)
from tests.rules.test_mfd_roster import DRAGON_CSV, ROSTER_ERRORS

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "mfd"
README = (Path(__file__).resolve().parents[2] / "README.md").read_text()
HEROES = ("Heroes.csv", DRAGON_CSV.encode())
VILLAINS = ("Villains.csv", VILLAINS_CSV.encode())
OTHER_CHANNEL = CHANNEL_ID + 7
ORIGINAL_HEROES = ("Heroes.csv", original_heroes_csv().encode())
ORIGINAL_VILLAINS = ("Villains.csv", ORIGINAL_VILLAINS_CSV.encode())


async def battles(h) -> list[tuple]:
    rows = await h.bot.db.fetch_all(
        "SELECT channel_id, rounds_fought, outcome, heroes_left, villains_left, version, seed FROM mfd_battles"
    )
    return [tuple(r) for r in rows]


async def test_battle_with_attachments_replies_with_outcome_files_and_stores_the_battle(harness):
    h = harness
    (reply,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    assert not reply.ephemeral
    assert reply.embed.title == "⏸️ After round 1 both sides still stand"
    assert reply.embed.description == (
        "Round 1 fought\nFight on with the button below or `/mfd continue` (attach a CSV to replace a side)."
    )
    assert reply.embed.footer.text.startswith("seed 1 · BattleLog.txt has every attack.")
    assert reply.field("Heroes standing (2)") == "Dragon: 1 HP\nSummoner: 3 HP"
    assert reply.field("Villains standing (1)") == "Boss: 3 HP"
    assert reply.field("Fallen this run (4)") == (
        "Round 1, Villains (3): Clone, Grunt A, Grunt B\nRound 1, Heroes (1): Tom"
    )
    assert reply.files["BattleLog.txt"].decode() == EXPECTED_LOG
    assert reply.files["Heroes-final.csv"].decode().splitlines()[1:] == [
        'Dragon,13000,1500,-1,0.9,0,1,,Summoner,1,Mythic,"Dragon,Summoner,Tom",0.06,0.02',
        "Summoner,5800,-1000,1,0.15,-0.1,1,,Dragon,3,,,,",
    ]
    assert reply.files["Villains-final.csv"].decode().splitlines()[1:] == ["Boss,9000,0,1,0.2,0,2,,,3"]
    (row,) = await h.bot.db.fetch_all("SELECT id FROM mfd_battles")
    assert reply.component("Fight one more round")["custom_id"] == f"mfd:{row['id']}:1:next"
    assert await battles(h) == [(CHANNEL_ID, 1, "round_limit", 2, 1, 1, 1)]


async def test_continue_with_a_replaced_side(harness):
    h = harness
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    reinforcements = b"Name,XP,BonusHP\nFresh Ogre,6000,3\nFresh Imp,1000,\n"
    (reply,) = await h.run("mfd continue", h.gm, rounds=1, villains=("Villains-final.csv", reinforcements))
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
    (continued,) = await h.run("mfd continue", h.gm)
    (whole,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, seed=1, channel_id=OTHER_CHANNEL)
    assert EXPECTED_ROUND_2 in continued.files["BattleLog.txt"].decode()
    assert EXPECTED_ROUND_2 in whole.files["BattleLog.txt"].decode()
    assert continued.embed.title == whole.embed.title == "🤝 Draw: both sides fell in round 2"
    assert continued.components == []  # the battle is over: no button
    assert sorted(await battles(h)) == [(CHANNEL_ID, 2, "draw", 0, 0, 2, 1), (OTHER_CHANNEL, 2, "draw", 0, 0, 1, 1)]
    (replaced,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, seed=4, channel_id=OTHER_CHANNEL)
    assert "This replaces the channel's previous battle (seed 1, 2 rounds fought)." in replaced.embed.description
    assert sorted(r[6] for r in await battles(h)) == [1, 4]
    (over,) = [m for m in await h.run("mfd continue", h.gm) if m.content]
    assert "the battle is over: Heroes and Villains have no one standing" in over.content


async def test_the_button_fights_one_round_once(harness):
    h = harness
    heroes = (EXAMPLES / "Heroes.csv").read_bytes()
    villains = (EXAMPLES / "Villains.csv").read_bytes()
    (first,) = await h.run(
        "mfd battle", h.gm, heroes=("h.csv", heroes), villains=("v.csv", villains), max_rounds=1, seed=5
    )
    (refused,) = await h.click(first, "Fight one more round", h.alice)
    # The same check and words as the GM-only commands'.
    assert refused.ephemeral
    assert refused.content == "❌ Only a game master can do that: it needs the Manage Server permission."
    (second,) = await h.click(first, "Fight one more round", h.gm)
    assert second.embed.description.startswith("Round 2 fought (continued)\n")
    assert second.embed.footer.text.startswith("seed 5 · ")
    assert first.components == []  # the pressed button is gone
    (status,) = await h.run("mfd status", h.alice)  # carries a button for the battle as it stands
    (third,) = await h.click(second, "Fight one more round", h.gm)
    assert third.embed.description.startswith("Round 3 fought (continued)")
    (stale,) = await h.click(status, "Fight one more round", h.gm)
    assert stale.ephemeral and stale.content == (
        "❌ These buttons are from an earlier moment of this battle, so nothing was changed. Use the latest ones."
    )
    (row,) = await battles(h)
    assert row[1] == 3 and row[5] == 3


async def test_a_round_stands_where_the_bot_may_not_edit_the_pressed_message(harness, caplog):
    """Answers reach a channel where the bot may not see or edit messages (they are the interaction's), but
    taking the button off the pressed message is a channel edit: the GM is told what to give the bot (once per
    member and channel, as the MMA tests pin), the round stands, one warning line."""
    h = harness
    (first,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=5)
    h.fake.overwrite(CHANNEL_ID, "bot", deny=discord.Permissions(view_channel=True))
    told = f"I can't post in <#{CHANNEL_ID}>, so I can't take the pressed button off: give me View Channel there."
    second, notice = await h.click(first, "Fight one more round", h.gm)
    assert second.embed.description.startswith("Round 2 fought (continued)") and not second.ephemeral
    assert notice.ephemeral and notice.content == told
    assert first.component("Fight one more round")  # still shown: the bot may not edit it
    (row,) = await battles(h)
    assert row[1] == 2
    warnings = [r for r in caplog.records if r.name == "arena.permissions"]
    assert [r.getMessage() for r in warnings] == [
        f"cannot take the pressed button off in channel {CHANNEL_ID}: the bot lacks View Channel"
    ]
    assert all(r.levelname == "WARNING" and r.exc_info is None for r in warnings)


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
    assert shown[0]["embeds"][0]["footer"]["text"] == "seed 3"
    assert message.embed.footer.text == "seed 3 · 95% Wilson intervals · Odds.txt lists every fighter"
    assert await battles(h) == []  # odds store nothing


async def test_odds_that_run_too_long_are_refused_privately(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(engine, "MAX_ODDS_ATTACKS", 500)
    wall = ("W.csv", b"Name,XP,BonusToDefend\nWall,1000,1000\n")
    (reply,) = await h.run("mfd odds", h.alice, heroes=wall, villains=wall, battles=10, seed=1)
    assert reply.ephemeral and reply.content == (
        "❌ the battles run long: with 0 of 10 finished, the simulation reached its limit of 500 attacks; set a "
        "round limit or use fewer battles"
    )
    (done,) = await h.run("mfd odds", h.alice, heroes=wall, villains=wall, battles=10, seed=1, max_rounds=20)
    assert "**Both standing after 20 rounds**: 100.0%" in done.embed.description


async def test_non_gm_is_refused_and_nothing_is_stored(harness):
    h = harness
    (refusal,) = await h.run("mfd battle", h.alice, heroes=HEROES, villains=VILLAINS)
    assert refusal.ephemeral
    assert refusal.content == "❌ Only a game master can do that: it needs the Manage Server permission."
    (refusal,) = await h.run("mfd continue", h.bob)
    assert "Only a game master" in refusal.content
    assert await battles(h) == []


async def test_the_button_takes_the_gm_role_setting_and_names_it(harness):
    h = harness
    h.bot.settings.gm_role = "Raid Leader"
    h.add_role(555, "raid leader")
    leader = User(1200000000000000009, "Leader", role_ids=(555,))
    (first,) = await h.run("mfd battle", leader, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    (refused,) = await h.click(first, "Fight one more round", h.alice)
    assert refused.content == (
        "❌ Only a game master can do that: it needs the Manage Server permission or the 'Raid Leader' role."
    )
    (second,) = await h.click(first, "Fight one more round", leader)
    assert second.embed.title == "🤝 Draw: both sides fell in round 2"


async def test_game_masters_with_ids_of_todays_size_fight_rounds_with_the_button(harness):
    """Discord's ids have 19 digits since 2022, up to the largest 64-bit integer."""
    h = harness
    nineteen = User(1234567890123456789, "Nineteen", permissions=h.gm.permissions)
    largest = User(2**63 - 1, "Largest", permissions=h.gm.permissions)
    (first,) = await h.run("mfd battle", nineteen, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    (second,) = await h.click(first, "Fight one more round", largest)
    assert second.embed.title == "🤝 Draw: both sides fell in round 2"


async def test_two_clicks_at_once_fight_one_round(harness, monkeypatch):
    h = harness
    (first,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    before = len(h.messages)
    rounds = HeldCall(monkeypatch, h.cog_module("MarkedForDeath"), "fight_on")
    await h.click(first, "Fight one more round", h.gm, wait=False)
    await h.click(first, "Fight one more round", h.gm, wait=False)
    await rounds.entered(times=2)  # both are fighting from the battle as it was: only one may be saved
    rounds.release()
    await h.settle()
    posted = h.messages[before:]
    assert [m.embed.title for m in posted if m.embeds] == ["🤝 Draw: both sides fell in round 2"]
    assert [m.content for m in posted if m.content] == [
        "❌ This battle changed while your run was being fought (another run was saved or a new battle started), "
        "so nothing was saved. Check the newest result and run it again."
    ]
    (row,) = await battles(h)
    assert row[1] == 2 and row[5] == 2


async def test_every_roster_error_is_answered_with_its_location_and_nothing_is_stored(harness):
    h = harness
    for text, row, column, words in ROSTER_ERRORS:
        replies = await h.run("mfd battle", h.gm, heroes=HEROES, villains=("Villains.csv", text.encode()))
        where = str(InputProblem("", "Villains.csv", row, column)).removesuffix(": ")
        assert [(r.ephemeral, r.content.startswith(f"❌ {where}"), words in r.content) for r in replies] == [
            (True, True, True)
        ], (text, replies[-1].content)
    assert await battles(h) == []


async def test_a_roster_over_the_size_limit_is_refused_with_the_limit(harness):
    h = harness
    huge = b"Name,XP\n" + b"x" * (3 * 1024 * 1024)
    (reply,) = await h.run("mfd odds", h.alice, heroes=HEROES, villains=("Villains.csv", huge))
    assert reply.content == "❌ Villains.csv is 3.0 MiB; a roster file may be at most 3 MiB."
    # The help says so too: the attachment options and the format guide.
    mfd = h.bot.tree.get_command("mfd")
    for command, option in (("battle", "heroes"), ("battle", "villains"), ("continue", "heroes"), ("odds", "villains")):
        assert "at most 3 MiB" in mfd.get_command(command).get_parameter(option).description
    (guide,) = await h.run("mfd template", h.alice)
    assert "• At most 50,000 fighters and 3 MiB per file." in guide.embed.description
    assert await battles(h) == []


async def test_the_fighter_limit_is_the_one_the_guide_and_readme_state(harness):
    # issue 24: the README said 20,000, the guide 50,000; the reader enforces 50,000, which fits in 3 MiB
    h = harness
    rows = "".join(f"V{i},1000\n" for i in range(50_001))
    (reply,) = await h.run("mfd odds", h.alice, heroes=HEROES, villains=("Villains.csv", f"Name,XP\n{rows}".encode()))
    assert reply.ephemeral and reply.content == "❌ Villains.csv: has 50001 rows; the limit is 50000"
    (guide,) = await h.run("mfd template", h.alice)
    assert "At most 50,000 fighters" in guide.embed.description
    assert "Roster files hold at most 50,000 fighters and 3 MiB" in README and "20,000 fighters" not in README


@pytest.mark.one_backend  # Discord's limits, not storage: a second run would add 6 s
async def test_a_20000_vs_20000_battle_fits_in_one_message(harness):
    """Long names make big CSVs: the log gets what they leave of Discord's 10 MiB, the embed summarizes."""
    h = harness
    rosters = []
    for side in ("Heroes", "Villains"):
        name = [f"{side} of the Hidden Mist Village, squad member {i:05d}" for i in range(20_000)]
        fighters = [
            Fighter(name[i], 3000 + i % 5000, 2, bonus_to_hit=0.1, linked_to=name[i - 1] if i % 10 == 1 else "")
            for i in range(20_000)
        ]
        rosters.append(write_roster(fighters).encode())
    assert all(1024 * 1024 < len(r) < 3 * 1024 * 1024 for r in rosters)  # over the shared 1 MiB limit
    (reply,) = await h.run(
        "mfd battle",
        h.gm,
        heroes=("Heroes.csv", rosters[0]),
        villains=("Villains.csv", rosters[1]),
        max_rounds=2,
        seed=3,
    )
    assert sum(len(data) for data in reply.files.values()) <= EmbedLimits.FILE_BYTES
    assert "(summary: the full detail would not fit" in reply.files["BattleLog.txt"].decode()
    embed = reply.embed
    assert len(embed) <= EmbedLimits.TOTAL and len(embed.fields) <= EmbedLimits.FIELDS
    assert all(len(f.value) <= EmbedLimits.FIELD_VALUE for f in embed.fields)
    assert reply.field("Heroes standing").splitlines()[-1].startswith("… and ")
    assert reply.field("Fallen this run").startswith("Round 1, ")


async def test_a_safety_stop_is_told_and_the_battle_goes_on(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(engine, "MAX_ATTACKS_PER_RUN", 6)
    wall = ("W.csv", b"Name,XP,BonusToDefend\nWall,1000,1000\n")
    (first,) = await h.run("mfd battle", h.gm, heroes=wall, villains=wall, seed=1)
    assert first.embed.title == "⏸️ After round 3 both sides still stand"
    assert "This run stopped at the safety limit of 6 attacks a run." in first.embed.description
    (second,) = await h.click(first, "Fight one more round", h.gm)
    assert second.embed.description.startswith("Round 4 fought (continued)")


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


async def test_names_in_a_rosters_problems_are_shown_as_written(harness):
    h = harness
    twice = b"Name,XP\nSub_Zero_,1000\nSub_Zero_,5\n"
    (reply,) = await h.run("mfd odds", h.alice, heroes=("my_heroes.csv", twice), villains=VILLAINS)
    assert reply.ephemeral and reply.content == (
        "❌ my\\_heroes.csv, row 3, column 'Name': 'Sub\\_Zero\\_' is already the name of the fighter on row 2; "
        "names must be unique within a file"
    )
    huge = b"Name,XP\n" + b"x" * (3 * 1024 * 1024)
    (reply,) = await h.run("mfd odds", h.alice, heroes=HEROES, villains=("big_one.csv", huge))
    assert reply.content.startswith("❌ big\\_one.csv is 3.0 MiB; a roster file may be at most 3 MiB")


def test_the_fallen_of_a_round_are_one_line_cut_with_a_count():
    fallen = tuple(Casualty("Villains", f"Fighter {i:03d}", 1) for i in range(100))
    (line,) = fallen_lines(fallen)
    # 22 names of 11 characters fit in 300 with the "… and 78 more" after them; a 23rd would not
    shown = ", ".join(f"Fighter {i:03d}" for i in range(22))
    assert line == f"Round 1, Villains (100): {shown}, … and 78 more"
    linked = (Casualty("Heroes", "Tom_the_Great", 2), Casualty("Heroes", "Clone_1", 2, linked_to="Tom_the_Great"))
    assert fallen_lines(linked) == ["Round 2, Heroes (2): Tom\\_the\\_Great, Clone\\_1 (with Tom\\_the\\_Great)"]


async def test_warnings_are_shown_but_the_battle_runs(harness):
    h = harness
    heroes = ("H.csv", b"Name,XP,LinkedTo\nSolo,5000,Ghost\n")
    (reply,) = await h.run("mfd battle", h.gm, heroes=heroes, villains=VILLAINS, seed=2)
    warnings = reply.field("⚠️ Warnings (1)")
    assert "H.csv, row 2, column 'LinkedTo': LinkedTo names 'Ghost', who is not in this file; ignored" in warnings


def final_files(reply) -> dict:
    """The reply's final CSVs as /mfd continue's attachments."""
    return {
        side: (name, reply.files[name])
        for side, name in (("heroes", "Heroes-final.csv"), ("villains", "Villains-final.csv"))
    }


def warning_fields(reply) -> list[str]:
    return [f.name for f in reply.embed.fields if f.name.startswith("⚠️")]


async def test_the_original_rosters_continued_from_their_final_csvs_warn_only_about_their_slips(harness):
    h = harness
    (first,) = await h.run("mfd battle", h.gm, heroes=ORIGINAL_HEROES, villains=ORIGINAL_VILLAINS, max_rounds=1, seed=1)
    # Twelve names never on the side, one line for each kind of them.
    assert first.field("⚠️ Warnings (3)") == "\n".join(ORIGINAL_WARNINGS)
    # Attached again, the final CSVs name the fallen 59 times: none is warned about, the slips still are.
    (second,) = await h.run("mfd continue", h.gm, rounds=1, **final_files(first))
    assert second.embed.description.startswith("Round 2 fought (continued)")
    assert second.field("⚠️ Warnings (3)") == "\n".join(AFTER_ROUND_1_WARNINGS)
    log = second.files["BattleLog.txt"].decode()
    assert [line.strip() for line in log.splitlines() if "warning:" in line] == [
        f"warning: {w}" for w in AFTER_ROUND_1_WARNINGS
    ]
    # The button goes on from the stored battle: nothing to warn about.
    (third,) = await h.click(second, "Fight one more round", h.gm)
    assert third.embed.description.startswith("Round 3 fought (continued)")
    assert warning_fields(third) == [] and "warning:" not in third.files["BattleLog.txt"].decode()


async def test_a_beaten_side_gets_its_template_and_only_a_typo_in_it_warns(harness):
    h = harness
    (won,) = await h.run("mfd battle", h.gm, heroes=ORIGINAL_HEROES, villains=ORIGINAL_VILLAINS, max_rounds=3, seed=1)
    assert won.embed.title == "🏆 Heroes win in round 3"
    template = FINAL_HEADER + BUFF_GROUP * 2 + "\n"
    assert won.files["Villains-final.csv"].decode() == template
    (status,) = await h.run("mfd status", h.alice)
    assert status.files["Villains-final.csv"].decode() == template
    # The GM fills the template with reinforcements naming the fallen Summoner, Mook A, Conjura, and 'Sumoner'.
    (more,) = await h.run(
        "mfd continue",
        h.gm,
        rounds=1,
        heroes=final_files(won)["heroes"],
        villains=("Villains-final.csv", (template + REINFORCEMENTS).encode()),
    )
    assert more.embed.description.startswith("Round 4 fought (continued)")
    assert "Villains (2), from Villains-final.csv:" in more.files["BattleLog.txt"].decode()
    assert more.field("⚠️ Warnings (4)") == "\n".join(AFTER_ROUND_3_WARNINGS)


async def test_a_buff_lasts_to_the_end_of_the_round_its_provider_falls_in(harness):
    h = harness
    (reply,) = await h.run(
        "mfd battle",
        h.gm,
        heroes=("Heroes.csv", FOCUS_HEROES_CSV.encode()),
        villains=("Villains.csv", FOCUS_VILLAINS_CSV.encode()),
        max_rounds=2,
        seed=1,
    )
    round_1, round_2 = reply.files["BattleLog.txt"].decode().split("\nRound 2\n")
    assert FOCUS_ROUND_1 in round_1
    assert FOCUS_ROUND_2 in round_2
    assert reply.field("Fallen this run (1)") == "Round 1, Villains (1): Aide"


async def test_status_and_no_battle(harness):
    h = harness
    (nothing,) = await h.run("mfd status", h.alice)
    assert nothing.ephemeral and "There is no battle in this channel" in nothing.content
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    (status,) = await h.run("mfd status", h.alice)
    assert status.embed.title == "⏸️ After round 1 both sides still stand"
    assert status.embed.description.startswith(
        f"1 round fought\nStarted by {h.gm.mention}; last run by {h.gm.mention} ("
    )
    assert status.embed.footer.text.startswith("seed 1 · The files are both sides as they stand")
    assert status.field("Fallen (4)").startswith("Round 1, Villains (3)")
    assert status.files["Villains-final.csv"].decode().splitlines()[1] == "Boss,9000,0,1,0.2,0,2,,,3"


EXHAUSTION_NOTE_TEXT = (
    "BonusToDefend in the final CSVs includes the exhaustion so far: 0.1 lower for every round a fighter "
    "survived (0.1 becomes -0.2 after 3 rounds). Fighting on from them keeps everyone as tired as they are; "
    "raise it back to rest a fighter."
)


async def test_the_final_csvs_exhaustion_in_bonus_to_defend_is_said_where_they_are_handed_out(harness):
    # issue 24: the final CSVs quietly carried exhaustion in BonusToDefend
    h = harness
    (first,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    # the Dragon came in with BonusToDefend 0.1 and survived a round: 0 in the file, -0.1 a round from now on
    assert first.files["Heroes-final.csv"].decode().splitlines()[1].startswith("Dragon,13000,1500,-1,0.9,0,")
    assert first.embed.footer.text.endswith(EXHAUSTION_NOTE_TEXT)
    (pressed,) = await h.click(first, "Fight one more round", h.gm)
    assert pressed.embed.footer.text.endswith(EXHAUSTION_NOTE_TEXT)
    (status,) = await h.run("mfd status", h.alice)
    assert status.embed.footer.text.endswith(EXHAUSTION_NOTE_TEXT)
    (guide,) = await h.run("mfd template", h.alice)
    assert guide.embed.description.endswith(f"`/mfd continue`. {EXHAUSTION_NOTE_TEXT}")


async def test_template_gives_the_examples_and_a_guide(harness):
    (reply,) = await harness.run("mfd template", harness.bob)
    assert reply.ephemeral and "BodyguardFor" in reply.embed.description
    assert reply.files["Heroes.csv"] == (EXAMPLES / "Heroes.csv").read_bytes()
    assert reply.files["Villains.csv"] == (EXAMPLES / "Villains.csv").read_bytes()
    assert formulas(reply.files["Heroes.csv"]) == formulas(reply.files["Villains.csv"]) == []


async def test_concurrent_continues_cannot_both_apply(harness, monkeypatch):
    import sys
    import threading

    h = harness
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    cog_module = sys.modules[type(h.bot.get_cog("MarkedForDeath")).__module__]
    fight_on = cog_module.fight_on
    both_fighting = threading.Barrier(2, timeout=10)

    def fight_at_once(*args, **kwargs):  # each run starts from the battle as it was before either saved
        both_fighting.wait()
        return fight_on(*args, **kwargs)

    monkeypatch.setattr(cog_module, "fight_on", fight_at_once)
    before = len(h.messages)
    await h.run("mfd continue", h.gm, rounds=1, wait=False)
    await h.run("mfd continue", h.gm, rounds=1, wait=False)
    await h.settle()
    texts = [m.content for m in h.messages[before:] if m.content]
    assert texts == [
        "❌ This battle changed while your run was being fought (another run was saved or a new "
        "battle started), so nothing was saved. Check the newest result and run it again."
    ]
    (row,) = await battles(h)
    assert row[1] == 2 and row[5] == 2


async def test_rounds_that_take_long_never_hold_up_another_players_click(harness, monkeypatch):
    """A round can be a million attacks (seconds): pressed twice, it must not take both quick workers."""
    h = harness
    (first,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    (board,) = [m for m in await h.run("mma ai", h.alice, seed=5) if m.embeds]
    rounds = HeldCall(monkeypatch, h.cog_module("MarkedForDeath"), "fight_on")
    for _ in range(2):
        await h.click(first, "Fight one more round", h.gm, wait=False)
    await rounds.entered(times=2)  # both rounds are being fought, each in a worker
    replies = await h.click(board, "Skip draw", h.alice)  # played while both rounds still run
    assert len(await h.bot.db.fetch_all("SELECT * FROM mma_moves")) == 1
    assert not [m.content for m in replies if "went wrong" in m.content]
    rounds.release()
    await h.settle()


async def test_a_button_or_run_of_a_replaced_battle_never_acts_on_the_new_one(harness, monkeypatch):
    h = harness
    (first,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=2)
    (refusal,) = await h.click(first, "Fight one more round", h.gm)
    assert refusal.ephemeral
    rows = await h.bot.db.fetch_all("SELECT seed, rounds_fought FROM mfd_battles")
    assert [tuple(r) for r in rows] == [(2, 1)]
    # A run of the battle being replaced while it is fought is not saved over the new battle.
    cog_module = h.cog_module("MarkedForDeath")
    run = HeldCall(monkeypatch, cog_module, "fight_on")
    await h.run("mfd continue", h.gm, rounds=1, wait=False)
    await run.entered()
    monkeypatch.setattr(cog_module, "fight_on", run.original)
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=3)
    run.release()
    await h.settle()
    rows = await h.bot.db.fetch_all("SELECT seed, rounds_fought FROM mfd_battles")
    assert [tuple(r) for r in rows] == [(3, 1)]
    assert any("This battle changed while your run was being fought" in m.content for m in h.messages)


async def test_restart_keeps_the_battle_and_its_button(harness):
    h = harness
    (first,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    await h.restart()
    (after,) = await h.click(first, "Fight one more round", h.gm)
    assert EXPECTED_ROUND_2 in after.files["BattleLog.txt"].decode()


async def test_every_battle_reply_carries_its_chart_beside_the_log(harness):
    h = harness

    def charted(reply) -> None:
        assert reply.files["battle-chart.png"].startswith(b"\x89PNG\r\n\x1a\n")
        assert reply.embed.image.url == "attachment://battle-chart.png"
        assert {"BattleLog.txt", "Heroes-final.csv", "Villains-final.csv"} <= set(reply.files)

    (battle,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    charted(battle)
    (pressed,) = await h.click(battle, "Fight one more round", h.gm)
    charted(pressed)
    await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    (continued,) = await h.run("mfd continue", h.gm)
    charted(continued)


async def test_the_chart_after_the_button_or_continue_draws_the_whole_battle_so_far(harness):
    # issue 24: it showed only the run's new rounds. Continuing is the same battle as running on, so each
    # reply's chart is the chart of one run from round 0 to where the battle stands.
    h = harness
    heroes = read_roster((EXAMPLES / "Heroes.csv").read_text(), "h.csv", "Heroes")
    villains = read_roster((EXAMPLES / "Villains.csv").read_text(), "v.csv", "Villains")

    def chart_of_rounds(rounds: int) -> bytes:
        curve = start_battle(heroes, villains, seed=5, max_rounds=rounds).curve
        assert curve.rounds == tuple(range(rounds + 1))
        return battle_chart_png(curve, "Marked for Death, seed 5")

    files = {"heroes": ("h.csv", (EXAMPLES / "Heroes.csv").read_bytes())}
    files["villains"] = ("v.csv", (EXAMPLES / "Villains.csv").read_bytes())
    (first,) = await h.run("mfd battle", h.gm, **files, max_rounds=1, seed=5)
    assert first.files["battle-chart.png"] == chart_of_rounds(1)
    (pressed,) = await h.click(first, "Fight one more round", h.gm)
    assert pressed.files["battle-chart.png"] == chart_of_rounds(2)
    await h.restart()  # the history is stored with the battle
    (continued,) = await h.run("mfd continue", h.gm, rounds=1)
    assert continued.files["battle-chart.png"] == chart_of_rounds(3)


async def test_a_round_that_takes_longer_than_discords_3_seconds_still_shows_its_result(harness, monkeypatch):
    import sys

    h = harness
    (first,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    cog_module = sys.modules[type(h.bot.get_cog("MarkedForDeath")).__module__]
    run_long_engine = cog_module.run_long_engine

    async def stalled(*args, **kwargs):  # the round takes 3.3 s on Discord's clock
        clock = h.fake.clock
        h.fake.clock = lambda: clock() + 3.3
        return await run_long_engine(*args, **kwargs)

    monkeypatch.setattr(cog_module, "run_long_engine", stalled)
    (second,) = await h.click(first, "Fight one more round", h.gm)  # deferred first: the answer arrives
    assert second.embed.description.startswith("Round 2 fought (continued)")
    assert (await battles(h))[0][1] == 2 and not h.fake.expired


async def test_a_click_replayed_in_another_server_or_channel_is_refused_and_fights_nothing(harness):
    h = harness
    (reply,) = await h.run("mfd battle", h.gm, heroes=HEROES, villains=VILLAINS, max_rounds=1, seed=1)
    before = [dict(r) for r in await h.bot.db.fetch_all("SELECT * FROM mfd_battles")]
    # the other server's GM, even with a battle of their own there
    await h.run(
        "mfd battle",
        h.gm,
        heroes=HEROES,
        villains=VILLAINS,
        max_rounds=1,
        seed=2,
        guild_id=OTHER_GUILD_ID,
        channel_id=OTHER_GUILD_CHANNEL_ID,
    )
    theirs = await h.bot.db.fetch_one("SELECT * FROM mfd_battles WHERE channel_id = ?", (OTHER_GUILD_CHANNEL_ID,))
    (refusal,) = await h.click(
        reply, "Fight one more round", h.gm, guild_id=OTHER_GUILD_ID, channel_id=OTHER_GUILD_CHANNEL_ID
    )
    assert refusal.ephemeral
    assert refusal.content == "❌ This battle belongs to another server, so nothing was changed."
    (refusal,) = await h.click(reply, "Fight one more round", h.gm, channel_id=OTHER_CHANNEL)
    assert refusal.content == "❌ This battle belongs to another channel, so nothing was changed."
    rows = await h.bot.db.fetch_all("SELECT * FROM mfd_battles ORDER BY id")
    assert [dict(r) for r in rows] == [*before, dict(theirs)]


# Names a spreadsheet would run as formulas, in every column that holds a name, and names with apostrophes
# of their own: `''=kept` is the name `'=kept` (a spreadsheet's leading `'` marks text, and comes off).
HOSTILE_HEROES = (
    "Name,XP,HP,BonusToHit,LinkedTo,BodyguardFor,BuffName,BuffWho,BuffOffense,BuffDefense\n"
    '"=HYPERLINK(""http://x"",""y"")",5000,1000000,,@SUM(1),,=Buff,"-2+3,@SUM(1)",0.1,0\n'
    "@SUM(1),5000,1000000,,,-2+3,,,,\n"
    "\"+1+cmd|' /C calc'!A0\",5000,1000000,,,,,,,\n"
    "-2+3,5000,1000000,,,,,,,\n"
    "'Tis,5000,1000000,,,,,,,\n"
    "''=kept,5000,1000000,-0.25,,,,,,\n"
)
HOSTILE_NAMES_WRITTEN = [
    "'+1+cmd|' /C calc'!A0",
    "'-2+3",
    '\'=HYPERLINK("http://x","y")',
    "'@SUM(1)",
    "'Tis",
    "''=kept",
]


async def test_final_csvs_neutralize_formulas_and_continue_from_them_as_from_the_battle(harness):
    h = harness
    hostile = {
        "heroes": ("Heroes.csv", HOSTILE_HEROES.encode()),
        "villains": ("Villains.csv", b"Name,XP,HP\n=Boss,9000,1000000\n"),
    }
    (reply,) = await h.run("mfd battle", h.gm, **hostile, max_rounds=1, seed=3)
    (status,) = await h.run("mfd status", h.bob)
    for message in (reply, status):
        heroes, villains = message.files["Heroes-final.csv"], message.files["Villains-final.csv"]
        assert formulas(heroes) == [] and formulas(villains) == []
        rows = list(csv.reader(io.StringIO(heroes.decode(), newline="")))
        assert sorted(row[0] for row in rows[1:]) == sorted(HOSTILE_NAMES_WRITTEN)
        assert villains.decode().splitlines()[1].startswith("'=Boss,9000,")
        assert "''=kept,5000,0,0,-0.25," in heroes.decode()  # a negative number stays a number
    # The same battle in another channel: continuing it from its final CSVs fights exactly as going on does.
    await h.run("mfd battle", h.gm, **hostile, max_rounds=1, seed=3, channel_id=OTHER_CHANNEL)
    files = {
        "heroes": ("Heroes-final.csv", reply.files["Heroes-final.csv"]),
        "villains": ("Villains-final.csv", reply.files["Villains-final.csv"]),
    }
    (from_files,) = await h.run("mfd continue", h.gm, rounds=1, **files)
    (going_on,) = await h.run("mfd continue", h.gm, rounds=1, channel_id=OTHER_CHANNEL)
    for name in ("Heroes-final.csv", "Villains-final.csv"):
        assert from_files.files[name] == going_on.files[name], name
    # the log names the files the sides came from, and is otherwise the same
    log = from_files.files["BattleLog.txt"].decode().replace("-final.csv", ".csv")
    assert log == going_on.files["BattleLog.txt"].decode()
    assert "=HYPERLINK" in from_files.files["BattleLog.txt"].decode()
