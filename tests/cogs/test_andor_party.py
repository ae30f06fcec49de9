"""/andor party through the real dispatch: the sign-up, the fight turn by turn, the clock, a restart, removals."""

from __future__ import annotations

import asyncio
import re

from offline_discord.harness import GUILD_ID, User
from rules.andor.models import Character
from storage.andor_party import PARTY_STATE

CID = User(1200000000000000031, "Cid")
STRANGER = User(1200000000000000032, "Stranger")


async def stored_character(h, user) -> Character:
    row = await h.bot.db.fetch_one("SELECT character_json FROM andor_characters WHERE user_id = ?", (user.id,))
    assert row is not None, "no character stored"
    return Character.model_validate_json(row["character_json"])


async def party_row(h):
    return await h.bot.db.fetch_one("SELECT * FROM andor_parties ORDER BY id DESC")


def labels(message):
    return {c.get("label") or c.get("placeholder"): c.get("disabled", False) for c in message.components}


def whose_turn(message, users) -> User:
    (user_id,) = re.findall(r"▶️ <@(\d+)>", message.embed.description)
    return next(u for u in users if u.id == int(user_id))


def pings(h, replies):
    """The calls among `replies`: each mentions the member whose turn begins, and only them."""
    calls = [r for r in replies if not r.ephemeral and "your turn" in r.content]
    for call in calls:
        request = next(q for q in h.fake.requests if q.payload and q.payload.get("content") == call.content)
        assert request.payload["allowed_mentions"] == {"parse": [], "users": [int(call.content[2:21])]}
    return [call.content.split(",")[0] for call in calls]


async def open_worked_example(h):
    """The party of docs/rules/andor.md's worked example: Alice, Bob and Cid against two Wolves, seed 59."""
    await h.run("andor character set", h.alice, attack_chance=150, damage_min=6, damage_max=10)
    await h.run("andor character set", h.bob, attack_chance=120, damage_min=4, damage_max=8)
    await h.run("andor character set", CID, attack_chance=90, damage_min=2, damage_max=4, potions=0, base_hp=3)
    (signup,) = await h.run("andor party", h.alice, monster="Wolf", count=2, seed=59)
    return signup


async def test_three_members_open_join_and_win_with_the_rewards_shared(harness):
    h = harness
    signup = await open_worked_example(h)
    assert signup.embed.title == "⚔️ Party vs Wolf ×2"
    assert signup.field("Members (1/4)") == f"1. {h.alice.mention}"
    assert labels(signup) == {"Join": False, "Leave": False, "Start": True}
    assert await h.click(signup, "Join", h.bob) == []
    (refused,) = await h.click(signup, "Start", h.bob)
    assert refused.ephemeral and refused.content == f"❌ Only {h.alice.mention}, who opened this party, can start it."
    assert await h.click(signup, "Join", CID) == []
    assert signup.field("Members (3/4)") == f"1. {h.alice.mention}\n2. {h.bob.mention}\n3. {CID.mention}"
    (elsewhere,) = await h.run("andor fight", h.bob, monster="Wolf")
    assert elsewhere.ephemeral and elsewhere.content.startswith("❌ You are already in a party fight: https://discord")

    calls = pings(h, await h.click(signup, "Start", h.alice))
    assert calls == [h.alice.mention]
    description = signup.embed.description
    assert description.splitlines()[0] == f"▶️ {h.alice.mention} HP ██████████ 25/25 · AP 10/10 · 🧪 2"
    assert f"{CID.mention} HP ██████████ 8/8 · AP 10/10 · 🧪 0" in description
    assert "**Alice's turn**, ends <t:" in description
    assert labels(signup) == {
        "Choose whom to attack": False,
        "Attack Wolf 1": False,
        "Potion (2)": True,
        "Flee (80%)": False,
        "End turn": False,
    }
    (refused,) = await h.click(signup, "Attack Wolf 1", h.bob)
    assert refused.ephemeral and refused.content == f"❌ It is {h.alice.mention}'s turn; wait for yours."
    (refused,) = await h.click(signup, "End turn", STRANGER)
    assert refused.content.startswith(f"❌ It is {h.alice.mention}'s turn, and you are not in this party fight")

    members = (h.alice, h.bob, CID)
    for _ in range(30):
        if not signup.components:
            break
        user = whose_turn(signup, members)
        button = next((label for label, off in labels(signup).items() if label.startswith("Attack") and not off), None)
        calls += pings(h, await h.click(signup, button or "End turn", user))
    assert calls == [m.mention for m in (h.alice, h.bob, CID, h.alice, h.bob)]
    description = signup.embed.description
    assert description.startswith("🏆 **Victory for the party!**")
    assert f"{h.alice.mention} HP ██████████ 25/25 · +40 XP, +12 gold pieces" in description
    assert f"{h.bob.mention} HP ██████████ 25/25 · +42 XP, +15 gold pieces" in description
    # Cid was knocked out: his share of 16 XP less 30% (4), and his 7 gold
    assert f"{CID.mention} HP ░░░░░░░░░░ 0/8 · 💀 knocked out · +12 XP, +7 gold pieces" in description
    assert "Wolf 2 gave 49 XP and 11 gold pieces: Alice +24 XP +5g, Bob +25 XP +6g" in description
    assert [(c.xp, c.gold) for c in [await stored_character(h, u) for u in members]] == [(40, 12), (42, 15), (12, 7)]
    assert (await party_row(h))["status"] == "won"
    (solo,) = await h.run("andor fight", h.bob, monster="Tiny rat")  # free again
    assert solo.embed.title == "⚔️ Bob vs Tiny rat"
    (profile,) = await h.run("arena profile", h.alice)
    assert profile.field("🗺️ Andor's Trail").endswith("**1** party fight: the party won 1")
    (data,) = await h.run("arena my-data", CID)
    assert "- Andor party fights: **1**" in data.content


async def test_an_idle_members_turn_passes_on_the_clock_and_the_third_removes_them(harness):
    h = harness
    await h.run("arena-settings", h.gm, party_turn_seconds=15)
    cog = h.bot.get_cog("Andor")
    shots: list[float] = []
    delays: list[float] = []

    def delay(seconds: float) -> float:
        delays.append(seconds)
        return shots.pop() if shots else 3600

    cog.party_clock.delay = delay
    (signup,) = await h.run("andor party", h.alice, monster="Tiny rat", seed=5)
    assert delays[-1] > 590  # the sign-up's 10 minutes
    await h.click(signup, "Join", h.bob)

    async def alice_times_out(press):
        shots.append(0.05)  # Alice's coming turn runs out at once
        replies = await press()
        await asyncio.sleep(0.3)
        await h.settle()
        return replies

    await alice_times_out(lambda: h.click(signup, "Start", h.alice))
    assert 14 < delays[-2] <= 15  # the server's 15 s
    assert "Alice's time ran out (1 of 3 in a row)" in signup.embed.description
    assert whose_turn(signup, (h.alice, h.bob)) == h.bob
    for count in (2, 3):
        await alice_times_out(lambda: h.click(signup, "End turn", h.bob))
        assert f"Alice's time ran out ({count} of 3 in a row)" in signup.embed.description
    assert "Alice leaves the fight (3 turns ran out in a row)" in signup.embed.description
    assert f"{h.alice.mention} HP ██████████ 25/25 · 🚪 left · +0 XP" in signup.embed.description
    assert whose_turn(signup, (h.alice, h.bob)) == h.bob
    row = await party_row(h)
    state = PARTY_STATE.from_text(row["state_json"])
    assert [a.kind for a in state.actions] == ["timeout", "end_turn", "timeout", "end_turn", "timeout"]
    assert (await h.bot.db.fetch_one("SELECT in_fight FROM andor_party_members WHERE user_id = ?", (h.alice.id,)))[
        "in_fight"
    ] == 0
    (solo,) = await h.run("andor fight", h.alice, monster="Tiny rat")  # out of the party: free to fight alone
    assert solo.embed.title == "⚔️ Alice vs Tiny rat"


async def test_a_restart_mid_fight_resumes_it_and_runs_out_a_turn_that_ran_out_meanwhile(harness):
    h = harness
    signup = await open_worked_example(h)
    await h.click(signup, "Join", h.bob)
    await h.click(signup, "Join", CID)
    await h.click(signup, "Start", h.alice)
    await h.click(signup, "Attack Wolf 1", h.alice)
    await h.restart()
    assert await h.click(signup, "Attack Wolf 1", h.alice) == []  # the buttons work after the restart
    assert labels(signup)["Attack Wolf 1"] is True  # 2 AP left: too few to attack, enough to flee
    await h.click(signup, "End turn", h.alice)
    assert whose_turn(signup, (h.alice, h.bob, CID)) == h.bob

    # Bob's turn runs out while the bot is down: it runs out as the bot comes back.
    async with h.bot.db.transaction() as conn:
        await conn.execute("UPDATE andor_parties SET deadline = '2020-01-01T00:00:00.000Z'")
    await h.restart()
    await asyncio.sleep(0.2)
    await h.settle()
    assert "Bob's time ran out (1 of 3 in a row)" in signup.embed.description
    assert whose_turn(signup, (h.alice, h.bob, CID)) == CID


async def test_a_game_master_removes_a_member_and_one_who_left_the_server_goes_at_their_turn(harness):
    h = harness
    signup = await open_worked_example(h)
    await h.click(signup, "Join", h.bob)
    await h.click(signup, "Join", CID)
    (refused,) = await h.run("andor party-remove", h.alice, member=h.bob)
    assert refused.content.startswith("❌ Only a game master")
    await h.click(signup, "Start", h.alice)
    (done,) = await h.run("andor party-remove", h.gm, member=h.bob)
    assert done.ephemeral and done.content == f"✅ {h.bob.mention} is out of the party fight."
    assert "Bob leaves the fight (removed by a game master)" in signup.embed.description
    h.fake.departed.add((GUILD_ID, CID.id))  # Cid left the server: removed as his turn begins
    await h.click(signup, "End turn", h.alice)
    assert "Cid leaves the fight (left the server)" in signup.embed.description
    assert whose_turn(signup, (h.alice, h.bob, CID)) == h.alice


async def test_a_sign_up_short_of_members_lapses_after_10_minutes(harness):
    h = harness
    cog = h.bot.get_cog("Andor")
    delays: list[float] = []
    cog.party_clock.delay = lambda seconds: delays.append(seconds) or 0.05
    (signup,) = await h.run("andor party", h.alice, monster="Wolf")
    assert 599 < delays[-1] <= 600
    await asyncio.sleep(0.3)
    await h.settle()
    assert signup.embed.description == "⌛ **The sign-up closed** without a fight."
    assert signup.components == []
    assert (await party_row(h))["status"] == "lapsed"
    (solo,) = await h.run("andor fight", h.alice, monster="Tiny rat")  # free again
    assert solo.embed.title == "⚔️ Alice vs Tiny rat"


async def test_a_deleted_channel_ends_the_party_fight_as_fled(harness):
    h = harness
    signup = await open_worked_example(h)
    await h.click(signup, "Join", h.bob)
    await h.click(signup, "Start", h.alice)
    await h.click(signup, "Attack Wolf 1", h.alice)
    cog = h.bot.get_cog("Andor")
    assert list(cog.party_clock.timers) == [(await party_row(h))["id"]]
    h.delete_channel(signup.channel_id)
    await asyncio.sleep(0)
    await h.settle()
    assert (await party_row(h))["status"] == "fled"
    assert cog.party_clock.timers == {}
    rows = await h.bot.db.fetch_all("SELECT in_fight, xp_change FROM andor_party_members ORDER BY position")
    assert [tuple(r) for r in rows] == [(0, 0), (0, 0)]  # fled: nothing gained, nothing lost


async def test_the_odds_of_a_party(harness):
    h = harness
    await h.run("andor character set", h.alice, attack_chance=150, damage_min=6, damage_max=10)
    (odds,) = await h.run(
        "andor simulate",
        h.alice,
        monster="Wolf",
        count=2,
        fights=500,
        seed=3,
        members=f"{h.alice.mention} {CID.mention}",
    )
    assert odds.embed.title == "🎲 Party of 2 vs Wolf ×2"
    assert odds.field("Win rate").endswith("won)") and odds.field("Mean rounds")
    knocked = odds.field("Knocked out").splitlines()
    assert [line.split(":")[0] for line in knocked] == [h.alice.mention, CID.mention]
    assert odds.embed.footer.text.startswith("seed 3 · ")
    (again,) = await h.run(
        "andor simulate",
        h.alice,
        monster="Wolf",
        count=2,
        fights=500,
        seed=3,
        members=f"{h.alice.mention} {CID.mention}",
    )
    assert again.embed.fields == odds.embed.fields  # replayed from its seed
    (refused,) = await h.run("andor simulate", h.alice, monster="Wolf", members=h.alice.mention)
    assert refused.ephemeral and refused.content.startswith("❌ Name 2 to 4 members as mentions")
