"""The harness refuses what Discord would refuse, so a test that passes here means the real bot works."""

import asyncio

import discord
import pytest
from discord import app_commands
from discord.http import Route

from arena.text import markdown_safe
from offline_discord.fake_discord import HOSTILE_NAMES
from offline_discord.harness import CHANNEL_ID, GUILD_ID, User


def add_command(harness, name: str, callback, **describe) -> None:
    command = app_commands.Command(name=name, description="a test command", callback=callback)
    harness.bot.tree.add_command(command)


async def test_a_message_over_discords_limits_is_refused_and_fails_the_test(harness):
    async def too_long(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(embed=discord.Embed(description="x" * 4097))

    add_command(harness, "too-long", too_long)
    with pytest.raises(AssertionError, match="embed description is 4097 characters; the limit is 4096"):
        await harness.run("too-long")
    # The bot itself saw Discord's 400 and answered with an error id.
    (reply,) = [m for m in harness.messages if m.ephemeral]
    assert reply.content.startswith("⚠️ Something went wrong on our side (error id `")


@pytest.mark.parametrize(
    "message, problem",
    [
        ({"content": "x" * 2001}, "content is 2001 characters"),
        ({"embeds": [discord.Embed(title="t").add_field(name="n", value="v" * 1025)]}, r"1024 \(value\)"),
        (
            {"embeds": [discord.Embed(description="d" * 4000), discord.Embed(description="d" * 2001)]},
            "the embeds hold 6001 characters",
        ),
    ],
)
async def test_each_limit_is_checked(harness, message, problem):
    async def send(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(**message)

    add_command(harness, "send", send)
    with pytest.raises(AssertionError, match=problem):
        await harness.run("send")


async def test_buttons_are_checked(harness):
    async def buttons(interaction: discord.Interaction) -> None:
        view = discord.ui.View()
        view.add_item(discord.ui.Button(label="a", custom_id="game:1:same"))
        view.add_item(discord.ui.Button(label="b", custom_id="game:1:same"))
        view.add_item(discord.ui.Button(label="c", custom_id="x" * 101))
        await interaction.response.send_message("buttons", view=view)

    add_command(harness, "buttons", buttons)
    with pytest.raises(AssertionError, match="custom_id 'game:1:same' is used twice in one message"):
        await harness.run("buttons")


async def test_first_followup_after_a_public_defer_is_public_whatever_it_asks(harness):
    async def leaky(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("a secret", ephemeral=True)

    add_command(harness, "leaky", leaky)
    with pytest.raises(AssertionError, match="after a publicly deferred response asks to be ephemeral"):
        await harness.run("leaky")
    (shown,) = [m for m in harness.messages if m.content == "a secret"]
    assert not shown.ephemeral


async def test_followups_after_the_first_keep_their_own_visibility(harness):
    async def fine(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("for all")
        await interaction.followup.send("for you", ephemeral=True)

    add_command(harness, "fine", fine)
    messages = await harness.run("fine")
    assert [(m.content, m.ephemeral) for m in messages if m.content] == [("for all", False), ("for you", True)]


async def test_an_interaction_left_unanswered_fails_the_test(harness):
    async def silent(interaction: discord.Interaction) -> None:
        pass

    add_command(harness, "silent", silent)
    with pytest.raises(AssertionError, match="never answered"):
        await harness.run("silent")


async def test_a_second_response_is_refused(harness):
    async def twice(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("one")
        interaction.response._response_type = None  # get past discord.py's own guard, as a second handler would
        await interaction.response.send_message("two")

    add_command(harness, "twice", twice)
    with pytest.raises(AssertionError, match="already been acknowledged"):
        await harness.run("twice")


async def test_autocomplete_answers_are_checked(harness):
    async def pick(interaction: discord.Interaction, thing: str) -> None:
        await interaction.response.send_message(thing)

    async def too_many(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=f"thing {i}", value=str(i)) for i in range(26)]

    command = app_commands.Command(name="pick", description="a test command", callback=pick)
    command.autocomplete("thing")(too_many)
    harness.bot.tree.add_command(command)
    with pytest.raises(AssertionError, match="26 autocomplete choices; the limit is 25"):
        await harness.autocomplete("pick", "thing", "")


async def test_ephemeral_messages_are_not_reachable_through_the_channel(harness):
    async def private(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("only you", ephemeral=True)

    add_command(harness, "private", private)
    (message,) = await harness.run("private")
    channel = harness.bot.get_partial_messageable(CHANNEL_ID)
    with pytest.raises(discord.NotFound):
        await channel.get_partial_message(message.id).edit(content="changed")


async def test_a_deferred_placeholder_is_thinking_until_answered(harness):
    seen = {}

    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True, ephemeral=True)
        seen["before"] = (await interaction.original_response()).flags.loading
        await interaction.edit_original_response(content="done")
        interaction._original_response = None
        seen["after"] = (await interaction.original_response()).flags.loading

    add_command(harness, "slow", slow)
    (message,) = await harness.run("slow")
    assert seen == {"before": True, "after": False}
    assert message.ephemeral and message.content == "done"


async def test_the_harness_waits_for_tasks_not_timers(harness):
    # A bot timer (like the unanswered-interaction deadline) must not hold a test up.
    fired = []
    timer = asyncio.get_running_loop().call_later(60, fired.append, "timer")
    await harness.settle()
    assert fired == [] and not timer.cancelled()  # settle returned long before the timer was due
    timer.cancel()


async def test_a_held_call_left_unreleased_fails_the_test(monkeypatch):
    from types import SimpleNamespace

    from offline_discord.harness import HeldCall

    engine = SimpleNamespace(__name__="engine", work=lambda: "done")
    held = HeldCall(monkeypatch, engine, "work")
    work = asyncio.ensure_future(asyncio.to_thread(engine.work))
    await held.entered()
    # What the conftest's autouse fixture runs after every cog test: the forgotten call fails it...
    with pytest.raises(AssertionError, match=r"the test never released engine\.work: call release\(\) in a finally"):
        HeldCall.check_all_released()
    # ...and is let go at once, not after HOLD_LIMIT.
    assert await asyncio.wait_for(work, timeout=1) == "done"
    HeldCall.check_all_released()  # checked once: nothing is left for the fixture


async def test_a_call_held_past_the_limit_raises_instead_of_running_late(monkeypatch):
    from types import SimpleNamespace

    from offline_discord import harness as harness_module
    from offline_discord.harness import HeldCall

    monkeypatch.setattr(harness_module, "HOLD_LIMIT", 0.05)
    engine = SimpleNamespace(__name__="engine", work=lambda: "done")
    held = HeldCall(monkeypatch, engine, "work")
    with pytest.raises(AssertionError, match=r"engine\.work was held 0\.05 s and never released"):
        await asyncio.to_thread(engine.work)
    held.release()


async def test_a_body_discords_api_description_refuses_fails_the_test(harness):
    async def wrong_types(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("posting")
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=interaction.channel_id)
        await interaction.client.http.request(route, json={"content": 5, "embeds": [{"title": 3}]})

    add_command(harness, "wrong-types", wrong_types)
    with pytest.raises(AssertionError, match=r"content: 5 is not of type 'string'.*embeds/0/title: 3 is not of type"):
        await harness.run("wrong-types")


async def test_the_bot_may_post_where_its_permissions_allow_and_discord_refuses_elsewhere(harness):
    """The bot's permissions come from the server's roles and the channel's overwrites (a thread's from its
    channel): app_permissions says them, and a post they do not allow is Discord's 403 50013."""
    seen: list[discord.Permissions] = []
    outcomes: list[str] = []

    async def post_here(interaction: discord.Interaction) -> None:
        seen.append(interaction.app_permissions)
        await interaction.response.send_message("trying", ephemeral=True)
        channel = interaction.client.get_partial_messageable(interaction.channel_id or 0, guild_id=GUILD_ID)
        try:
            await channel.send("a message of the bot's own")
            outcomes.append("posted")
        except discord.Forbidden as refused:
            outcomes.append(f"{refused.status} {refused.code}")

    add_command(harness, "post-here", post_here)
    thread = harness.fake.thread(CHANNEL_ID)
    await harness.run("post-here")
    await harness.run("post-here", channel_id=thread.id)
    harness.fake.overwrite(CHANNEL_ID, "bot", deny=discord.Permissions(send_messages=True))
    await harness.run("post-here")
    await harness.run("post-here", channel_id=thread.id)  # threads need Send Messages in Threads, not this
    harness.fake.overwrite(CHANNEL_ID, "everyone", deny=discord.Permissions(view_channel=True))
    await harness.run("post-here", channel_id=thread.id)  # the role alone grants nothing it may not see
    assert outcomes == ["posted", "posted", "403 50013", "posted", "403 50013"]
    assert [p.send_messages for p in seen] == [True, True, False, False, False]
    assert [p.send_messages_in_threads for p in seen] == [True, True, True, True, False]


async def test_a_message_is_found_only_in_its_own_channel(harness):
    (message,) = await harness.run("deck random", seed=7)
    other = harness.fake.channel(CHANNEL_ID + 1)
    with pytest.raises(discord.NotFound):
        await harness.bot.get_partial_messageable(other.id).fetch_message(message.id)
    fetched = await harness.bot.get_partial_messageable(CHANNEL_ID).fetch_message(message.id)
    assert fetched.id == message.id


async def test_servers_and_channels_come_and_go_as_gateway_events(harness):
    """The gateway's GUILD_CREATE, CHANNEL_DELETE, THREAD_DELETE and both kinds of GUILD_DELETE reach the bot
    through discord.py's own parsing, and a deleted channel is gone from the fake Discord's API too."""
    events: list[str] = []

    async def channel_deleted(channel: discord.abc.GuildChannel) -> None:
        events.append(f"channel {channel.id}")

    async def thread_deleted(payload: discord.RawThreadDeleteEvent) -> None:
        events.append(f"thread {payload.thread_id}")

    async def unavailable(guild: discord.Guild) -> None:
        events.append(f"unavailable {guild.id}")

    async def removed(guild: discord.Guild) -> None:
        events.append(f"removed {guild.id}")

    harness.bot.add_listener(channel_deleted, "on_guild_channel_delete")
    harness.bot.add_listener(thread_deleted, "on_raw_thread_delete")
    harness.bot.add_listener(unavailable, "on_guild_unavailable")
    harness.bot.add_listener(removed, "on_guild_remove")
    thread = harness.fake.thread(CHANNEL_ID)
    other = harness.fake.channel(CHANNEL_ID + 1, GUILD_ID)
    guild = harness.guild_create()
    assert {c.id for c in guild.channels} == {CHANNEL_ID, other.id} and [t.id for t in guild.threads] == [thread.id]
    harness.delete_channel(thread.id)
    harness.delete_channel(other.id)
    harness.guild_delete(unavailable=True)
    harness.guild_create()
    harness.guild_delete(unavailable=False)
    await asyncio.sleep(0)  # listeners run as tasks
    await harness.settle()
    assert events == [f"thread {thread.id}", f"channel {other.id}", f"unavailable {GUILD_ID}", f"removed {GUILD_ID}"]
    with pytest.raises(discord.NotFound):
        await harness.bot.get_partial_messageable(other.id).send("into a deleted channel")


async def test_a_channel_option_comes_as_discord_sends_it(harness):
    """A channel option's id in the option, the channel in `data.resolved.channels` (with the member's
    permissions there), and the bot's cached channel as the handler's argument."""
    seen: list[tuple[dict, discord.TextChannel, app_commands.AppCommandThread]] = []

    async def where(
        interaction: discord.Interaction, channel: discord.TextChannel, thread: app_commands.AppCommandThread
    ) -> None:
        seen.append((dict(interaction.data or {}), channel, thread))
        await interaction.response.send_message(f"{channel.name} and {thread.name} in {thread.parent_id}")

    add_command(harness, "where", where)
    other = harness.fake.channel(CHANNEL_ID + 1, GUILD_ID)
    thread = harness.fake.thread(CHANNEL_ID)
    (reply,) = await harness.run("where", harness.gm, channel=other.id, thread=thread.id)
    assert reply.content == f"arena and match thread in {CHANNEL_ID}"
    data, channel, _ = seen[0]
    assert channel is harness.bot.get_channel(other.id)  # known to the bot as the gateway told it
    assert [(o["name"], o["type"], o["value"]) for o in data["options"]] == [
        ("channel", 7, str(other.id)),
        ("thread", 7, str(thread.id)),
    ]
    assert data["resolved"]["channels"] == {
        str(other.id): {
            "id": str(other.id),
            "name": "arena",
            "type": 0,
            "guild_id": str(GUILD_ID),
            "parent_id": None,
            "permissions": str(harness.gm.permissions.value),
        },
        str(thread.id): {
            "id": str(thread.id),
            "name": "match thread",
            "type": 11,
            "guild_id": str(GUILD_ID),
            "parent_id": str(CHANNEL_ID),
            "permissions": str(harness.gm.permissions.value),
            "thread_metadata": thread.payload()["thread_metadata"],
            "owner_id": thread.payload()["owner_id"],
            "message_count": 0,
            "member_count": 1,
        },
    }


@pytest.mark.parametrize("name", HOSTILE_NAMES)
async def test_members_named_anything_play_and_are_shown_as_written(harness, name):
    """Names as members choose them reach every reply escaped, ping no one and break nothing."""
    member = User(1200000000000000077, name)
    (profile,) = await harness.run("arena profile", member)
    title = profile.embed.title or ""
    assert title.startswith("🏟️ ") and title.endswith(" in this server")
    shown = title.removeprefix("🏟️ ").removesuffix(" in this server")
    assert shown == markdown_safe(name) or markdown_safe(name).startswith(shown.removesuffix("…"))  # or clipped
    (challenge,) = await harness.run("mma challenge", member, opponent=harness.alice)
    assert not challenge.ephemeral and challenge.content.startswith(f"{member.mention} challenges")
    await harness.click(challenge, "Accept", harness.alice)
    (ask,) = await harness.click(challenge, "Concede", member)
    await harness.click(ask, "Yes, concede", member)
    (stats,) = await harness.run("mma stats", harness.bob, member=member)
    assert not stats.ephemeral and stats.files  # the chart, its title the name as written
    sent = [r.payload for r in harness.fake.requests if r.payload]
    assert all((p.get("data", p).get("allowed_mentions") or {}).get("parse", []) == [] for p in sent)
