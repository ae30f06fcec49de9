"""/andor through the real command tree, with a real SQLite file."""

from __future__ import annotations

import asyncio
import copy
import sys
import time

from discord import AppCommandOptionType

from offline_discord.harness import CHANNEL_ID, GUILD_ID, OTHER_GUILD_CHANNEL_ID, OTHER_GUILD_ID, User
from rules.andor.models import STAT_LIMITS, Character
from storage.andor import FightStatus

MONSTER_HEADER = "name,hp,ap,attack_cost,attack_chance,damage_min,damage_max,block_chance,xp"


async def fight_row(h, user):
    return await h.bot.db.fetch_one(
        "SELECT id, version, status, xp_change FROM andor_fights WHERE user_id = ? ORDER BY id DESC", (user.id,)
    )


async def stored_character(h, user) -> Character:
    row = await h.bot.db.fetch_one("SELECT character_json FROM andor_characters WHERE user_id = ?", (user.id,))
    assert row is not None, "no character stored"
    return Character.model_validate_json(row["character_json"])


def labels(message):
    return {c.get("label") or c.get("placeholder"): c.get("disabled", False) for c in message.components}


async def play(h, message, user, press_first: str, *, limit: int = 40):
    """Press the button whose label starts with `press_first` while it is enabled, else End turn, to the end."""
    for _ in range(limit):
        if not message.components:
            return message
        enabled = [
            label for label, disabled in labels(message).items() if label.startswith(press_first) and not disabled
        ]
        button = enabled[0] if enabled else "End turn"
        replies = await h.click(message, button, user)
        assert replies == [], [r.content for r in replies]
    raise AssertionError("the fight did not end")


async def test_set_and_show_a_character(harness):
    h = harness
    (shown,) = await h.run("andor character show", h.alice)
    assert shown.ephemeral and shown.embed.title == "Alice's character"
    assert shown.field("Max HP") == "25 (20 + 5×1 + 0)"
    assert shown.field("AP") == "10, attack costs 4 (2 attacks a turn)"
    (saved,) = await h.run("andor character set", h.alice, attack_chance=90, damage_max=4, crit_chance=10, armor=50)
    assert saved.embed.title == "✅ Saved: attack_chance 90, damage_max 4, crit_chance 10, armor 50"
    assert saved.field("Damage") == "1-4" and saved.field("Critical") == "10% x1.5"
    assert saved.field("Armor") == "50 (takes 75% damage)"
    character = await stored_character(h, h.alice)
    assert (character.attack_chance, character.damage_max, character.armor) == (90, 4, 50)
    (levelled,) = await h.run("andor character set", h.alice, xp=60)
    assert levelled.field("Level") == "2 (5/220 XP)" and levelled.field("Max HP") == "30 (20 + 5×2 + 0)"

    (refused,) = await h.run("andor character set", h.alice, damage_min=5)
    # as written: escaped, else "_min: 5 is above damage_" would render in italics
    assert refused.ephemeral and refused.content == r"❌ damage\_min: 5 is above damage\_max 4"
    (refused,) = await h.run("andor character set", h.alice)
    assert refused.content.startswith("❌ Give at least one stat to change")
    assert (await stored_character(h, h.alice)).damage_min == 1
    (reset,) = await h.run("andor character reset", h.alice)
    assert reset.embed.title == "✅ Back to the default character"
    assert await h.bot.db.fetch_one("SELECT 1 FROM andor_characters WHERE user_id = ?", (h.alice.id,)) is None


async def test_fight_a_tiny_rat_to_victory_with_the_buttons(harness):
    h = harness
    await h.run("andor character set", h.alice, attack_chance=200, damage_min=2, damage_max=2, xp=52)
    (fight,) = await h.run("andor fight", h.alice, monster="Tiny rat", seed=7)
    assert not fight.ephemeral
    assert fight.embed.title == "⚔️ Alice vs Tiny rat"
    assert f"{h.alice.mention} HP ████████████ 25/25" in fight.embed.description
    assert "AP ██████████ 10/10" in fight.embed.description
    # what each side's attack does: AC 200 vs BC 0 and AC 50 vs BC 9 (RULINGS 4), damage after DR and armor
    assert fight.embed.description.splitlines()[1:4] == [
        "AP ██████████ 10/10 · 🧪 2 potions (+20 HP for 5 AP, when hurt)",
        "🗡️ You: 91% to hit Tiny rat for 2; 4 AP an attack",
        "🩸 Tiny rat: 42% to hit you for 1; 1 attack a turn",
    ]
    assert fight.embed.footer.text == (
        f"seed 7 · round 1 · fight #{(await fight_row(h, h.alice))['id']}\n"
        "Your turn ends at 0 AP or with End turn; a failed flee ends it too."
    )
    assert labels(fight) == {"Attack Tiny rat": False, "Potion (2)": True, "Flee (80%)": False, "End turn": False}
    (button,) = [c for c in fight.components if c["label"] == "Attack Tiny rat"]
    row = await fight_row(h, h.alice)
    assert button["custom_id"] == f"andor:{row['id']}:0:attack"

    await play(h, fight, h.alice, "Attack Tiny rat")
    assert fight.components == []
    # 52 + 3 = 55: level 2; a Tiny rat drops 0 to floor(3 / 2) = 1 gold
    assert fight.embed.description.startswith("🏆 **Victory!** +3 XP, +1 gold piece · level 2, 0/220 XP")
    assert "You → Tiny rat: hit (rolled" in fight.embed.description
    assert "damage 2 (rolled 2); **killed**: +3 XP, +1 gold piece\nVictory (kills: +3 XP, +1 gold piece)" in (
        fight.embed.description
    )
    assert fight.embed.fields[0].value == "☠️ defeated"
    assert (
        "\nAP " not in fight.embed.description and "\n" not in fight.embed.footer.text
    )  # no AP or turn help once over
    row = await fight_row(h, h.alice)
    assert (row["status"], row["xp_change"]) == (FightStatus.WON, 3)
    character = await stored_character(h, h.alice)
    assert (character.level, character.xp, character.attack_chance) == (2, 0, 200)


async def test_a_member_with_the_largest_id_fights_with_the_buttons(harness):
    """Discord's ids have 19 digits since 2022, up to the largest 64-bit integer."""
    h = harness
    largest = User(2**63 - 1, "Largest")
    await h.run("andor character set", largest, attack_chance=200, damage_min=2, damage_max=2)
    (fight,) = await h.run("andor fight", largest, monster="Tiny rat", seed=7)
    (refused,) = await h.click(fight, "Attack Tiny rat", User(1234567890123456789, "Nineteen"))
    assert refused.ephemeral
    assert refused.content == f"❌ This is {largest.mention}'s fight; start your own with `/andor fight`."
    await play(h, fight, largest, "Attack Tiny rat")
    assert fight.embed.description.startswith("🏆 **Victory!** +3 XP")
    row = await fight_row(h, largest)
    assert (row["status"], row["xp_change"]) == (FightStatus.WON, 3)


async def test_lose_to_a_queen_lava_entity_and_pay_the_xp_penalty(harness):
    h = harness
    await h.run("andor character set", h.alice, xp=50)
    (fight,) = await h.run("andor fight", h.alice, monster="queen lava", seed=3)
    assert fight.embed.title == "⚔️ Alice vs Queen lava entity"
    # 1 damage minus the queen's DR 16 is nothing: the message says so before the first click
    assert "🗡️ You: 4% to hit Queen lava entity for 0; 4 AP an attack" in fight.embed.description
    assert "🩸 Queen lava entity: 88% to hit you for 35-45; 1 attack a turn" in fight.embed.description
    await play(h, fight, h.alice, "End turn")
    # 30% of the 50 XP within level 1 is 15: level 1, 35 XP; the next fight starts at full HP anyway
    assert fight.embed.description.startswith("💀 **Defeated.** You lose 15 XP (30% of this level's XP)")
    assert "level 1, 35/55 XP" in fight.embed.description
    assert "Queen lava entity → You: hit" in fight.embed.description and "Defeat" in fight.embed.description
    character = await stored_character(h, h.alice)
    assert (character.level, character.xp) == (1, 35)
    assert (await fight_row(h, h.alice))["status"] == FightStatus.LOST


async def test_a_default_character_that_dies_is_stored_with_the_penalty(harness):
    h = harness
    (fight,) = await h.run("andor fight", h.bob, monster="Queen lava entity", seed=1)
    await play(h, fight, h.bob, "End turn")
    character = await stored_character(h, h.bob)
    assert (character.level, character.xp) == (1, 0)


async def test_the_turn_goes_on_until_0_ap_and_the_message_says_why(harness):
    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    for _ in range(2):
        assert await h.click(fight, "Attack Wolf", h.alice) == []
    # 2 AP left: no attack (4 AP) and no potion (full HP), but fleeing (1 AP) is still possible (RULINGS 4)
    assert labels(fight) == {"Attack Wolf": True, "Potion (2)": True, "Flee (80%)": False, "End turn": False}
    assert "AP ██░░░░░░░░ 2/10" in fight.embed.description
    assert (
        "⏳ 2 AP left, too few to attack (4 AP). You can still flee (1 AP); press **End turn** to let the monsters act."
        in fight.embed.description
    )
    assert "The monsters' turn" not in fight.embed.description
    assert await h.click(fight, "End turn", h.alice) == []
    feed = fight.embed.description.split("**Latest**\n")[1].splitlines()
    assert feed[-4] == "The monsters' turn"
    assert [line.split(":")[0] for line in feed[-3:-1]] == ["Wolf → You", "Wolf → You"]
    assert feed[-1] == "Round 2: your turn, 10 AP"
    assert "AP ██████████ 10/10" in fight.embed.description and "⏳" not in fight.embed.description


def test_the_turn_hint_names_a_potion_when_one_can_be_drunk():
    from cogs.common import bold
    from rules.andor.bestiary import find_monster, merged
    from rules.andor.engine import start_fight
    from rules.andor.models import Character
    from rules.andor.text import turn_hint

    state, _ = start_fight(Character(ap=11, attack_cost=6), find_monster(merged([]), "Wolf"))
    assert turn_hint(state) is None  # an attack is affordable
    hurt = state.model_copy(update={"ap_left": 5, "player": state.player.model_copy(update={"hp": 10})})
    assert turn_hint(hurt, bold) == (
        "⏳ 5 AP left, too few to attack (6 AP). You can still drink a potion or flee (1 AP);"
        " press **End turn** to let the monsters act."
    )


async def test_character_options_say_what_they_do_their_range_and_default(harness):
    command = harness.bot.tree.get_command("andor").get_command("character").get_command("set")
    params = {p.name: p for p in command.parameters}
    assert params["level"].description == (
        "Level, +5 max HP each; a new level starts at 0 XP unless you set xp too (1 to 999, default 1)"
    )
    assert params["xp"].description.endswith("(0 to 1,000,000,000, default 0)")
    assert params["crit_multiplier"].description.endswith("(1 to 10, default 1.5)")
    assert params["armor"].description == "Armor: damage you take x (1 - armor/200) (0 to 200, default 0)"
    for param in params.values():
        assert 20 < len(param.description) <= 100, param.name  # Discord's limit for option descriptions
    # Discord enforces the same bounds the engine checks
    assert (params["level"].min_value, params["level"].max_value) == (1, 999)
    assert (params["crit_multiplier"].min_value, params["crit_multiplier"].max_value) == (1.0, 10.0)
    assert (params["crit_chance"].min_value, params["crit_chance"].max_value) == (0, 100)
    for name, param in params.items():  # each option's type is written by hand: it must be the stat's
        limit = STAT_LIMITS[name]
        assert (param.type, param.min_value, param.max_value) == (
            AppCommandOptionType.integer if limit.integer else AppCommandOptionType.number,
            limit.minimum,
            limit.maximum,
        ), name


async def test_a_new_level_starts_at_0_xp_unless_xp_is_given(harness):
    h = harness
    (levelled,) = await h.run("andor character set", h.alice, xp=100)
    assert levelled.field("Level") == "2 (45/220 XP)"
    (lowered,) = await h.run("andor character set", h.alice, level=1)
    assert lowered.field("Level") == "1 (0/55 XP)"  # not levelled straight back up by the old XP
    (both,) = await h.run("andor character set", h.alice, level=3, xp=10)
    assert both.field("Level") == "3 (10/495 XP)" and both.field("Max HP") == "35 (20 + 5×3 + 0)"
    character = await stored_character(h, h.alice)
    assert (character.level, character.xp) == (3, 10)


async def test_only_the_fighting_player_can_press(harness):
    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    before = dict(await fight_row(h, h.alice))
    (refusal,) = await h.click(fight, "Attack Wolf", h.bob)
    assert (
        refusal.ephemeral
        and refusal.content == f"❌ This is {h.alice.mention}'s fight; start your own with `/andor fight`."
    )
    assert dict(await fight_row(h, h.alice)) == before
    assert "AP ██████████ 10/10" in fight.embed.description


async def test_stale_and_double_clicks_change_nothing(harness):
    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    old = copy.deepcopy(fight)
    assert await h.click(fight, "Attack Wolf", h.alice) == []
    assert (await fight_row(h, h.alice))["version"] == 1
    assert "AP ██████░░░░ 6/10" in fight.embed.description
    shown = fight.embed.description
    (stale,) = await h.click(old, "Attack Wolf", h.alice)
    assert stale.ephemeral and stale.content == (
        "⌛ These buttons were from an earlier moment of this fight, so nothing was changed. The message now shows "
        "the fight as it is: use its buttons."
    )
    assert (await fight_row(h, h.alice))["version"] == 1 and fight.embed.description == shown  # redrawn as stored

    # two presses of the same button at once: one applies, the other is refused
    snapshot = copy.deepcopy(fight)
    before = set(asyncio.all_tasks())
    await h.click(fight, "Attack Wolf", h.alice, wait=False)
    await h.click(snapshot, "Attack Wolf", h.alice, wait=False)
    await h.settle(before)
    assert (await fight_row(h, h.alice))["version"] == 2
    refusals = [m for m in h.messages if m.ephemeral and "so nothing was changed" in m.content]
    assert len(refusals) == 2  # the stale one above and one of the two presses
    assert "AP ██░░░░░░░░ 2/10" in fight.embed.description


async def test_a_fight_survives_a_restart(harness):
    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=5)
    await h.click(fight, "Attack Wolf", h.alice)
    await h.restart()
    assert await h.click(fight, "Attack Wolf", h.alice) == []
    row = await fight_row(h, h.alice)
    assert row["version"] == 2
    await play(h, fight, h.alice, "Attack Wolf")
    assert (await fight_row(h, h.alice))["status"] == FightStatus.LOST  # the default character never beats a wolf


async def test_several_monsters_get_a_target_select(harness):
    h = harness
    await h.run("andor character set", h.alice, attack_chance=200, damage_min=2, damage_max=2, hp_bonus=100)
    (fight,) = await h.run("andor fight", h.alice, monster="Tiny rat", count=3, seed=11)
    assert fight.embed.title == "⚔️ Alice vs Tiny rat ×3"
    select = fight.component("Choose whom to attack")
    assert [o["label"] for o in select["options"]] == [
        "Tiny rat 1 (2/2 HP)",
        "Tiny rat 2 (2/2 HP)",
        "Tiny rat 3 (2/2 HP)",
    ]
    assert [f.name for f in fight.embed.fields] == ["🎯 Tiny rat 1", "Tiny rat 2", "Tiny rat 3"]
    (refusal,) = await h.click(fight, "Choose whom to attack", h.alice, values=["7"])  # a forged choice
    assert refusal.ephemeral and refusal.content == "❌ That monster cannot be attacked any more."
    assert (await fight_row(h, h.alice))["version"] == 0
    assert await h.click(fight, "Choose whom to attack", h.alice, values=["2"]) == []
    assert "Attack Tiny rat 3" in labels(fight)
    assert [f.name for f in fight.embed.fields] == ["Tiny rat 1", "Tiny rat 2", "🎯 Tiny rat 3"]
    await play(h, fight, h.alice, "Attack")
    # once rat 3 fell the target moved on to the first living rat, and so on until none was left
    assert fight.embed.description.startswith("🏆 **Victory!** +9 XP")


async def test_a_second_fight_brings_the_one_fight_message_up_to_date_and_points_to_it(harness):
    from rules.andor.engine import apply_in_place, replay_rng
    from rules.andor.models import Action
    from storage.andor import AndorRepository

    h = harness
    (first,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    # an attack saved while the message could not show it (a crash between the save and the edit)
    repo = AndorRepository(h.bot.db)
    stored = await repo.fight((await fight_row(h, h.alice))["id"])
    assert stored is not None and stored.message_id == first.id
    apply_in_place(stored.state, Action.attack(0), replay_rng(stored.state))
    await repo.update_fight(stored, stored.state)
    (pointer,) = await h.run("andor fight", h.alice, monster="Tiny rat")
    assert pointer.ephemeral and not pointer.embeds  # no second board
    assert pointer.content == (
        f"You are already in a fight: https://discord.com/channels/{GUILD_ID}/{first.channel_id}/{first.id} "
        "(it now shows the fight as it is). Finish it (or flee) before starting another."
    )
    assert "AP ██████░░░░ 6/10" in first.embed.description  # the one message, brought up to date
    assert first.component("Attack Wolf")["custom_id"].endswith(":1:attack")
    assert await h.click(first, "Attack Wolf", h.alice) == []


async def test_a_fight_posted_again_retires_the_old_copy(harness):
    h = harness
    (old,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    # a fight whose message is not known (started before messages were kept): it is posted again
    async with h.bot.db.transaction() as conn:
        await conn.execute("UPDATE andor_fights SET message_id = NULL")
    (again,) = await h.run("andor fight", h.alice, monster="Tiny rat")
    assert not again.ephemeral and again.content.startswith("You are already in a fight: here it is again.")
    assert again.embed.title == "⚔️ Alice vs Wolf"
    (retired,) = await h.click(old, "Attack Wolf", h.alice)
    assert retired.ephemeral and retired.content == (
        "⌛ This copy of the fight is retired, so nothing was changed: the fight goes on at "
        f"https://discord.com/channels/{GUILD_ID}/{again.channel_id}/{again.id}."
    )
    assert old.components == [] and old.embed.title == "⚔️ Alice vs Wolf"  # one live board: the new one
    assert (await fight_row(h, h.alice))["version"] == 0
    assert await h.click(again, "Attack Wolf", h.alice) == []
    assert (await fight_row(h, h.alice))["version"] == 1


async def test_a_fight_posted_again_in_another_channel_is_linked_and_kept_there(harness):
    h = harness
    (first,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    h.fake.messages.pop(first.id)  # its message deleted
    other = CHANNEL_ID + 7
    # Answered privately first (the edit of the lost message comes after), then posted again here, linked.
    told, again = await h.run("andor fight", h.alice, monster="Tiny rat", channel_id=other)
    assert again.content.startswith("You are already in a fight: here it is again.") and not again.ephemeral
    assert told.ephemeral and told.content == (
        f"You are already in a fight: https://discord.com/channels/{GUILD_ID}/{other}/{again.id} "
        "(it now shows the fight as it is). Finish it (or flee) before starting another."
    )
    row = await h.bot.db.fetch_one("SELECT channel_id, message_id FROM andor_fights WHERE user_id = ?", (h.alice.id,))
    assert row is not None and (row["channel_id"], row["message_id"]) == (other, again.id)  # where it is shown now
    (pointer,) = await h.run("andor fight", h.alice, monster="Tiny rat", channel_id=other)
    assert pointer.ephemeral and not pointer.embeds  # brought up to date there: no third board
    assert f"https://discord.com/channels/{GUILD_ID}/{other}/{again.id} " in pointer.content


async def test_a_fight_shown_again_is_answered_before_its_message_is_edited(harness, monkeypatch):
    """The edit of the fight's message can wait on Discord's rate limits for seconds: the member's answer
    does not wait for it."""
    h = harness
    await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    order: list[str] = []
    send_channel, send_webhook = h.fake.http_request, h.fake.request

    async def channel_edit(route, *args, **kwargs):
        order.append(f"{route.method} {route.path}")
        return await send_channel(route, *args, **kwargs)

    async def webhook(route, *args, **kwargs):
        order.append(f"{route.method} {route.path}")
        return await send_webhook(route, *args, **kwargs)

    monkeypatch.setattr(h.fake, "http_request", channel_edit)
    monkeypatch.setattr(h.fake, "request", webhook)
    (pointer,) = await h.run("andor fight", h.alice, monster="Tiny rat")
    assert pointer.ephemeral and order == [
        "POST /interactions/{webhook_id}/{webhook_token}/callback",
        "PATCH /channels/{channel_id}/messages/{message_id}",
    ]


async def test_a_fight_clicked_before_its_message_id_is_stored_plays_and_is_not_retired(harness):
    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    async with h.bot.db.transaction() as conn:  # as just after a repost, before the new copy's id is saved
        await conn.execute("UPDATE andor_fights SET message_id = ?", (fight.id - 1,))
    assert await h.click(fight, "Attack Wolf", h.alice) == []  # the newer copy plays
    assert (await fight_row(h, h.alice))["version"] == 1 and fight.components != []


async def test_gm_uploads_monsters_and_everyone_sees_them(harness):
    h = harness
    upload = f"{MONSTER_HEADER},crit_chance\nImp,8,10,5,70,1,3,5,12,10\nwolf,99,10,5,70,1,3,5,12,\n".encode()
    (refusal,) = await h.run("andor monsters upload", h.alice, csv=("m.csv", upload))
    assert refusal.content == "❌ Only a game master can do that: it needs the Manage Server permission."
    (done,) = await h.run("andor monsters upload", h.gm, csv=("m.csv", upload))
    assert done.embed.title == "Bestiary updated: 2 monsters saved (2 of this server's own)"
    (book,) = await h.run("andor bestiary", h.alice)
    assert book.embed.title == "Bestiary (12)"
    assert "**Imp** (this server): HP 8, AC 70, damage 1-3, BC 5, DR 0, XP 12" in book.embed.description
    assert "**wolf** (this server): HP 99" in book.embed.description
    (imp,) = await h.run("andor bestiary", h.alice, name="imp")
    assert imp.field("Critical") == "10% x1.5"
    # AC 60 vs BC 5 hits 53% for 1; AC 70 vs BC 9 hits 58% for 1-3, critical x1.5 for 1-4:
    # 0.58 x (0.9 x 2 + 0.1 x (1 + 3 + 4) / 3) = 1.20 per attack
    assert imp.field("Per attack") == (
        "You: 53% to hit Imp for 1, on average 0.53 per attack; 4 AP an attack\n"
        "Imp: 58% to hit you for 1-3 (10% of hits critical, for 1-4), on average 1.20 per attack; 2 attacks a turn"
    )
    choices = await h.autocomplete("andor fight", "monster", "im", h.alice)
    assert choices == [{"name": "Imp (HP 8, XP 12)", "value": "Imp"}]
    (fight,) = await h.run("andor fight", h.alice, monster="WOLF", seed=2)
    assert fight.embed.fields[0].value == "██████████ 99/99"

    (bad,) = await h.run(
        "andor monsters upload", h.gm, csv=("bad.csv", f"{MONSTER_HEADER}\nOgre,x,10,5,70,1,3,5,12\n".encode())
    )
    assert bad.content == "❌ bad.csv, row 2, column 'hp': 'x' is not a number"
    (removed,) = await h.run("andor monsters remove", h.gm, name="Wolf")
    assert removed.content == "✅ Removed wolf. The built-in Wolf is back in the bestiary."  # as uploaded
    (wolf,) = await h.run("andor bestiary", h.alice, name="wolf")
    assert wolf.embed.description.startswith("**Wolf**: HP 30")
    rows = await h.bot.db.fetch_all("SELECT guild_id, name_key FROM guild_uploads WHERE kind = 'monster'")
    assert [tuple(r) for r in rows] == [(GUILD_ID, "imp")]


async def test_a_gm_upload_past_the_server_limit_saves_nothing(harness, monkeypatch):
    h = harness
    monkeypatch.setattr(h.bot.get_cog("Andor").monsters_roster, "limit", 2)
    (done,) = await h.run(
        "andor monsters upload", h.gm, csv=("a.csv", f"{MONSTER_HEADER}\nImp,8,10,5,70,1,3,5,12\n".encode())
    )
    assert done.embed.title == "Bestiary updated: 1 monster saved (1 of this server's own)"
    two_more = f"{MONSTER_HEADER}\nOgre,30,10,5,70,1,3,5,12\nTroll,30,10,5,70,1,3,5,12\n".encode()
    (refusal,) = await h.run("andor monsters upload", h.gm, csv=("b.csv", two_more))
    assert refusal.ephemeral and refusal.content == (
        "❌ With b.csv this server would have 3 uploaded monsters; the limit is 2. "
        "Nothing was saved; remove some with `/andor monsters remove` first."
    )
    rows = await h.bot.db.fetch_all("SELECT name_key FROM guild_uploads WHERE kind = 'monster'")
    assert [r["name_key"] for r in rows] == ["imp"]
    (missing,) = await h.run("andor monsters remove", h.gm, name="Ogre")
    assert missing.content == "❌ This server has no uploaded monster called 'Ogre'; built-in monsters stay."


async def test_unknown_monsters_are_refused_with_a_hint(harness):
    (reply,) = await harness.run("andor fight", harness.alice, monster="wolff")
    assert reply.ephemeral and reply.content == (
        "❌ There is no monster called 'wolff' in this server's bestiary. Did you mean Wolf? `/andor bestiary` lists them."
    )


async def test_simulate_shows_the_odds_and_a_chart(harness, monkeypatch):
    h = harness
    monkeypatch.setattr("rules.andor.simulate.PROGRESS_EVERY", 1_000)  # attacks between two progress reports
    await h.run("andor character set", h.alice, attack_chance=120, damage_min=3, damage_max=9, hp_bonus=20)
    replies = await h.run("andor simulate", h.alice, monster="Wolf", count=2, fights=2000, seed=4)
    result = replies[-1]
    assert result.embed.title == "🎲 Alice vs Wolf ×2"
    # each figure once: what was played in the description, the odds in the fields, the seed in the footer
    assert result.embed.description == "Wolf x2: 2,000 fights, player max HP 45"
    fields = {f.name: f.value for f in result.embed.fields}
    assert list(fields) == ["Win rate", "Lost", "Drawn", "Mean rounds", "Mean HP left (won)", "Per attack"]
    won = int(fields["Win rate"].split("(")[1].split(" won")[0].replace(",", ""))
    lost = int(fields["Lost"].split("(")[1].rstrip(")").replace(",", ""))
    assert 0 < won < 2000 and won + lost + int(fields["Drawn"]) == 2000
    assert fields["Win rate"] == f"{100 * won / 2000:.2f}% ({won:,} won)"
    for figure in (fields["Win rate"].split()[0], fields["Mean rounds"], fields["Mean HP left (won)"]):
        assert figure not in result.embed.description
    assert result.files["hp-left.png"].startswith(b"\x89PNG")
    assert result.embed.image.url == "attachment://hp-left.png"
    assert result.embed.footer.text.startswith("seed 4")
    # AC 120 vs BC 30 hits 75% for 3-9 (mean 6); the wolf hits 78% for 3-6 (mean 4.5), twice a turn
    assert result.field("Per attack") == (
        "You: 75% to hit Wolf for 3-9, on average 4.50 per attack; 4 AP an attack\n"
        "Wolf: 78% to hit you for 3-6, on average 3.51 per attack; 2 attacks a turn"
    )
    assert len(replies) == 1 and not result.ephemeral  # the deferred reply became the result
    shown = [r.payload["embeds"][0] for r in h.fake.requests if r.method == "PATCH" and (r.payload or {}).get("embeds")]
    assert shown[0]["title"] == "🎲 Alice vs Wolf ×2" and shown[0]["description"].endswith("\n2,000 fights · seed 4")
    assert "%" in shown[0]["description"]  # the progress bar
    (again,) = (await h.run("andor simulate", h.alice, monster="Wolf", count=2, fights=2000, seed=4))[-1:]
    assert again.field("Win rate") == result.field("Win rate")


async def test_simulate_shows_an_uploaded_name_as_written_and_counts_one_fight_as_one(harness):
    h = harness
    await h.run(
        "andor monsters upload", h.gm, csv=("m.csv", f"{MONSTER_HEADER}\n*Grim* _Rat_,8,10,5,70,1,3,5,12\n".encode())
    )
    (result,) = (await h.run("andor simulate", h.alice, monster="*Grim* _Rat_", fights=1, seed=1))[-1:]
    assert result.embed.description == r"\*Grim\* \_Rat\_ x1: 1 fight, player max HP 25"


async def test_every_command_and_option_has_help(harness):
    group = harness.bot.tree.get_command("andor")
    for command in group.walk_commands():
        assert command.description and command.description != "…", command.qualified_name
        for param in getattr(command, "parameters", []):
            assert param.description and param.description != "…", f"{command.qualified_name} {param.name}"


async def test_counts_of_one_read_as_one(harness):
    (rat,) = await harness.run("andor bestiary", harness.alice, name="Tiny rat")
    assert rat.field("AP / attack cost") == "10 / 9 (1 attack a turn)"
    assert rat.field("Per attack").endswith("1 attack a turn")


async def test_names_from_an_uploaded_bestiary_are_shown_as_written(harness):
    h = harness
    upload = f"{MONSTER_HEADER}\n*Grim* _Rat_,8,10,5,70,1,3,5,12\n".encode()
    await h.run("andor monsters upload", h.gm, csv=("m.csv", upload))
    (fight,) = await h.run("andor fight", h.alice, monster="*Grim* _Rat_", count=2, seed=3)
    assert fight.embed.title == "⚔️ Alice vs \\*Grim\\* \\_Rat\\_ ×2"
    assert [f.name for f in fight.embed.fields] == ["🎯 \\*Grim\\* \\_Rat\\_ 1", "\\*Grim\\* \\_Rat\\_ 2"]
    await play(h, fight, h.alice, "Attack")
    feed = fight.embed.description.split("**Latest**\n")[1]
    assert "You → \\*Grim\\* \\_Rat\\_ 1: " in feed or "\\*Grim\\* \\_Rat\\_ 1 → You: " in feed
    assert "*Grim* _Rat_" not in feed


# --- fights worth winning (RULINGS 6) -------------------------------------------------------------------


async def test_the_monsters_can_take_the_first_turn_and_aggressive_ones_always_do(harness):
    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Tiny rat", seed=4, monsters_first=True)
    feed = fight.description.split("**Latest**\n")[1].splitlines()
    assert feed[0] == "The monsters' turn" and feed[1].startswith("Tiny rat → You: ")
    assert feed[-1] == "Round 1: your turn, 10 AP"
    await play(h, fight, h.alice, "Attack")
    upload = f"{MONSTER_HEADER},aggressive\nAmbusher,8,10,5,70,1,1,5,12,Y\n".encode()
    await h.run("andor monsters upload", h.gm, csv=("m.csv", upload))
    (ambush,) = await h.run("andor fight", h.alice, monster="Ambusher", seed=4)
    assert ambush.description.split("**Latest**\n")[1].startswith("The monsters' turn\n")


async def test_a_fight_the_opening_turn_ends_is_stored_ended_and_settled_at_once_or_not_at_all(harness, monkeypatch):
    from storage.andor import AndorRepository

    h = harness
    upload = f"{MONSTER_HEADER},aggressive\nAmbusher,500,10,1,1000,100,100,0,5,Y\n".encode()  # kills at once
    await h.run("andor monsters upload", h.gm, csv=("m.csv", upload))

    async def broken(*args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(AndorRepository, "put_character", broken)
    (failed,) = await h.run("andor fight", h.alice, monster="Ambusher", seed=1)
    assert failed.ephemeral and "Something went wrong on our side" in failed.content
    assert await h.bot.db.fetch_all("SELECT * FROM andor_fights") == []  # nothing half-stored to get stuck behind
    monkeypatch.undo()
    (lost,) = await h.run("andor fight", h.alice, monster="Ambusher", seed=1)
    assert "Defeat" in lost.description and not lost.components
    row = await fight_row(h, h.alice)
    assert (row["status"], row["xp_change"]) == (FightStatus.LOST, 0)
    (again,) = await h.run("andor fight", h.alice, monster="Tiny rat", seed=1)
    assert again.components  # a new fight: the lost one is over


async def test_kills_give_xp_and_gold_at_once_and_a_flight_keeps_them(harness):
    h = harness
    strong = {"attack_chance": 1000, "damage_min": 5, "damage_max": 5, "ap": 8, "attack_cost": 4, "hp_bonus": 500}
    await h.run("andor character set", h.alice, **strong)
    (fight,) = await h.run("andor fight", h.alice, monster="Tiny rat", count=2, seed=6)
    assert await h.click(fight, "Attack Tiny rat 1", h.alice) == []  # a sure hit for 5: rat 1 falls
    kill = next(line for line in fight.description.splitlines() if "**killed**" in line)
    gold = int(kill.split("+3 XP, +")[1].split(" gold")[0])
    assert 0 <= gold <= 1  # a Tiny rat drops 0 to floor(3 / 2)
    # the last 4 AP: flee (1 AP, 80%); a failed flee ends the turn, so flee until away
    while fight.components:
        assert await h.click(fight, "Flee (80%)", h.alice) == []
    assert fight.description.startswith(
        f"🏃 **You got away.** You keep what your kills gave: +3 XP, +{gold} gold piece{'s' if gold != 1 else ''}"
    )
    character = await stored_character(h, h.alice)
    assert (character.xp, character.gold) == (3, gold)
    assert (await fight_row(h, h.alice))["xp_change"] == 3


async def test_a_potion_drunk_in_a_fight_is_spent_however_the_fight_ends(harness):
    h = harness
    await h.run("andor character set", h.alice, hp_bonus=100, potions=3)
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    assert await h.click(fight, "End turn", h.alice) == []  # the wolf's turn: hurt, so a potion can be drunk
    assert await h.click(fight, "Potion (3)", h.alice) == []
    assert "🧪 2 potions (+20 HP for 5 AP, when hurt)" in fight.description
    while fight.components:  # then away: a flight gains nothing, but the potion is gone all the same (RULINGS 7)
        assert await h.click(fight, "Flee (80%)", h.alice) == []
    assert fight.description.splitlines()[:2] == [
        "🏃 **You got away.**",
        "🧪 1 potion drunk, and spent: buy more in /andor shop.",
    ]
    assert (await stored_character(h, h.alice)).potions == 2
    (shown,) = await h.run("andor character show", h.alice)
    assert shown.field("Potions").startswith("2, heal 20 HP each")
    assert shown.embed.footer.text.endswith("Every fight starts at full HP; a potion drunk in it is spent.")
    (next_fight,) = await h.run("andor fight", h.alice, monster="Tiny rat", seed=2)
    assert "Potion (2)" in labels(next_fight)
    await h.run("andor character set", h.alice, potions=9)  # it mirrors the game's character
    assert (await stored_character(h, h.alice)).potions == 9


async def test_gold_buys_potions_and_a_purse_too_light_is_refused_with_the_price(harness):
    h = harness
    (refusal,) = await h.run("andor shop", h.alice, potions=2)
    assert refusal.ephemeral and refusal.content == "❌ 2 potions cost 20 gold (10 each); you have 0."
    async with h.bot.db.transaction() as conn:  # 25 gold, as if from earlier kills
        character = Character(gold=25)
        await conn.execute(
            "INSERT INTO andor_characters (guild_id, user_id, character_json) VALUES (?, ?, ?)",
            (GUILD_ID, h.alice.id, character.model_dump_json()),
        )
    (bought,) = await h.run("andor shop", h.alice, potions=2)
    assert bought.embed.title == "✅ Bought 2 potions for 20 gold"
    assert bought.field("Gold") == "5 (a potion costs 10 in /andor shop)"
    assert bought.field("Potions").startswith("4, heal 20 HP each")
    await h.restart()
    stored = await stored_character(h, h.alice)
    assert (stored.gold, stored.potions) == (5, 4)
    (refusal,) = await h.run("andor shop", h.alice, potions=1)
    assert refusal.content == "❌ 1 potion costs 10 gold (10 each); you have 5."
    await h.run("andor character set", h.alice, potions=99)
    await h.bot.get_cog("Andor").repo.update_character(
        GUILD_ID, h.alice.id, lambda c: c.model_copy(update={"gold": 99})
    )
    (full,) = await h.run("andor shop", h.alice, potions=1)
    assert full.content == "❌ You carry 99 potions and can carry at most 99; you have no room for more."


async def test_twenty_rounds_without_damage_end_the_fight_as_a_draw(harness):
    h = harness
    upload = f"{MONSTER_HEADER},damage_resistance\nStone golem,50,10,5,70,0,0,5,12,99\n".encode()
    await h.run("andor monsters upload", h.gm, csv=("m.csv", upload))
    (fight,) = await h.run("andor fight", h.alice, monster="Stone golem", seed=1)
    for _ in range(19):
        assert await h.click(fight, "End turn", h.alice) == []
    assert fight.components and "Round 20: your turn" in fight.description
    assert await h.click(fight, "End turn", h.alice) == []
    assert fight.components == []
    assert fight.description.startswith("🤝 **A draw:** 20 rounds without damage on either side.")
    row = await fight_row(h, h.alice)
    assert (row["status"], row["xp_change"]) == ("draw", 0)


async def test_a_fight_you_cannot_hurt_says_so_before_the_first_click_and_can_be_called_a_draw(harness):
    h = harness
    upload = f"{MONSTER_HEADER},damage_resistance\nStone golem,50,10,5,70,0,0,5,12,99\n".encode()
    await h.run("andor monsters upload", h.gm, csv=("m.csv", upload))
    (fight,) = await h.run("andor fight", h.alice, monster="Stone golem", count=2, seed=1)
    # your best hit of 1 against DR 99 is 0, and the golems hit for 0: only a draw (or a flight) can end it
    assert (
        "⚠️ You cannot hurt them: their damage resistance (99) takes all of your best hit. "
        "Nor can they hurt you: **Call it a draw** ends the fight now." in fight.description
    )
    assert labels(fight) == {
        "Choose whom to attack": False,
        "Attack Stone golem 1": False,
        "Potion (2)": True,
        "Flee (80%)": False,
        "Call it a draw": False,
        "End turn": False,
    }
    assert await h.click(fight, "Call it a draw", h.alice) == []  # one click, not 20 rounds of them
    assert fight.components == []
    assert fight.description.startswith("🤝 **A draw, called:** neither side can hurt the other.")
    assert "A draw, called: neither side can hurt the other" in fight.description.split("**Latest**\n")[1]
    row = await fight_row(h, h.alice)
    assert (row["status"], row["xp_change"]) == ("draw", 0)

    # a monster that can hurt you: the warning says to flee, and no draw is offered
    (queen,) = await h.run("andor fight", h.alice, monster="Queen lava entity", seed=1)
    assert (
        "⚠️ You cannot hurt it: its damage resistance (16) takes all of your best hit. **Flee** (80%) before you fall."
        in queen.description
    )
    assert "Call it a draw" not in labels(queen)
    await play(h, queen, h.alice, "End turn")
    (wolf,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)  # a monster you can hurt: no warning
    assert "⚠️" not in wolf.description and "Call it a draw" not in labels(wolf)


async def test_the_bestiary_gives_your_odds_and_says_when_you_cannot_hurt_a_monster(harness):
    h = harness
    (rat,) = await h.run("andor bestiary", h.alice, name="Tiny rat")
    odds = rat.field("Your odds against one")
    assert odds.startswith("won ") and "% of 1,000 fights, " in odds and "cannot hurt" not in odds
    assert rat.embed.footer.text.startswith("seed ") and "1,000 fights played by the AI" in rat.embed.footer.text
    seed = int(rat.embed.footer.text.split()[1])
    (again,) = await h.run("andor bestiary", h.alice, name="Tiny rat", seed=seed)  # the same fights
    assert again.field("Your odds against one") == odds and again.embed.footer.text == rat.embed.footer.text
    await h.run("andor character set", h.alice, damage_min=1, damage_max=2, crit_chance=0)
    (gargoyle,) = await h.run("andor bestiary", h.alice, name="Gargoyle")  # DR 2 against a best hit of 2
    assert gargoyle.field("Your odds against one").endswith(
        "⚠️ You cannot hurt it: its damage resistance (2) takes all of your best hit."
    )
    choices = await h.autocomplete("andor fight", "monster", "gargoyle", h.alice)
    assert choices[0]["name"].endswith(" — you cannot hurt it")
    choices = await h.autocomplete("andor fight", "monster", "tiny", h.alice)
    assert not choices[0]["name"].endswith("cannot hurt it")


async def test_a_move_saved_before_the_message_could_show_it_is_shown_at_the_next_click(harness):
    from rules.andor.engine import apply_in_place, replay_rng
    from rules.andor.models import Action
    from storage.andor import AndorRepository

    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=3)
    shown = copy.deepcopy(fight)
    # The process saves an attack, then dies before it edits the message.
    repo = AndorRepository(h.bot.db)
    stored = await repo.fight((await fight_row(h, h.alice))["id"])
    assert stored is not None
    apply_in_place(stored.state, Action.attack(0), replay_rng(stored.state))
    await repo.update_fight(stored, stored.state)
    await h.restart()
    (note,) = await h.click(shown, "Attack Wolf", h.alice)
    assert note.content.startswith("⌛ These buttons were from an earlier moment of this fight")
    assert "AP ██████░░░░ 6/10" in fight.embed.description  # the saved attack, now shown
    assert fight.component("Attack Wolf")["custom_id"].endswith(":1:attack")
    assert (await fight_row(h, h.alice))["version"] == 1  # the click played nothing


async def test_a_click_answered_after_discords_3_seconds_keeps_its_move_and_the_next_click_shows_it(
    harness, monkeypatch
):
    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=3)
    shown = copy.deepcopy(fight)
    cog_module = sys.modules["cogs.common.turns"]  # the driver of every move runs the engine
    run_engine = cog_module.run_engine

    async def stalled(*args, **kwargs):  # the attack takes 3.3 s on Discord's clock
        result = await run_engine(*args, **kwargs)
        clock = h.fake.clock
        h.fake.clock = lambda: clock() + 3.3
        return result

    monkeypatch.setattr(cog_module, "run_engine", stalled)
    assert await h.click(fight, "Attack Wolf", h.alice) == []  # Discord shows "This interaction failed"
    assert (await fight_row(h, h.alice))["version"] == 1  # the attack was saved all the same
    assert "AP ██████████ 10/10" in fight.embed.description  # the message is behind
    monkeypatch.setattr(cog_module, "run_engine", run_engine)
    h.fake.clock = time.monotonic
    (note,) = await h.click(shown, "Attack Wolf", h.alice)
    assert note.content.startswith("⌛ These buttons were from an earlier moment of this fight")
    assert "AP ██████░░░░ 6/10" in fight.embed.description and (await fight_row(h, h.alice))["version"] == 1


async def test_clicks_one_after_another_are_never_refused_while_others_flood_reads(harness):
    """Each click is sent once the previous one was answered, while 50 other tasks read the bot's database
    without a pause (as a server's read-only commands do): every click reads the move before it and plays. A
    read from an older snapshot would call the click out of date."""
    h = harness
    await h.run("andor character set", h.alice, hp_bonus=500)
    await h.run("andor character set", h.bob, hp_bonus=5)
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=3)
    stop = asyncio.Event()

    async def read_bobs_character() -> None:
        while not stop.is_set():
            await h.bot.db.fetch_one("SELECT * FROM andor_characters WHERE user_id = ?", (h.bob.id,))

    readers = [asyncio.create_task(read_bobs_character()) for _ in range(50)]
    try:
        for click in range(15):
            if (await fight_row(h, h.alice))["status"] != FightStatus.LIVE:
                break
            attack = labels(fight).get("Attack Wolf") is False
            replies = await h.click(fight, "Attack Wolf" if attack else "End turn", h.alice)
            assert [m.content for m in replies] == [], f"click {click}"
    finally:
        stop.set()
        await asyncio.gather(*readers)


async def test_a_click_replayed_in_another_server_is_refused_and_changes_nothing(harness):
    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Tiny rat", count=3, seed=7)
    before = await h.bot.db.fetch_one("SELECT * FROM andor_fights")
    elsewhere = {"guild_id": OTHER_GUILD_ID, "channel_id": OTHER_GUILD_CHANNEL_ID}
    for label, values in (("Attack Tiny rat 1", None), ("End turn", None), ("Choose whom to attack", ["2"])):
        (refusal,) = await h.click(fight, label, h.alice, values=values, **elsewhere)
        assert refusal.ephemeral
        assert refusal.content == "❌ This fight belongs to another server, so nothing was changed."
    assert dict(await h.bot.db.fetch_one("SELECT * FROM andor_fights")) == dict(before)
    # A fight is its member's wherever it is shown in its server: another channel of it acts.
    assert await h.click(fight, "Choose whom to attack", h.alice, values=["2"], channel_id=12345) == []
    assert (await fight_row(h, h.alice))["version"] == 1


async def test_a_damaged_saved_fight_is_the_bots_fault_with_an_error_id_and_one_log_line(harness, caplog):
    h = harness
    (fight,) = await h.run("andor fight", h.alice, monster="Wolf", seed=1)
    fight_id = (await fight_row(h, h.alice))["id"]
    async with h.bot.db.transaction() as conn:  # cut short, as a full disk might have left it
        await conn.execute("UPDATE andor_fights SET state_json = ? WHERE id = ?", ('{"version": 1, "pha', fight_id))
    caplog.clear()
    (reply,) = await h.click(fight, "Attack Wolf", h.alice)
    error_id = reply.content.split("`")[1]
    assert reply.ephemeral and reply.content == (
        f"⚠️ This Andor fight's saved state is damaged; the bot's operator has been told (error id `{error_id}`)."
    )
    (logged,) = [r for r in caplog.records if r.name == "arena.errors"]
    assert logged.getMessage().startswith(
        f"error {error_id}: saved Andor fight {fight_id} is damaged (JSONDecodeError: "
    )
    assert logged.exc_info is None
