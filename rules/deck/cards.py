"""Cards, the cost formula, the set list, legal decks and the deck CSV format.

A card is ATK >= 0, DEF >= 1 and any of four keywords. Its cost is
ceil((ATK + DEF) / 2 + 1.5 * TAUNT + TRAMPLE + DISTORTION + FIRST_STRIKE) (RULINGS 5), and the set list is
every card that costs 1 to 8: 1192 cards with all keywords on. Switching a keyword off removes the cards
that carry it.

Deck CSV (one row per distinct card; headers case-insensitive):
    atk, def                                    required, whole numbers
    taunt, trample, distortion, first_strike    optional Y/N flags (blank = N)
    copies                                      optional, 1 or 2 (blank = 1)
    cost                                        optional; when given it must match the formula
A deck has exactly 30 cards and at most 2 copies of any card. The same card on two rows counts once
with both rows' copies.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from rules.csvio import CsvRow, read_csv, write_csv
from rules.errors import InputProblem, RuleInputError
from rules.text import plural

DECK_SIZE = 30
MAX_COPIES = 2
MIN_COST, MAX_COST = 1, 8
STARTING_LIFE = 20


class Keyword(Enum):
    """The four keywords; `bit` is the card's flag bit in the fast path's arrays."""

    TAUNT = ("taunt", "Taunt", 1)
    TRAMPLE = ("trample", "Trample", 2)
    DISTORTION = ("distortion", "Distortion", 4)
    FIRST_STRIKE = ("first_strike", "First Strike", 8)

    def __init__(self, column: str, title: str, bit: int):
        self.column = column
        self.title = title
        self.bit = bit


ALL_KEYWORDS: frozenset[Keyword] = frozenset(Keyword)
KEYWORDS: tuple[Keyword, ...] = tuple(Keyword)  # in Card's field order; iterating the Enum class is slow


@dataclass(frozen=True, order=True)
class Card:
    atk: int
    defense: int
    taunt: bool = False
    trample: bool = False
    distortion: bool = False
    first_strike: bool = False

    @property
    def cost(self) -> int:
        return card_cost(self.atk, self.defense, self.taunt, self.trample, self.distortion, self.first_strike)

    @property
    def keywords(self) -> tuple[Keyword, ...]:
        return tuple(k for k in KEYWORDS if getattr(self, k.column))

    @property
    def flags(self) -> int:
        return sum(k.bit for k in self.keywords)

    def has(self, keyword: Keyword) -> bool:
        return bool(getattr(self, keyword.column))

    @property
    def label(self) -> str:
        """Compact text: `5/3 Taunt+First Strike (6)`."""
        words = "+".join(k.title for k in self.keywords)
        return f"{self.atk}/{self.defense}{' ' + words if words else ''} ({self.cost})"


def card_cost(atk: int, defense: int, taunt: bool, trample: bool, distortion: bool, first_strike: bool) -> int:
    """ceil((ATK + DEF) / 2 + 1.5 T + Tr + Di + FS), in integers: twice the sum, rounded up after halving."""
    doubled = atk + defense + 3 * taunt + 2 * (trample + distortion + first_strike)
    return (doubled + 1) // 2


def set_list(keywords: Iterable[Keyword] = ALL_KEYWORDS) -> tuple[Card, ...]:
    """Every card with ATK >= 0, DEF >= 1, cost 1..8 and only the switched-on keywords, sorted by cost."""
    return _set_list(frozenset(keywords))


@functools.cache  # 16 keyword choices at most: each set list is built once
def _set_list(enabled: frozenset[Keyword]) -> tuple[Card, ...]:
    switched_off = sum(k.bit for k in KEYWORDS if k not in enabled)
    cards: list[Card] = []
    # cost <= 8 means ATK + DEF <= 16, so 0..16 covers every card
    for atk in range(2 * MAX_COST + 1):
        for defense in range(1, 2 * MAX_COST + 1):
            for mask in range(16):
                if mask & switched_off:
                    continue
                flags = [bool(mask & k.bit) for k in KEYWORDS]
                if MIN_COST <= card_cost(atk, defense, *flags) <= MAX_COST:
                    cards.append(Card(atk, defense, *flags))
    return tuple(sorted(cards, key=_card_order))


@dataclass(frozen=True)
class Deck:
    """30 cards, at most 2 copies of each, sorted by cost so equal decks compare equal."""

    cards: tuple[Card, ...]

    def __post_init__(self):
        problems = deck_problems(self.cards)
        if problems:
            raise RuleInputError(problems)
        object.__setattr__(self, "cards", tuple(sorted(self.cards, key=_card_order)))

    def counts(self) -> list[tuple[Card, int]]:
        """(card, copies) in cost order."""
        return sorted(Counter(self.cards).items(), key=lambda item: _card_order(item[0]))

    def keywords(self) -> frozenset[Keyword]:
        return frozenset(k for card in self.cards for k in card.keywords)

    def mean_cost(self) -> float:
        return sum(c.cost for c in self.cards) / len(self.cards)

    def compact(self) -> str:
        """One line per distinct card: `2x 5/3 Taunt (6)`."""
        return "\n".join(f"{n}x {card.label}" for card, n in self.counts())

    def to_csv(self) -> str:
        return write_csv(
            ["cost", "atk", "def", *(k.column for k in Keyword), "copies"],
            (
                [card.cost, card.atk, card.defense, *("Y" if card.has(k) else "N" for k in Keyword), n]
                for card, n in self.counts()
            ),
        )


def _card_order(card: Card) -> tuple[int, int, int, int]:
    return (card.cost, card.atk, card.defense, card.flags)


def deck_problems(cards: Sequence[Card]) -> list[InputProblem]:
    problems: list[InputProblem] = []
    if len(cards) != DECK_SIZE:
        problems.append(InputProblem(f"a deck has exactly {DECK_SIZE} cards; this one has {len(cards)}"))
    for card, n in Counter(cards).items():
        if n > MAX_COPIES:
            problems.append(InputProblem(f"{card.label} appears {n} times; at most {MAX_COPIES} copies are allowed"))
        if not MIN_COST <= card.cost <= MAX_COST:
            problems.append(InputProblem(f"{card.label} costs {card.cost}; costs run from {MIN_COST} to {MAX_COST}"))
    return problems


def random_deck(cards: Sequence[Card], rng: random.Random) -> Deck:
    """The document's draw: 30 random cards from the set list; a third copy is put back and redrawn."""
    if len(set(cards)) * MAX_COPIES < DECK_SIZE:
        raise RuleInputError(f"the set list has {len(set(cards))} cards, too few for a legal deck")
    counts: Counter[Card] = Counter()
    drawn: list[Card] = []
    while len(drawn) < DECK_SIZE:
        card = cards[rng.randrange(len(cards))]
        if counts[card] < MAX_COPIES:
            counts[card] += 1
            drawn.append(card)
    return Deck(tuple(drawn))


DECK_COLUMNS_REQUIRED = ("atk", "def")
DECK_COLUMNS_OPTIONAL = (*(k.column for k in Keyword), "copies", "cost")
MAX_DECK_ROWS = 200  # a legal deck needs at most 30 rows; more is refused before any work


def read_deck_csv(text: str, file: str, keywords: Iterable[Keyword] = ALL_KEYWORDS) -> Deck:
    """Parse and validate a deck; every problem names the file, the row and, where there is one, the column."""
    enabled = frozenset(keywords)
    table = read_csv(text, file, required=DECK_COLUMNS_REQUIRED, optional=DECK_COLUMNS_OPTIONAL, max_rows=MAX_DECK_ROWS)
    counts: Counter[Card] = Counter()
    for row in table.rows:
        card = _read_card(row, enabled)
        copies = int(row.number("copies", minimum=1, maximum=MAX_COPIES, integer=True, blank=1))
        counts[card] += copies
        if counts[card] > MAX_COPIES:
            raise row.problem(
                "copies" if "copies" in table.keys else None,
                f"brings {card.label} to {counts[card]} copies; at most {MAX_COPIES} are allowed",
            )
    total = sum(counts.values())
    if total != DECK_SIZE:
        raise RuleInputError(InputProblem(f"has {plural(total, 'card')}; a deck has exactly {DECK_SIZE}", file))
    return Deck(tuple(counts.elements()))


def _read_card(row: CsvRow, enabled: frozenset[Keyword]) -> Card:
    atk = int(row.number("atk", minimum=0, maximum=2 * MAX_COST, integer=True, blank=None))
    defense = int(row.number("def", minimum=1, maximum=2 * MAX_COST, integer=True, blank=None))
    flags: dict[str, bool] = {}
    for keyword in Keyword:
        flags[keyword.column] = row.flag(keyword.column)
        if flags[keyword.column] and keyword not in enabled:
            raise row.problem(keyword.column, f"{keyword.title} is switched off for this run")
    card = Card(atk, defense, **flags)
    if not MIN_COST <= card.cost <= MAX_COST:
        raise row.problem(None, f"{card.label} costs {card.cost}; the set list has costs {MIN_COST} to {MAX_COST}")
    written_cost = row.text("cost")
    if written_cost:
        cost = row.number("cost", integer=True)
        if cost != card.cost:
            raise row.problem("cost", f"says {cost} but the formula gives {card.cost} for {card.label}")
    return card
