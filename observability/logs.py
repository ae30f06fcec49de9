"""Logging: the readable lines by default, or LOG_FORMAT=json for log collectors.

A JSON line is one object: time (ISO 8601, UTC), level, logger, message, and where there is one the
interaction's id and command (`interaction_id`, `command`), an error id (`error_id`) and the traceback
(`exception`). A line written while an interaction's handler runs carries its id and command by itself
(`enter_interaction`, called as the handler starts); a line written elsewhere about an interaction passes
them in `extra` (`log_fields`).
"""

from __future__ import annotations

import contextvars
import json
import logging
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple

import discord

LogFormat = Literal["text", "json"]


class InteractionContext(NamedTuple):
    interaction_id: str  # a string: snowflakes are past the integers a JSON reader keeps exactly
    command: str | None


_current: contextvars.ContextVar[InteractionContext | None] = contextvars.ContextVar("arena_interaction", default=None)


def enter_interaction(context: InteractionContext) -> None:
    """From here to the end of the current task, log lines name this interaction."""
    _current.set(context)


def log_fields(context: InteractionContext, **fields: str) -> dict[str, str | None]:
    """`extra` for a log line about an interaction, written outside its handler (the answer watchdog's)."""
    return {"interaction_id": context.interaction_id, "command": context.command, **fields}


class JsonLogFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        context = _current.get()
        interaction_id = getattr(record, "interaction_id", None) or (context.interaction_id if context else None)
        command = getattr(record, "command", None) or (context.command if context else None)
        if interaction_id is not None:
            line["interaction_id"] = interaction_id
        if command is not None:
            line["command"] = command
        error_id = getattr(record, "error_id", None)
        if error_id is not None:
            line["error_id"] = error_id
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def setup_logging(level: str, log_format: LogFormat) -> None:
    """The process's logging on standard error: discord.py's readable format, or one JSON object a line."""
    formatter = JsonLogFormatter() if log_format == "json" else discord.utils.MISSING
    discord.utils.setup_logging(level=getattr(logging, level), formatter=formatter)


# What discord.py logs as an ERROR with the traceback before it reconnects a dropped gateway connection
# (`Client.connect`, a sharded bot's `Shard._handle_disconnect`): by logger, the message's format.
RECONNECT_RECORDS = {
    "discord.client": "Attempting a reconnect in %.2fs",
    "discord.shard": "Attempting a reconnect for shard ID %s in %.2fs",
}


class ReconnectAsWarning(logging.Filter):
    """A reconnect heals by itself: one WARNING line naming the error, no traceback, so that ERROR stays for
    what needs a person (an alert on ERROR lines, a platform that restarts on them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if RECONNECT_RECORDS.get(record.name) == record.msg and record.levelno > logging.WARNING:
            error = record.exc_info[1] if record.exc_info else None
            cause = "" if error is None else f" (the gateway connection failed: {type(error).__name__}: {error})"
            record.msg, record.args = record.getMessage() + cause, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info, record.exc_text = None, None
        return True


def log_reconnects_as_warnings() -> None:
    """Install the filter on discord.py's two loggers, once per process."""
    for name in RECONNECT_RECORDS:
        logger = logging.getLogger(name)
        if not any(isinstance(existing, ReconnectAsWarning) for existing in logger.filters):
            logger.addFilter(ReconnectAsWarning())
