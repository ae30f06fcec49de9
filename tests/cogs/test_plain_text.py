"""A user's text is shown one of two ways (arena/text.py): escaped where Discord reads markdown (`markdown_safe`),
as written where it does not (`plain_text`). This walks the code for every place Discord shows without markdown
(an autocomplete choice, a select option, a button's label, a placeholder, a modal's title) and checks that no
escaped text reaches one: a backslash would show there."""

from __future__ import annotations

import ast
from pathlib import Path

import discord

from arena.text import PlainLimits, as_written, markdown_safe, plain_text

ROOT = Path(__file__).parents[2]
ESCAPING = {"markdown_safe", "escape_markdown", "escape_mentions", "bold", "mention", "display_name"}
ESCAPED_NAMES = "names"  # MMA's matches keep their players' names escaped, as its embeds show them
HOSTILE = ["$_$ cash", "**bold** <@123> @everyone @here", r"a\b\_c \\", "# title", "- item", "> quote", "[x](y)"]


def _called(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        func = node.func
        return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return ""


def _plain_arguments(call: ast.Call) -> list[ast.expr]:
    """The arguments of a call that Discord shows without markdown."""
    name = _called(call)
    if name == "Choice":
        keys = {"name"}
    elif name == "SelectOption":
        keys = {"label", "description"}
    elif name in ("Modal", "TextInput"):
        keys = {"title", "label", "placeholder"}
    else:  # a button's or a select's maker
        keys = {"label", "placeholder"}
    return [keyword.value for keyword in call.keywords if keyword.arg in keys]


def _escapes(node: ast.AST) -> list[str]:
    """What in an expression is escaped text: a call that escapes, or MMA's stored names not made `as_written`."""
    if _called(node) == "as_written":
        return []
    found: list[str] = []
    if _called(node) in ESCAPING:
        found.append(f"{_called(node)}(...)")
    if isinstance(node, ast.Attribute) and node.attr == ESCAPED_NAMES:
        found.append(f".{ESCAPED_NAMES}")
    for child in ast.iter_child_nodes(node):
        found += _escapes(child)
    return found


def _bound(function: ast.AST, name: str) -> list[ast.expr]:
    """The values assigned to `name` in a function."""
    return [
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets)
    ]


def plain_places() -> list[tuple[str, ast.expr, list[ast.expr]]]:
    """Every argument shown without markdown in the bot's code: where, the expression and, for a variable, the
    values it is given in its function."""
    places: list[tuple[str, ast.expr, list[ast.expr]]] = []
    for path in sorted([*ROOT.glob("cogs/**/*.py"), *ROOT.glob("arena/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for call in ast.walk(function):
                if not isinstance(call, ast.Call):
                    continue
                for value in _plain_arguments(call):
                    bound = _bound(function, value.id) if isinstance(value, ast.Name) else []
                    places.append((f"{path.relative_to(ROOT)}:{value.lineno}", value, bound))
    return places


def test_no_escaped_text_is_shown_where_discord_reads_no_markdown():
    places = plain_places()
    assert len(places) > 40  # every button, option and choice of the five games
    escaped = {
        where: found
        for where, value, bound in places
        if (found := [*_escapes(value), *(e for v in bound for e in _escapes(v))])
    }
    assert escaped == {}


def test_every_autocomplete_choice_is_plain_text_cut_to_discords_limit():
    found = _choice_names()
    assert sorted(found) == ["cogs/bossfight/history.py", "cogs/common/uploads.py", "cogs/mma/rivalry/records.py"]
    for where, values in found.items():
        assert values and all(_called(value) == "plain_text" for value in values), where


def _choice_names() -> dict[str, list[ast.expr]]:
    """Each file's autocomplete choices' names, variables resolved to the values they are given."""
    found: dict[str, list[ast.expr]] = {}
    for path in sorted(ROOT.glob("cogs/**/*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for call in ast.walk(function):
                if isinstance(call, ast.Call) and _called(call) == "Choice":
                    for value in _plain_arguments(call):
                        values = _bound(function, value.id) if isinstance(value, ast.Name) else [value]
                        found.setdefault(str(path.relative_to(ROOT)), []).extend(values)
    return found


def test_as_written_undoes_markdown_safe_exactly():
    for text in HOSTILE:
        assert as_written(markdown_safe(text)) == text
    assert markdown_safe("$_$ cash") == r"$\_$ cash"


def test_plain_text_is_as_written_and_cut_to_the_limit():
    assert plain_text("$_$ cash", PlainLimits.CHOICE_NAME) == "$_$ cash"
    assert plain_text("名" * 120, PlainLimits.OPTION_LABEL) == "名" * 99 + "…"
    assert len(plain_text("x" * 200, PlainLimits.BUTTON_LABEL)) == PlainLimits.BUTTON_LABEL
    # the limits are discord.py's own where it states them
    assert discord.ui.Button(label="x" * PlainLimits.BUTTON_LABEL).label
    assert discord.SelectOption(label="x" * PlainLimits.OPTION_LABEL).label
