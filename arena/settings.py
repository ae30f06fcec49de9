"""Every setting, read from the environment and `.env` (.env.example documents each one), and what a
newcomer is told when one is missing or wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from dotenv import dotenv_values
from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from observability.logs import LogFormat
from storage.protocol import DEFAULT_POOL_SIZE, Storage

TOKEN_HELP = """\
Arena needs a Discord bot token to start, and {problem}.
To get one: open https://discord.com/developers/applications, choose "New Application", open its "Bot"
page and press "Reset Token", then copy the token. Put it in a file named .env in the folder Arena starts
from (the project folder, for `make run`), as the line DISCORD_TOKEN=<your token> (copy .env.example to .env
to start from every setting), or set DISCORD_TOKEN in the environment. Then run `make run` again. README.md
explains how to invite the bot to your server."""


class StorageSettings(BaseSettings):
    """The settings of what reads the database: the bot, and the web pages served alone (`python -m web`)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore", env_ignore_empty=True)

    database_path: Path = Path("data/arena.sqlite3")
    database_url: SecretStr | None = None  # postgresql://user:password@host/db: PostgreSQL instead of SQLite
    database_pool_size: int = Field(default=DEFAULT_POOL_SIZE, ge=1, le=1000)  # PostgreSQL connections kept open
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: LogFormat = "text"  # json: one JSON object a line, for log collectors
    # The web pages (web/): served in the bot's process when WEB_PORT is set, or alone by `python -m web`.
    web_port: int | None = Field(default=None, ge=0, le=65535)
    web_host: str = "127.0.0.1"
    # requests a second each client address may make (bursts of four times as many); 0: no limit
    web_rate_limit: float = Field(default=10.0, ge=0)
    # The address people open the pages at (behind a proxy, its public address): the bot's link buttons lead there.
    web_base_url: str | None = Field(default=None, pattern=r"^https?://[^\s/]+(/[^\s]*)?$")

    @field_validator("database_path")
    @classmethod
    def _home_expanded(cls, path: Path) -> Path:
        return path.expanduser()  # ~/arena.sqlite3 as a shell would read it, not a folder named "~"

    @field_validator("web_base_url")
    @classmethod
    def _no_trailing_slash(cls, url: str | None) -> str | None:
        return None if url is None else url.rstrip("/")


async def open_storage(settings: StorageSettings) -> Storage:
    """The database the settings name: PostgreSQL at DATABASE_URL, else the SQLite file at DATABASE_PATH; its
    migrations applied."""
    if settings.database_url is not None:
        from storage.postgres import PostgresDatabase  # asyncpg is loaded only where PostgreSQL is used

        return await PostgresDatabase.open(settings.database_url.get_secret_value(), settings.database_pool_size)
    from storage.sqlite import Database

    return await Database.open(settings.database_path)


class Settings(StorageSettings):
    """Every setting, read from the environment and from .env; .env.example documents each one."""

    discord_token: SecretStr = Field(min_length=1)
    dev_guild_id: int | None = Field(default=None, gt=0)
    gm_role: str | None = None
    # Discord user ids of the bot's owners, comma-separated: who may spawn a world boss (unset: the application's
    # owner or team, as Discord reports them)
    owner_ids: str | None = None
    metrics_port: int | None = Field(default=None, ge=0, le=65535)  # /metrics and /healthz; unset: none
    metrics_host: str = "127.0.0.1"
    # seconds a shard may be disconnected (or the database unanswering) before /healthz says 503: Discord asks
    # every bot to reconnect now and then, which heals in seconds and is no reason to restart it
    health_grace_seconds: float = Field(default=60.0, ge=0)
    # days a server's data is kept after it removed the bot (a re-invite meanwhile keeps it), then erased
    guild_retention_days: float = Field(default=30, ge=0)
    # Discord's gateway shards this process serves, for a bot split over processes ("Running for many servers").
    shard_count: int | None = Field(default=None, ge=1)
    shard_ids: str | None = None  # e.g. "0,1"; with shard_count

    @property
    def owners(self) -> frozenset[int]:
        """OWNER_IDS as ids (empty: unset)."""
        return frozenset(int(part) for part in (self.owner_ids or "").replace(" ", "").split(",") if part)

    @property
    def shards(self) -> list[int] | None:
        return [int(part) for part in self.shard_ids.split(",")] if self.shard_ids else None

    @field_validator("discord_token")
    @classmethod
    def _token_given(cls, token: SecretStr) -> SecretStr:
        if not token.get_secret_value().strip():  # only spaces: as good as none
            raise ValueError("DISCORD_TOKEN is empty")
        return token

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None:
            if self.shard_count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT, the number of shards of the whole bot")
            parts = [part.strip() for part in self.shard_ids.split(",")]
            if not all(part.isascii() and part.isdigit() and int(part) < self.shard_count for part in parts):
                raise ValueError(
                    f"SHARD_IDS must be shard numbers from 0 to {self.shard_count - 1}, separated by commas"
                )
            if len(set(parts)) != len(parts):
                raise ValueError("SHARD_IDS names a shard twice; each shard runs in one process only, once")
        return self


def load_settings() -> Settings:
    try:
        return Settings()  # pyright: ignore[reportCallIssue]  # pydantic-settings fills the fields from the environment
    except ValidationError as exc:
        fields = {str(err["loc"][0]) for err in exc.errors() if err["loc"]}
        if "discord_token" in fields:
            raise SystemExit(TOKEN_HELP.format(problem="DISCORD_TOKEN is not set")) from None
        # a check of several settings together (SHARD_IDS with SHARD_COUNT) has no one field: its text names them
        details = "; ".join(
            f"{'.'.join(map(str, e['loc'])).upper()}: {e['msg']}"
            if e["loc"]
            else e["msg"].removeprefix("Value error, ")
            for e in exc.errors()
        )
        raise SystemExit(f"A setting is not valid: {details}. See .env.example for what each one takes.") from None


def unknown_dotenv_names(path: Path = Path(".env")) -> list[str]:
    """The names `path` sets that are none of Arena's settings: a misspelt one would quietly leave the setting
    at its default (DATABSE_URL: a shard on its own SQLite file instead of the shared PostgreSQL)."""
    known = {name.upper() for name in Settings.model_fields}
    return sorted(name for name in dotenv_values(path) if name.upper() not in known)
