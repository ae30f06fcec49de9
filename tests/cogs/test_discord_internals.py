"""discord.py's private parts Arena relies on (`arena/discord_internals.py`), checked through the real dispatch
of the installed discord.py: a version that changes one fails here, by name."""

import asyncio
from types import SimpleNamespace
from typing import Any, ClassVar, cast

import discord
from discord import app_commands, ui

from arena.discord_internals import dynamic_items, has_component_handler, interaction_handlers
from arena.watchdog import WatchedResponse


async def handlers_seen_from_elsewhere() -> list[asyncio.Task[Any]]:
    """The interaction handlers running, as a task other than the handler sees them (a shutdown, say)."""

    async def look() -> list[asyncio.Task[Any]]:
        return interaction_handlers()

    return await asyncio.create_task(look())


class Probe(ui.DynamicItem[ui.Button], template=r"probe:(?P<n>[0-9]+)"):
    seen: ClassVar[dict[str, Any]] = {}

    def __init__(self, n: int):
        super().__init__(ui.Button(label=f"Probe {n}", custom_id=f"probe:{n}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: ui.Item[Any], match: Any) -> "Probe":
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        Probe.seen.update(task=asyncio.current_task(), handlers=await handlers_seen_from_elsewhere())
        Probe.seen["handled"] = has_component_handler(interaction.client, interaction)
        await interaction.response.send_message("probed", ephemeral=True)


def add_command(harness, name: str, callback) -> None:
    harness.bot.tree.add_command(app_commands.Command(name=name, description="a test command", callback=callback))


async def test_a_commands_handler_answers_through_the_watched_response_in_a_task_a_shutdown_finds(harness):
    seen: dict[str, Any] = {}

    async def probe(interaction: discord.Interaction) -> None:
        seen.update(response=interaction.response, task=asyncio.current_task())
        seen["handlers"] = await handlers_seen_from_elsewhere()
        await interaction.response.send_message("done")

    add_command(harness, "probe", probe)
    (reply,) = await harness.run("probe")
    assert reply.content == "done"
    # Interaction._cs_response: the handler's response is the watchdog's.
    assert isinstance(seen["response"], WatchedResponse)
    # The task name "CommandTree-invoker".
    assert seen["task"] in seen["handlers"]


async def test_a_views_button_and_a_dynamic_item_are_found_by_their_handlers_tasks_and_the_routing_table(harness):
    view_seen: dict[str, Any] = {}

    class Pressed(ui.View):
        @ui.button(label="Press", custom_id="probe-view-press")
        async def press(self, interaction: discord.Interaction, button: ui.Button) -> None:
            view_seen.update(task=asyncio.current_task(), handlers=await handlers_seen_from_elsewhere())
            view_seen["handled"] = has_component_handler(interaction.client, interaction)
            await interaction.response.send_message("pressed", ephemeral=True)

    async def post(interaction: discord.Interaction) -> None:
        view = Pressed(timeout=None)
        view.add_item(Probe(7))
        await interaction.response.send_message("buttons", view=view)

    harness.bot.add_dynamic_items(Probe)
    add_command(harness, "post", post)
    (message,) = await harness.run("post")

    # a view's own button: the task name "discord-ui-view-dispatch", the view store's _views
    (pressed,) = await harness.click(message, "Press")
    assert pressed.content == "pressed"
    assert view_seen["handled"] and view_seen["task"] in view_seen["handlers"]

    # a dynamic item: the task name "discord-ui-dynamic-item", the view store's _dynamic_items
    (probed,) = await harness.click(message, "Probe 7")
    assert probed.content == "probed"
    assert Probe.seen["handled"] and Probe.seen["task"] in Probe.seen["handlers"]
    assert [item for pattern, item in dynamic_items(harness.bot).items() if pattern.fullmatch("probe:12")] == [Probe]

    # and a custom id nothing handles
    unknown = SimpleNamespace(data={"custom_id": "nobody:1", "component_type": 2}, message=None)
    assert not has_component_handler(harness.bot, cast(Any, unknown))


async def test_a_modals_handler_runs_in_a_task_a_shutdown_finds(harness):
    seen: dict[str, Any] = {}

    class Form(ui.Modal, title="A form"):
        async def on_submit(self, interaction: discord.Interaction) -> None:
            seen.update(task=asyncio.current_task(), handlers=await handlers_seen_from_elsewhere())
            await interaction.response.send_message("submitted", ephemeral=True)

    form = Form(custom_id="probe-form", timeout=None)
    form.add_item(ui.TextInput(label="Name", custom_id="probe-name", required=False))

    async def ask(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(form)

    add_command(harness, "ask", ask)
    assert await harness.run("ask") == []
    submit = {"custom_id": "probe-form", "components": []}
    (submitted,) = await harness._dispatch(harness._base_payload(5, harness.alice, submit), True)
    assert submitted.content == "submitted"
    # The task name "discord-ui-modal-dispatch".
    assert seen["task"] in seen["handlers"]
