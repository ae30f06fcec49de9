"""Typed data of Marked for Death: fighters, rosters, derived stats, results and the stored battle state.

Everything here is plain data, and how a roster's warnings read. `BattleState` round-trips through JSON
(`to_json` / `from_json`) so a channel's battle survives a restart and can be continued with the same
random stream.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Any, NamedTuple, TypedDict

from rules.errors import InputProblem

if TYPE_CHECKING:
    from rules.contract import Outcome

SIDES = ("Heroes", "Villains")

# The document's constants.
BASE_HP = 2
BASE_TO_HIT = 0.3
BASE_TO_DEFEND = 0.3
MIN_TO_HIT = 0.05
MAX_TO_HIT = 0.99
MIN_TO_DEFEND = 0.0
MAX_TO_DEFEND = 0.90
EXHAUSTION_PENALTY = 0.1
XP_PER_DIE = 1000

MAX_ROWS_LISTED = 5  # row ranges named in a warning of one kind


class Buff(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """One 4-column buff group of a fighter: it adds `offense`/`defense` to everyone named in `who`."""

    name: str
    who: tuple[str, ...]
    offense: float = 0.0
    defense: float = 0.0


class Fighter(NamedTuple):  # a tuple: made at a third of a frozen dataclass's cost, 4-5 ms of two rosters of 2000
    """One CSV row as the engine uses it. `hp` is the current HP (2 + BonusHP at the start)."""

    name: str
    xp: float
    hp: float
    bonus_xp: float = 0.0
    bonus_hp: float = 0.0
    bonus_to_hit: float = 0.0
    bonus_to_defend: float = 0.0
    aoe: int = 1
    bodyguard_for: str = ""
    linked_to: str = ""
    buffs: tuple[Buff, ...] = ()

    @property
    def total_xp(self) -> float:
        return self.xp + self.bonus_xp


class UnknownName(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """A name in BuffWho, BodyguardFor or LinkedTo that is no one on the side: ignored, and a warning."""

    file: str
    row: int
    column: str  # as the header writes it
    name: str
    named_by: str  # "BodyguardFor", "LinkedTo" or "buff 'Rally'"

    @property
    def message(self) -> str:
        return f"{self.named_by} names '{self.name}', who is not in this file; ignored"


def _row_list(rows: list[int]) -> str:
    """Rows as ranges, e.g. `2, 5, 9–12`, the first few only."""
    ranges: list[list[int]] = []
    for row in rows:
        if ranges and row == ranges[-1][1] + 1:
            ranges[-1][1] = row
        else:
            ranges.append([row, row])
    shown = [str(a) if a == b else f"{a}–{b}" for a, b in ranges[:MAX_ROWS_LISTED]]
    return ", ".join(shown) + (", …" if len(ranges) > MAX_ROWS_LISTED else "")


def name_warnings(unknown: tuple[UnknownName, ...]) -> tuple[InputProblem, ...]:
    """One warning per kind (the same name, named by the same thing, in one column of one file), in the order
    the kinds first occur; a kind found on several rows says how many and which."""
    kinds: dict[tuple[str, str, str], list[int]] = {}
    for u in unknown:
        kinds.setdefault((u.file, u.column, u.message), []).append(u.row)
    warnings: list[InputProblem] = []
    for (file, column, message), rows in kinds.items():
        if len(rows) == 1:
            warnings.append(InputProblem(message, file, rows[0], column))
        else:
            warnings.append(InputProblem(f"{message} ({len(rows)} rows: {_row_list(rows)})", file, None, column))
    return tuple(warnings)


class Roster(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """One side's fighters in name order (see `name_order`), with the file they came from.

    `unknown_names` are the names its file refers to that are no one on the side, one per row and column;
    `warnings` tells them to a user. `buff_groups` is the number of buff groups in the file's header, which
    the final CSV keeps (see `roster.final_csv`).
    """

    side: str
    file: str
    fighters: tuple[Fighter, ...]
    unknown_names: tuple[UnknownName, ...] = ()
    buff_groups: int = 0

    @property
    def warnings(self) -> tuple[InputProblem, ...]:
        return name_warnings(self.unknown_names)

    def ignoring_names(self, names: frozenset[str]) -> Roster:
        """The roster without its unknown names that are in `names` (e.g. fighters who fell in its battle)."""
        return self._replace(unknown_names=tuple(u for u in self.unknown_names if u.name not in names))


def name_order(name: str) -> tuple[str, str]:
    """The order fighters act in and are listed in: alphabetical, ignoring case, ties by exact spelling."""
    return (name.casefold(), name)


class DerivedStats(NamedTuple):  # a tuple: the log builds one per fighter, and tuples build fastest
    """The four numbers a fighter fights with in a round, and what they came from."""

    name: str
    hp: float
    total_xp: float
    base_dice: int
    raw_to_hit: float
    raw_to_defend: float
    to_hit: float
    to_defend: float
    offense_dice: int
    defense_dice: int
    aoe: int
    bodyguard_for: str
    linked_to: str


class Ending(StrEnum):
    """How a run ended; the values are what storage keeps (the battle's `outcome` column and stored state)."""

    HEROES_WIN = "heroes"
    VILLAINS_WIN = "villains"
    DRAW = "draw"  # both sides fell in the same round
    ROUND_LIMIT = "round_limit"  # both sides still stand: the battle goes on


if TYPE_CHECKING:  # the contract's classes are imported when an outcome is made: a command line's run needs none
    BattleOutcome = Outcome[Ending]  # the contract's outcome: the winner is a side's index in SIDES

_WINNERS = {Ending.HEROES_WIN: 0, Ending.VILLAINS_WIN: 1, Ending.DRAW: None}


def battle_outcome(ending: Ending) -> BattleOutcome | None:
    """None while the battle goes on (the run stopped with both sides standing); else the side that won (None:
    a draw) and how the battle ended."""
    if ending is Ending.ROUND_LIMIT:
        return None
    from rules.contract import Outcome

    return Outcome(_WINNERS[ending], ending)


class Casualty(NamedTuple):  # a tuple: a large battle makes thousands, and tuples build fastest
    side: str
    name: str
    round: int
    linked_to: str = ""  # the fighter whose death took this one with it; "" when killed by an attack


class BattleResult(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """A battle run: the survivors of each side (their current HP and exhaustion) and who fell when."""

    heroes: Roster
    villains: Roster
    ending: Ending
    first_round: int
    last_round: int  # the last round fought (first_round - 1 when none was)
    fallen: tuple[Casualty, ...]
    safety_stop: str = ""  # the safety limit that stopped the run, e.g. "the safety limit of 1,000 rounds a run"

    @property
    def rounds_fought(self) -> int:
        return self.last_round - self.first_round + 1

    def outcome(self) -> BattleOutcome | None:
        return battle_outcome(self.ending)


class OddsResult(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """Monte-Carlo battles from the same start: counts, rounds per battle and each fighter's survivals."""

    battles: int
    heroes_wins: int
    villains_wins: int
    draws: int
    unfinished: int  # stopped at the round limit with both sides standing
    rounds_histogram: dict[int, int]  # rounds fought -> number of battles
    hero_names: tuple[str, ...]
    hero_survivals: tuple[int, ...]  # battles each hero was alive at the end of
    villain_names: tuple[str, ...]
    villain_survivals: tuple[int, ...]
    max_rounds: int
    seed: int


class PCG64Counter(TypedDict):
    state: int
    inc: int


class RngState(TypedDict):
    """numpy's PCG64 generator state, as `PCG64.state` gives and takes it (plain JSON data)."""

    bit_generator: str
    state: PCG64Counter
    has_uint32: int
    uinteger: int


class BattleCurve(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """Each side's fighters standing and total HP, point by point, for the battle chart: before a run's first
    round (the rosters it fought with) and after each of its rounds. A battle's curve is its runs' curves one
    after the other (`then`), so a side replaced between runs shows as two points at the same round."""

    rounds: tuple[int, ...] = ()
    standing: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())  # heroes, villains
    hp: tuple[tuple[float, ...], tuple[float, ...]] = ((), ())

    def point(self, index: int) -> tuple[int, int, int, float, float]:
        return (
            self.rounds[index],
            self.standing[0][index],
            self.standing[1][index],
            self.hp[0][index],
            self.hp[1][index],
        )

    def then(self, later: BattleCurve) -> BattleCurve:
        """This curve followed by `later`'s points. A run that goes on from where this curve stands repeats
        its last point first: that point is dropped, so fighting on gives the curve of having run on."""
        skip = 1 if self.rounds and later.rounds and self.point(-1) == later.point(0) else 0
        return BattleCurve(
            self.rounds + later.rounds[skip:],
            (self.standing[0] + later.standing[0][skip:], self.standing[1] + later.standing[1][skip:]),
            (self.hp[0] + later.hp[0][skip:], self.hp[1] + later.hp[1][skip:]),
        )

    @classmethod
    def from_plain(cls, data: dict[str, Any]) -> BattleCurve:
        heroes_standing, villains_standing = data["standing"]
        heroes_hp, villains_hp = data["hp"]
        return cls(
            tuple(data["rounds"]),
            (tuple(heroes_standing), tuple(villains_standing)),
            (tuple(heroes_hp), tuple(villains_hp)),
        )


class BattleState(NamedTuple):  # a tuple: its class costs a command line's start 0.6 ms less than a dataclass's
    """A channel's battle between runs: both sides as they stand, the rounds fought so far, who fell,
    the random generator's state so that continuing is the same as having run on, and the curve of every
    run so far (the chart shows the whole battle; a state stored before it was kept has none, and its chart
    starts at the next run)."""

    heroes: Roster
    villains: Roster
    rounds_fought: int
    seed: int
    rng_state: RngState
    ending: Ending  # of the last run
    fallen: tuple[Casualty, ...] = ()
    history: BattleCurve = BattleCurve()

    @property
    def over(self) -> bool:
        return self.outcome() is not None

    def outcome(self) -> BattleOutcome | None:
        return battle_outcome(self.ending)

    def fallen_names(self, side: str) -> frozenset[str]:
        """The names of everyone of `side` who fell in this battle, in any run."""
        return frozenset(c.name for c in self.fallen if c.side == side)

    def to_json(self) -> str:
        import json  # here: the command line, which never stores a battle, is spared its import

        return json.dumps(self.to_dict(), separators=(",", ":"))

    def to_dict(self) -> dict[str, Any]:
        """The state as plain data (the stored form, which storage.mfd's codec versions and compresses)."""
        # The stored form names the ending `outcome`, in the same place as ever.
        data = {("outcome" if key == "ending" else key): value for key, value in _plain(self).items()}
        data["outcome"] = self.ending.value
        for side in ("heroes", "villains"):
            data[side]["unknown_names"] = []  # warnings belong to the upload that produced them
        return data

    @classmethod
    def from_json(cls, text: str) -> BattleState:
        import json

        return cls.from_dict(json.loads(text))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BattleState:

        def fighter(f: dict[str, Any]) -> Fighter:
            buffs = tuple(Buff(b["name"], tuple(b["who"]), b["offense"], b["defense"]) for b in f["buffs"])
            fields: dict[str, Any] = {**f, "buffs": buffs}
            return Fighter(**fields)

        def roster(d: dict[str, Any]) -> Roster:
            fighters = tuple(fighter(f) for f in d["fighters"])
            # States stored before `buff_groups` existed have none: their files get the fighters' groups.
            return Roster(d["side"], d["file"], fighters, buff_groups=d.get("buff_groups", 0))

        return cls(
            heroes=roster(data["heroes"]),
            villains=roster(data["villains"]),
            rounds_fought=data["rounds_fought"],
            seed=data["seed"],
            rng_state=data["rng_state"],
            ending=Ending(data["outcome"]),
            fallen=tuple(Casualty(**c) for c in data["fallen"]),
            history=BattleCurve.from_plain(data["history"]) if "history" in data else BattleCurve(),
        )


def _plain(value: Any) -> Any:
    """What `dataclasses.asdict` gives for this module's data (dataclasses and its NamedTuples as dicts, tuples,
    dicts, plain values), without its deep copy of every value: a stored battle can hold 40,000 fighters."""
    if is_dataclass(value) and not isinstance(value, type):
        return {name: _plain(getattr(value, name)) for name in _field_names(type(value))}
    # this module's NamedTuples: dicts too, not lists
    if isinstance(value, Fighter | Buff | UnknownName | Roster | Casualty | BattleCurve | BattleState):
        return {name: _plain(item) for name, item in value._asdict().items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]  # pyright: ignore[reportUnknownVariableType]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}  # pyright: ignore[reportUnknownVariableType]
    return value


@cache
def _field_names(kind: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(kind))
