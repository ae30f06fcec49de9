"""Everything the repository cites is in it. A document named in the code, the tests, the benchmarks, the docs or
the README exists; `RULINGS N` names a section that docs/rules/rulings.md has; `<page>.md, ruling N` names an item
of that page's "## Rulings" list. A ruling cited any other way (`rulings, section 6`, a bare `RULINGS`) fails too,
so every citation can be followed and checked the same way (docs/rules/rulings.md says how to write one)."""

import os
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULINGS_PAGE = ROOT / "docs" / "rules" / "rulings.md"
SCANNED_SUFFIXES = {".py", ".md", ".sql", ".toml", ".txt", ".cfg", ".yml", ".yaml", ".service", ".timer"}
SCANNED_NAMES = {"Makefile", "run"}
SKIPPED_FOLDERS = {".git", ".venv", "__pycache__", ".pytest_cache", ".ruff_cache", "node_modules"}
# Discord's own OpenAPI description, vendored as it is: its words are Discord's, not citations of ours.
VENDORED = ROOT / "offline_discord" / "discord_api_spec"

RULINGS_CITATION = re.compile(r"\bRULINGS (\d+(?:(?:, | and )\d+)*)")
PAGE_RULING = re.compile(r"([\w./-]+\.md), ruling (\d+)")
DOCUMENT = re.compile(r"(?<![\w/.:*-])((?:\.\./|[\w-]+/)*[\w-]+\.md)\b")
# What a ruling cited another way looks like: RULINGS without its section, a section of "the rulings".
LOOSE_RULING = re.compile(r"\bRULINGS\b(?! \d)|\b[Rr]ulings?(?:,| of)? (?:sections? )?\d")


def scanned_files() -> Iterator[Path]:
    for folder, folders, names in os.walk(ROOT):
        # Pruned, not filtered: a clone's .venv holds tens of thousands of files.
        folders[:] = sorted(name for name in folders if name not in SKIPPED_FOLDERS and Path(folder, name) != VENDORED)
        for name in sorted(names):
            path = Path(folder, name)
            if path == Path(__file__).resolve():  # this file's examples of citations that fail
                continue
            if path.suffix in SCANNED_SUFFIXES or name in SCANNED_NAMES:
                yield path


def resolved(name: str, citing: Path) -> Path | None:
    """The cited document: beside the citing file (a page's link), from the root, or among the rule pages."""
    for folder in (citing.parent, ROOT, ROOT / "docs" / "rules"):
        if (folder / name).is_file():
            return folder / name
    return None


def rulings_sections(page: Path) -> set[int]:
    return {int(number) for number in re.findall(r"^## (\d+)\.", page.read_text(encoding="utf-8"), re.MULTILINE)}


def page_rulings(page: Path) -> set[int]:
    """The numbered items of a page's own "## Rulings" list (docs/rules/tournament.md has one)."""
    text = page.read_text(encoding="utf-8")
    section = re.search(r"^## Rulings\n(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    return {int(number) for number in re.findall(r"^(\d+)\. ", section.group(1), re.MULTILINE)} if section else set()


def problems_in(citing: Path, text: str, sections: set[int]) -> list[str]:
    problems: list[str] = []
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"{citing.relative_to(ROOT)}:{number}"
        for citation in RULINGS_CITATION.finditer(line):
            missing = [n for n in map(int, re.findall(r"\d+", citation.group(1))) if n not in sections]
            problems += [f"{where}: RULINGS {n}: docs/rules/rulings.md has no section {n}" for n in missing]
        page_citations = list(PAGE_RULING.finditer(line))
        for citation in page_citations:
            page = resolved(citation.group(1), citing)
            if page is not None and int(citation.group(2)) not in page_rulings(page):
                problems.append(f"{where}: {citation.group(0)}: {citation.group(1)} has no such ruling")
        for loose in LOOSE_RULING.finditer(line):
            if not any(cited.start() <= loose.start() < cited.end() for cited in page_citations):
                problems.append(f"{where}: {loose.group(0)!r}: cite a ruling as RULINGS N or <page>.md, ruling N")
        for document in DOCUMENT.finditer(line):
            if resolved(document.group(1), citing) is None:
                problems.append(f"{where}: {document.group(1)} is not in the repository")
    return problems


def test_every_cited_document_and_ruling_is_in_the_repository():
    sections = rulings_sections(RULINGS_PAGE)
    assert sections == set(range(1, 10))
    problems = [
        problem
        for path in scanned_files()
        for problem in problems_in(path, path.read_text(encoding="utf-8", errors="replace"), sections)
    ]
    assert problems == []


def test_a_missing_document_a_missing_section_and_a_loose_citation_fail():
    citing = ROOT / "rules" / "example.py"
    text = "\n".join(
        [
            "Settled by RULINGS 3 and 6, as docs/rules/mma.md and mma.md say; a forfeit: tournament.md, ruling 3.",
            "Follows mma-warriors.md as settled by RULINGS 3 and 12; a withdrawal: tournament.md, ruling 40.",
            "Ground and Pound (rulings, section 6; the RULINGS; RULINGS.md; the rulings of section 7; rulings 4).",
        ]
    )
    assert problems_in(citing, text, rulings_sections(RULINGS_PAGE)) == [
        "rules/example.py:2: RULINGS 12: docs/rules/rulings.md has no section 12",
        "rules/example.py:2: tournament.md, ruling 40: tournament.md has no such ruling",
        "rules/example.py:2: mma-warriors.md is not in the repository",
        "rules/example.py:3: 'rulings, section 6': cite a ruling as RULINGS N or <page>.md, ruling N",
        "rules/example.py:3: 'RULINGS': cite a ruling as RULINGS N or <page>.md, ruling N",
        "rules/example.py:3: 'RULINGS': cite a ruling as RULINGS N or <page>.md, ruling N",
        "rules/example.py:3: 'rulings of section 7': cite a ruling as RULINGS N or <page>.md, ruling N",
        "rules/example.py:3: 'rulings 4': cite a ruling as RULINGS N or <page>.md, ruling N",
        "rules/example.py:3: RULINGS.md is not in the repository",
    ]
