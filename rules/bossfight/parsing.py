"""Boss roster and deck CSVs -> models; every mistake names the file, row and column."""

from __future__ import annotations

from typing import TypedDict, cast

from rules.bossfight.models import (
    ELEMENTS,
    MAX_DECK_ROWS,
    MAX_ROSTER_ROWS,
    MAX_STAT,
    Boss,
    Deck,
    Element,
    Token,
    TraitRow,
)
from rules.csvio import NOT_ONE_LINE, CsvRow, read_csv
from rules.errors import InputProblem, RuleInputError
from rules.roster import name_key

STAT_COLUMNS = (
    "health",
    "physical_damage",
    "physical_penetration",
    "physical_resistance",
    "magical_damage",
    "magical_penetration",
    "magical_resistance",
)
BOSS_COLUMNS = ("name", "level", "element", *STAT_COLUMNS)
DECK_COLUMNS = ("token", "trait", "element", *STAT_COLUMNS)
ELEMENT_CHOICES = (*ELEMENTS, "None")


class Stats(TypedDict):
    """The columns a boss and a trait row share."""

    element: Element
    health: float
    physical_damage: float
    physical_penetration: bool
    physical_resistance: bool
    magical_damage: float
    magical_penetration: bool
    magical_resistance: bool


def _stats(row: CsvRow, *, health_required: bool) -> Stats:
    def amount(key: str, minimum: float = 0) -> float:
        return row.number(key, minimum=minimum, maximum=MAX_STAT)

    health = amount("health")
    if health_required and health == 0:
        raise row.problem("health", "must be above 0")
    return {
        "element": cast(Element, row.choice("element", ELEMENT_CHOICES, blank="None")),  # one of ELEMENT_CHOICES
        "health": health,
        "physical_damage": amount("physical_damage"),
        "physical_penetration": row.flag("physical_penetration"),
        "physical_resistance": row.flag("physical_resistance"),
        "magical_damage": amount("magical_damage"),
        "magical_penetration": row.flag("magical_penetration"),
        "magical_resistance": row.flag("magical_resistance"),
    }


def _required_text(row: CsvRow, key: str, max_length: int = 100, *, collapse_spaces: bool = False) -> str:
    """The cell's text, checked; with `collapse_spaces`, runs of spaces become one before the length counts."""
    value = " ".join(row.text(key).split()) if collapse_spaces else row.text(key)
    if not value:
        raise row.problem(key, "is empty; every row needs one")
    if len(value) > max_length:
        raise row.problem(key, f"is {len(value)} characters long; the limit is {max_length}")
    if not value.isprintable():
        raise row.problem(key, NOT_ONE_LINE)
    return value


def parse_bosses(text: str, file: str = "bosses.csv") -> list[Boss]:
    table = read_csv(text, file, required=BOSS_COLUMNS, max_rows=MAX_ROSTER_ROWS)
    bosses: list[Boss] = []
    seen: dict[str, int] = {}
    for row in table.rows:
        name = _required_text(row, "name", collapse_spaces=True)
        if name_key(name) in seen:
            raise row.problem("name", f"'{name}' is already on row {seen[name_key(name)]}")
        seen[name_key(name)] = row.line
        level = row.number("level", minimum=0, maximum=MAX_STAT)
        bosses.append(Boss(name=name, level=level, **_stats(row, health_required=True)))
    return bosses


def parse_deck(text: str, file: str = "deck.csv") -> Deck:
    table = read_csv(text, file, required=DECK_COLUMNS, max_rows=MAX_DECK_ROWS)
    by_token: dict[str, list[TraitRow]] = {}
    first_line: dict[str, CsvRow] = {}
    for row in table.rows:
        token = _required_text(row, "token")
        trait = _required_text(row, "trait")
        stats = _stats(row, health_required=False)
        if token in by_token and by_token[token][0].element != stats["element"]:
            earlier = first_line[token]
            raise row.problem(
                "element",
                f"token '{token}' is {stats['element']} here but {by_token[token][0].element} on row "
                f"{earlier.line}; all rows of a token must name the same element",
            )
        by_token.setdefault(token, []).append(TraitRow(token=token, trait=trait, **stats))
        first_line.setdefault(token, row)
    tokens = tuple(Token(name=name, element=rows[0].element, traits=tuple(rows)) for name, rows in by_token.items())
    deck = Deck(tokens=tokens)
    if deck.health <= 0:
        raise RuleInputError(InputProblem("the deck's total health is 0; at least one trait needs health", file))
    return deck
