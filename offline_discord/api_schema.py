"""Request bodies checked against Discord's own OpenAPI description (offline_discord/discord_api_spec), as JSON Schema
2020-12: what the fake Discord refuses because Discord's API would."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

SPEC_PATH = Path(__file__).resolve().parent / "discord_api_spec" / "openapi.json"
JSON = "application/json"


@functools.cache
def _spec() -> dict[str, Any]:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


@functools.cache
def _validator(template: str, method: str) -> Draft202012Validator | None:
    """The validator of a route's JSON request body (a multipart request's payload_json has the same schema);
    None for a route that takes no body."""
    spec = _spec()
    operation = spec["paths"][_spec_path(template)][method.lower()]
    body = operation.get("requestBody", {}).get("content", {}).get(JSON)
    if body is None:
        return None
    # The route's schema, with the document's components beside it so its "#/components/..." references resolve.
    return Draft202012Validator({"allOf": [body["schema"]], "components": spec["components"]})


def _spec_path(template: str) -> str:
    # discord.py names an interaction's id and token as a webhook's (its callback route reuses webhook routing).
    if template.startswith("/interactions/"):
        return "/interactions/{interaction_id}/{interaction_token}/callback"
    return template


def problems(template: str, method: str, payload: dict | None) -> list[str]:
    """What Discord's description refuses in the body of `method` `template` (discord.py's route template)."""
    validator = _validator(template, method)
    if validator is None or payload is None:
        return []
    return [
        f"{method} {template}: {'/'.join(map(str, error.absolute_path)) or 'the body'}: {error.message}"
        for error in validator.iter_errors(_as_discord_reads(payload))
    ]


def _as_discord_reads(payload: dict) -> dict:
    """discord.py sends some snowflakes as numbers (allowed_mentions' users and roles, a kept attachment's id);
    the description types them as strings, and Discord accepts both."""
    payload = json.loads(json.dumps(payload))
    for body in (payload, payload.get("data") or {}):
        mentions = body.get("allowed_mentions") or {}
        for key in ("users", "roles"):
            if isinstance(mentions.get(key), list):
                mentions[key] = [str(v) for v in mentions[key]]
        for attachment in body.get("attachments") or []:
            if isinstance(attachment.get("id"), int):
                attachment["id"] = str(attachment["id"])
    return payload
