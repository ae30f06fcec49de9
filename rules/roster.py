"""A game's built-in list with a guild's uploads on top (bossfight bosses, andor monsters), and lookup by name.

One behaviour for every game:
- Names are keyed by `name_key`: runs of spaces collapsed and case ignored, so "Frost  wyrm" is "Frost Wyrm".
- An upload replaces the built-in (or earlier upload) of the same key; a built-in comes back when the upload
  that replaced it is removed.
- `find` takes the exact key, else the only name that contains what was typed, else raises `NotInRoster`
  with up to 5 close names ("did you mean").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from difflib import get_close_matches
from typing import Protocol, TypeVar

from rules.errors import RuleInputError

MAX_SUGGESTIONS = 5


class Named(Protocol):
    @property
    def name(self) -> str: ...


N = TypeVar("N", bound=Named)


def name_key(name: str) -> str:
    return " ".join(name.split()).lower()


def merge(builtin: Iterable[N], uploaded: Iterable[N]) -> dict[str, N]:
    """The roster by `name_key`: the built-in entries in their order, the uploads replacing or following them."""
    book = {name_key(entry.name): entry for entry in builtin}
    book.update({name_key(entry.name): entry for entry in uploaded})
    return book


class NotInRoster(RuleInputError):
    """No entry answers to `name`; `suggestions` are the closest names, as spelled in the roster."""

    def __init__(self, kind: str, name: str, suggestions: list[str]):
        self.kind, self.name, self.suggestions = kind, name, suggestions
        hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"there is no {kind} called '{name}'{hint}")


def find(book: Mapping[str, N], name: str, *, kind: str) -> N:
    """The entry called `name` (any case and spacing), or the only one whose name contains it."""
    wanted = name_key(name)
    if wanted in book:
        return book[wanted]
    containing = [key for key in book if wanted and wanted in key]
    if len(containing) == 1:
        return book[containing[0]]
    keys = containing or get_close_matches(wanted, list(book), n=MAX_SUGGESTIONS)
    raise NotInRoster(kind, " ".join(name.split()), [book[key].name for key in keys[:MAX_SUGGESTIONS]])
