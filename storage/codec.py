"""The one way a game's state is stored: a `StateCodec` per game, versioned, with an upgrade hook.

A stored state is the JSON object of the game's own `dump`, with the codec's `version` beside its fields
(MfD's is also zlib-compressed, `to_bytes`). Reading takes the version off, runs the upgrades from that version
to the current one (`upgrades[n]` turns version n into n + 1), then the game's `load`. A state stored before it
carried a version is version `unversioned`. A change of a game's state format is therefore one version bump and
one upgrade function here, next to the codec, and every row already stored stays readable without a migration.

A state that cannot be read raises `DamagedState`, naming the aggregate and its row: the bot's (or its database's)
fault, never the player's, so the error handler answers it with an error id and logs the row.

Decoding a large state is CPU work: callers with large states (MfD) decode in an engine worker thread.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rules.errors import RuleInputError

S = TypeVar("S")
Data = dict[str, Any]
VERSION_KEY = "version"


class DamagedState(Exception):
    """A stored state its codec cannot read: `what` the aggregate ("MMA match"), `key` its row's id (None where
    the caller has none), `detail` what was wrong."""

    def __init__(self, what: str, key: int | None, detail: str):
        super().__init__(f"saved {what} {key} is damaged ({detail})")
        self.what = what
        self.key = key
        self.detail = detail


@dataclass(frozen=True)
class StateCodec(Generic[S]):
    what: str  # how a damaged state is named: "MMA match"
    version: int
    dump: Callable[[S], Data]
    load: Callable[[Data], S]  # may raise RuleInputError (or the usual KeyError, TypeError, ValueError)
    upgrades: Mapping[int, Callable[[Data], Data]] = field(default_factory=dict[int, Callable[[Data], Data]])
    unversioned: int = 1

    def to_text(self, state: S) -> str:
        data = self.dump(state)
        return json.dumps({VERSION_KEY: self.version, **data}, separators=(",", ":"))

    def from_text(self, text: str | bytes, key: int | None = None) -> S:
        """The state stored as `text` in row `key`; DamagedState if it cannot be read."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict):
                raise TypeError("not a JSON object")
            return self.load(self.upgraded(data))  # pyright: ignore[reportUnknownArgumentType]
        # A RuleInputError from `load` is a stored state the engine refuses: damage too, not the player's mistake.
        except (RuleInputError, KeyError, TypeError, ValueError, AttributeError) as exc:
            raise DamagedState(self.what, key, f"{type(exc).__name__}: {exc}") from None

    def to_bytes(self, state: S) -> bytes:
        return zlib.compress(self.to_text(state).encode(), 6)

    def from_bytes(self, stored: bytes, key: int | None = None) -> S:
        try:
            text = zlib.decompress(stored)
        except zlib.error as exc:
            raise DamagedState(self.what, key, f"zlib: {exc}") from None
        return self.from_text(text, key)

    def upgraded(self, data: Data) -> Data:
        """`data` (without its version) in the current version's form."""
        version = data.pop(VERSION_KEY, self.unversioned)
        if not isinstance(version, int) or not self.unversioned <= version <= self.version:
            raise ValueError(f"state version {version!r}, expected {self.unversioned} to {self.version}")
        while version < self.version:
            data = self.upgrades[version](data)
            version += 1
        return data


__all__ = ["DamagedState", "StateCodec"]
