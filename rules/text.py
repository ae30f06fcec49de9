"""Numbers and counts as a person writes them, and the words a reader should see first, for every game's
messages, files and command lines."""

from __future__ import annotations

from collections.abc import Callable

Mark = Callable[[str], str]
"""How a game's line marks one of its parts (a word it stresses, a name someone typed), chosen by whoever shows
it. The engines' text stays plain: `plain` (the default) leaves the part as it is, for the command line; the bot
passes Discord markdown, `bold` for a word the line stresses and `markdown_safe` for a name (both in
`cogs.common`)."""


def plain(text: str) -> str:
    """The mark of plain text: none."""
    return text


def format_number(value: float) -> str:
    """A number as a person writes it: no trailing '.0', no float noise (12 significant digits at most)."""
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.12g}" if abs(value) < 1e15 else f"{value:.3e}"


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """'1 attack', '2 attacks', '1 boss', '3 bosses' (give `nouns` where adding an s is wrong)."""
    return f"{count:,} {noun_for(count, noun, nouns)}"


def noun_for(count: int, noun: str, nouns: str | None = None) -> str:
    """The noun alone, as `plural` writes it after `count` (for a count written some other way, e.g. bold)."""
    return noun if count == 1 else nouns or noun + "s"
