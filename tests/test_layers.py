"""The layers of docs/architecture.md, read from the source: which product package imports which at run time.

Imports under `if TYPE_CHECKING:` are left out (they never run); imports inside functions count.
"""

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("rules", "storage", "observability", "arena", "cogs", "web")
# The shell loads the games: the one place arena imports cogs (ArenaBot.prepare in arena/bot.py).
EXTENSION_LOADING = ("arena.bot", "ArenaBot.prepare")
# The shell serves the web pages in its process (WEB_PORT), and its start-up names why they cannot be: the only
# places arena imports web.
PAGES_SERVING = (("arena.bot", "ArenaBot.serve_pages"), ("arena.lifecycle", ""))


class Import(NamedTuple):
    module: str  # the importing module, `arena.bot`
    where: str  # the function or class it is in, `ArenaBot.prepare`; "" at module level
    imported: str  # the imported module, `cogs.common`

    @property
    def package(self) -> str:
        return self.module.split(".")[0]

    @property
    def target(self) -> str:
        return self.imported.split(".")[0]


def is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports_in(module: str, body: list[ast.stmt], where: str = "") -> Iterator[Import]:
    for node in body:
        if isinstance(node, ast.If) and is_type_checking(node.test):
            yield from imports_in(module, node.orelse, where)
            continue
        if isinstance(node, ast.Import):
            yield from (Import(module, where, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the importing module's package
                base = module.split(".")[: -node.level]
                yield Import(module, where, ".".join([*base, *([node.module] if node.module else [])]))
            elif node.module is not None:
                yield Import(module, where, node.module)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from imports_in(module, node.body, f"{where}.{node.name}".lstrip("."))
        else:  # a compound statement (if, try, with, for, while): its blocks
            for block in ("body", "orelse", "finalbody"):
                yield from imports_in(module, getattr(node, block, []), where)
            for handler in getattr(node, "handlers", []):
                yield from imports_in(module, handler.body, where)


def product_imports() -> list[Import]:
    found: list[Import] = []
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found.extend(imports_in(module, ast.parse(path.read_text(encoding="utf-8")).body))
    return found


IMPORTS = product_imports()


def imports_of(package: str, targets: set[str]) -> list[Import]:
    return [found for found in IMPORTS if found.package == package and found.target in targets]


def test_the_engines_import_no_discord_storage_shell_or_event_loop():
    assert imports_of("rules", {"discord", "storage", "observability", "cogs", "arena", "asyncio"}) == []


def test_storage_imports_neither_the_games_nor_the_shell():
    assert imports_of("storage", {"cogs", "arena"}) == []


def test_observability_imports_neither_the_shell_nor_the_games():
    assert imports_of("observability", {"arena", "cogs"}) == []


def test_the_shell_imports_the_games_only_where_it_loads_them():
    loading = [(found.module, found.where) for found in imports_of("arena", {"cogs"})]
    assert loading == [EXTENSION_LOADING]


def test_the_shell_imports_the_pages_only_where_it_serves_them():
    assert [(found.module, found.where) for found in imports_of("arena", {"web"})] == list(PAGES_SERVING)


def test_the_pages_import_neither_the_games_nor_discord():
    assert imports_of("web", {"cogs", "discord"}) == []


def test_no_cycle_between_packages():
    edges = {
        (found.package, found.target)
        for found in IMPORTS
        if found.target in PRODUCT
        and found.target != found.package
        and (found.module, found.where) not in (EXTENSION_LOADING, *PAGES_SERVING)
    }

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(
            after == goal or (after not in seen and reaches(after, goal, seen | {after}))
            for before, after in edges
            if before == start
        )

    assert [package for package in PRODUCT if reaches(package, package)] == []


# storage/ (docs/architecture.md): each backend alone knows its driver, and the repositories and the
# backend-neutral modules (protocol, rows, errors, retry, versioned, schema) know no backend.
BACKENDS = {"storage.sqlite": "aiosqlite", "storage.postgres": "asyncpg"}
# The command line (`python -m storage copy`) opens both backends.
OPENS_BACKENDS = {"storage.__main__"}


def test_each_storage_backend_alone_imports_its_driver():
    drivers = {(found.module, found.target) for found in IMPORTS if found.target in set(BACKENDS.values())}
    assert drivers == set(BACKENDS.items())


def test_the_repositories_import_no_storage_backend():
    users = {found.module for found in IMPORTS if found.package == "storage" and found.imported in BACKENDS}
    assert users <= OPENS_BACKENDS
