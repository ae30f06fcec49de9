"""The layers of docs/architecture.md, read from the source: which product package and module imports which.

Every import counts: at module level, inside functions, and under `if TYPE_CHECKING:` (a type-only import is a
dependency all the same, and a circle through one is a circle a reader has to follow).
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
# The bot names the pages' server in an annotation (type-only) and starts it in serve_pages; start-up names why
# they cannot start.
PAGES_SERVING = (("arena.bot", ""), ("arena.bot", "ArenaBot.serve_pages"), ("arena.lifecycle", ""))


class Import(NamedTuple):
    module: str  # the importing module, `arena.bot`
    where: str  # the function or class it is in, `ArenaBot.prepare`; "" at module level
    imported: str  # the imported module, `cogs.common` (`from cogs.mma import cog`: `cogs.mma.cog`)

    @property
    def package(self) -> str:
        return self.module.split(".")[0]

    @property
    def target(self) -> str:
        return self.imported.split(".")[0]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


SOURCES = {module_name(path): path for package in PRODUCT for path in sorted((ROOT / package).rglob("*.py"))}


def imports_in(module: str, body: list[ast.stmt], where: str = "") -> Iterator[Import]:
    for node in body:
        if isinstance(node, ast.Import):
            yield from (Import(module, where, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the importing module's package
                package = module if SOURCES[module].name == "__init__.py" else module.rpartition(".")[0]
                base = ".".join(
                    [
                        *package.split(".")[: len(package.split(".")) - node.level + 1],
                        *([node.module] if node.module else []),
                    ]
                )
            elif node.module is not None:
                base = node.module
            else:
                continue
            for alias in node.names:  # `from package import module` imports the module
                submodule = f"{base}.{alias.name}"
                yield Import(module, where, submodule if submodule in SOURCES else base)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from imports_in(module, node.body, f"{where}.{node.name}".lstrip("."))
        else:  # a compound statement (if TYPE_CHECKING, try, with, for, while): its blocks
            for block in ("body", "orelse", "finalbody"):
                yield from imports_in(module, getattr(node, block, []), where)
            for handler in getattr(node, "handlers", []):
                yield from imports_in(module, handler.body, where)


def product_imports() -> list[Import]:
    found: list[Import] = []
    for module, path in SOURCES.items():
        found.extend(dict.fromkeys(imports_in(module, ast.parse(path.read_text(encoding="utf-8")).body)))
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


def circles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The import circles among modules: each strongly connected group of more than one module (Tarjan)."""
    after: dict[str, list[str]] = {}
    for before, imported in sorted(edges):
        after.setdefault(before, []).append(imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in after.get(module, []):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = [stack.pop()]
            while group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                found.append(sorted(group))

    for module in sorted(after):
        if module not in index:
            visit(module)
    return found


def test_no_cycle_between_modules():
    """No module reaches itself through the imports of others, type-only ones included. (A package's
    `__init__` running before its modules is Python's own order, not an import a module makes: not counted.)"""
    edges = {
        (found.module, found.imported)
        for found in IMPORTS
        if found.imported in SOURCES and found.imported != found.module
    }
    assert circles(edges) == []


# cogs/: a game's package (cogs/<game>) imports, of the other packages of cogs/, only cogs/common; cogs/common
# imports no game; cogs/lifecycle hears of the games through the bot's events and imports none; cogs/arena, the
# member across the games, reads a game's figures only through its `render` module.
NOT_GAMES = {"common", "arena", "lifecycle"}
GAMES = sorted(
    path.name for path in (ROOT / "cogs").iterdir() if (path / "__init__.py").exists() and path.name not in NOT_GAMES
)


def cogs_package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "cogs" and len(parts) > 1 else None


def test_no_game_imports_another_games_package():
    crossing = sorted(
        (found.module, found.imported)
        for found in IMPORTS
        if cogs_package(found.module) in GAMES
        and cogs_package(found.imported) not in (None, "common", cogs_package(found.module))
    )
    assert GAMES == ["andor", "bossfight", "deck", "mfd", "mma"]
    assert crossing == []


def test_common_and_lifecycle_import_no_game_and_arena_only_their_render():
    games = [found for found in IMPORTS if cogs_package(found.imported) in GAMES]
    assert [found.imported for found in games if cogs_package(found.module) in {"common", "lifecycle"}] == []
    from_arena = {found.imported for found in games if cogs_package(found.module) == "arena"}
    assert {imported for imported in from_arena if not imported.endswith(".render")} == set()


def test_no_module_of_mma_imports_its_cog():
    """The MMA package is a tree under its cog: its desks are built with what they use, never the cog."""
    users = [found.module for found in IMPORTS if found.imported == "cogs.mma.cog"]
    assert users == ["cogs.mma"]  # setup() adds it


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


def test_the_benchmarks_and_the_offline_discord_import_nothing_from_the_tests():
    # Every import, type-only ones too: the benchmarks and the offline Discord run without the tests' folder.
    from_tests: list[tuple[str, str]] = []
    for package in ("benchmarks", "offline_discord"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
                if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names = [node.module]
                from_tests += [(str(path.relative_to(ROOT)), name) for name in names if name.split(".")[0] == "tests"]
    assert from_tests == []


def test_the_mma_desks_stand_in_order():
    """Matches stand alone; tournaments play their boards as matches; rivalry reads matches' words; neither of those
    two imports the other."""
    below = {"matches": set(), "rivalry": {"matches"}, "tournaments": {"matches"}}
    crossing = sorted(
        (found.module, found.imported)
        for found in IMPORTS
        for concern, allowed in below.items()
        if found.module.startswith(f"cogs.mma.{concern}")
        and found.imported.startswith("cogs.mma.")
        and found.imported.split(".")[2] in set(below) - allowed - {concern}
    )
    assert crossing == []
