"""Sizes a reader can hold: every module of cogs/ at most 300 lines, every function at most 80 (from its first
decorator to its last line)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULE_LINES = 300
FUNCTION_LINES = 80


def modules() -> list[tuple[str, str]]:
    found = [(path.relative_to(ROOT).as_posix(), path) for path in sorted((ROOT / "cogs").rglob("*.py"))]
    return [(name, path.read_text(encoding="utf-8")) for name, path in found]


def test_every_module_of_the_cogs_is_at_most_300_lines():
    assert [(name, len(text.splitlines())) for name, text in modules() if len(text.splitlines()) > MODULE_LINES] == []


def test_every_function_of_the_cogs_is_at_most_80_lines():
    long: list[tuple[str, str, int]] = []
    for name, text in modules():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
                first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
                if node.end_lineno - first + 1 > FUNCTION_LINES:
                    long.append((name, node.name, node.end_lineno - first + 1))
    assert long == []
