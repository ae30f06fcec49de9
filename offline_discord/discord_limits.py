"""Discord's limits, as its API enforces them: what the fake Discord refuses, with the exception discord.py
raises for Discord's answer. Each check raises that `discord.HTTPException`; `FakeDiscord` records it as a
violation too, which fails the test when the bot settles."""

from __future__ import annotations

from types import SimpleNamespace

import discord

UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024  # a bot's upload limit in a server without boosts
INTERACTION_DEADLINE = 3.0  # seconds Discord waits for an interaction's first response
TOKEN_LIFETIME = 15 * 60.0  # seconds an interaction's token serves followups and edits; then 401, code 50027


def discord_error(status: int, code: int, message: str) -> discord.HTTPException:
    """The exception discord.py raises for Discord's answer `status` with JSON error `code`."""
    reasons = {400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found"}
    response = SimpleNamespace(status=status, reason=reasons.get(status, "Error"))
    kind = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    return kind(response, {"code": code, "message": message})


def invalid_form(problem: str) -> discord.HTTPException:
    return discord_error(400, 50035, f"Invalid Form Body: {problem}")


def check_message(data: dict, files: dict[str, bytes], *, new: bool) -> None:
    """Refuse a message (as posted or after an edit) the way Discord's API would."""
    content = data.get("content") or ""
    if len(content) > 2000:
        raise invalid_form(f"content is {len(content)} characters; the limit is 2000")
    embeds = data.get("embeds") or []
    if len(embeds) > 10:
        raise invalid_form(f"{len(embeds)} embeds; the limit is 10")
    total = 0
    for embed in embeds:
        for key, limit in (("title", 256), ("description", 4096)):
            if len(embed.get(key) or "") > limit:
                raise invalid_form(f"embed {key} is {len(embed[key])} characters; the limit is {limit}")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise invalid_form(f"{len(fields)} embed fields; the limit is 25")
        for f in fields:
            if not f.get("name") or not f.get("value"):
                raise invalid_form(f"embed field {f!r} needs a name and a value")
            if len(f["name"]) > 256 or len(f["value"]) > 1024:
                raise invalid_form(f"embed field {f['name'][:30]!r} is over 256 (name) or 1024 (value) characters")
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        if len(footer) > 2048 or len(author) > 256:
            raise invalid_form("embed footer over 2048 or author over 256 characters")
        total += len(embed.get("title") or "") + len(embed.get("description") or "") + len(footer) + len(author)
        total += sum(len(f["name"]) + len(f["value"]) for f in fields)
    if total > 6000:
        raise invalid_form(f"the embeds hold {total} characters; the limit is 6000")
    check_components(data.get("components") or [])
    attachments = data.get("attachments") if "attachments" in data else None
    if len(files) > 10 or (attachments is not None and len(attachments) > 10):
        raise invalid_form("more than 10 attachments")
    for name, blob in files.items():
        if len(blob) > UPLOAD_LIMIT_BYTES:
            raise discord_error(413, 40005, f"{name} is {len(blob)} bytes; the upload limit is {UPLOAD_LIMIT_BYTES}")
    if new and not (content or embeds or files or data.get("components")):
        raise discord_error(400, 50006, "Cannot send an empty message")


def check_components(rows: list[dict]) -> None:
    if len(rows) > 5:
        raise invalid_form(f"{len(rows)} action rows; the limit is 5")
    custom_ids: set[str] = set()
    for row in rows:
        items = row.get("components") or []
        if not 1 <= len(items) <= 5:
            raise invalid_form(f"an action row holds {len(items)} components; it takes 1 to 5")
        if any(i["type"] != 2 for i in items) and len(items) > 1:
            raise invalid_form("a select menu must be alone in its action row")
        for item in items:
            custom_id = item.get("custom_id")
            if custom_id is not None:
                if not 1 <= len(custom_id) <= 100:
                    raise invalid_form(f"custom_id {custom_id!r} is not 1 to 100 characters")
                if custom_id in custom_ids:
                    raise invalid_form(f"custom_id {custom_id!r} is used twice in one message")
                custom_ids.add(custom_id)
            if item["type"] == 2:
                if len(item.get("label") or "") > 80:
                    raise invalid_form(f"button label {item['label'][:30]!r}… is over 80 characters")
                if not item.get("label") and not item.get("emoji"):
                    raise invalid_form("a button needs a label or an emoji")
            else:
                options = item.get("options")
                if options is not None and not 1 <= len(options) <= 25:
                    raise invalid_form(f"a select menu has {len(options)} options; it takes 1 to 25")
                for option in options or []:
                    if not 1 <= len(option["label"]) <= 100 or not 1 <= len(option["value"]) <= 100:
                        raise invalid_form(
                            f"select option {option['label'][:30]!r}: label and value take 1 to 100 characters"
                        )
                    if len(option.get("description") or "") > 100:
                        raise invalid_form("a select option's description is over 100 characters")
                if len(item.get("placeholder") or "") > 150:
                    raise invalid_form("a select placeholder is over 150 characters")


def check_choices(choices: list[dict], option_type: int) -> None:
    """Discord's rules for an autocomplete answer: at most 25 choices of the option's type."""
    if len(choices) > 25:
        raise invalid_form(f"{len(choices)} autocomplete choices; the limit is 25")
    for choice in choices:
        if not 1 <= len(choice["name"]) <= 100:
            raise invalid_form(f"choice name {choice['name'][:30]!r} is not 1 to 100 characters")
        value = choice["value"]
        if option_type == 3 and (not isinstance(value, str) or len(value) > 100):
            raise invalid_form(f"choice value {value!r} is not a string of at most 100 characters")
        if option_type in (4, 10) and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise invalid_form(f"choice value {value!r} is not a number")
