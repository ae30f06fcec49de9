"""Reading user CSV files into located, validated cells, and writing CSV files a spreadsheet can open safely.

Headers are matched case-insensitively with surrounding spaces ignored; every error names the file, the
row (as a spreadsheet numbers it, header = 1) and the column.

Every CSV Arena writes goes through `write_csv` (or `formula_safe_csv`), which neutralizes the text cells a
spreadsheet would run as formulas (CSV injection): `=HYPERLINK(...)` is written `'=HYPERLINK(...)`, which a
spreadsheet shows as text. `read_csv` takes that `'` off again, so reading a file Arena wrote gives back
exactly the cells it was written from.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterable, Sequence
from os import PathLike
from typing import NamedTuple

from rules.errors import InputProblem, RuleInputError
from rules.text import format_number

# Why a name with a line break or a tab is refused: it would break the lines and tables that show it.
NOT_ONE_LINE = "holds a line break or another character that cannot be shown; a name is one line of text"
TRUE_WORDS = frozenset({"y", "yes", "true", "1"})
FALSE_WORDS = frozenset({"n", "no", "false", "0"})

# The first characters that make a spreadsheet read a cell as a formula (OWASP's list for CSV injection).
FORMULA_STARTS = frozenset("=+-@\t\r")
# A number as Arena writes one (format_number, repr): a spreadsheet reads it as a number, never as a formula.
_NUMBER = re.compile(r"-?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def formula_safe(cell: str) -> str:
    """`cell` as written to a CSV: a text cell a spreadsheet would run as a formula gets a leading `'`. So does
    a cell that already looks neutralized (`'` before such a character), so that `from_formula_safe` gives
    back every cell as it was, a name that starts with an apostrophe too. Numbers, negative ones included,
    stay as they are."""
    if cell.lstrip("'")[:1] in FORMULA_STARTS and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def from_formula_safe(cell: str) -> str:
    """The cell `formula_safe` was given: the one `'` it added, before a formula's first character (after any
    apostrophes of the cell's own), comes off; every other cell is left as it is."""
    if cell[:1] == "'" and cell.lstrip("'")[:1] in FORMULA_STARTS:
        return cell[1:]
    return cell


def normalize_header(name: str) -> str:
    return name.strip().lower()


class CsvRow(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """One data row; cells are looked up by normalized header name."""

    file: str
    line: int
    cells: dict[str, str]  # stripped
    raw: tuple[str, ...]
    headers: tuple[str, ...]  # as written in the file, for messages

    def _column_label(self, key: str) -> str:
        for header in self.headers:
            if normalize_header(header) == key:
                return header.strip()
        return key

    def problem(self, key: str | None, message: str) -> RuleInputError:
        column = self._column_label(key) if key is not None else None
        return RuleInputError(InputProblem(message, self.file, self.line, column))

    def text(self, key: str) -> str:
        return self.cells.get(key, "")

    def number(
        self,
        key: str,
        *,
        minimum: float | None = None,
        maximum: float | None = None,
        integer: bool = False,
        blank: float | None = 0,
    ) -> float:
        """A finite number; `blank` is the value of an empty cell (None makes an empty cell an error)."""
        raw = self.cells.get(key, "")  # not self.text(key): a roster of 20,000 fighters reads 140,000 numbers
        if raw == "":
            if blank is None:
                raise self.problem(key, "is empty; a number is needed here")
            return blank
        try:
            value = float(raw)
        except ValueError:
            raise self.problem(key, f"'{raw}' is not a number") from None
        if not math.isfinite(value):
            raise self.problem(key, f"'{raw}' is not a finite number")
        if integer and not value.is_integer():
            raise self.problem(key, f"'{raw}' is not a whole number")
        if minimum is not None and value < minimum:
            raise self.problem(key, f"{raw} is below the smallest allowed value, {format_number(minimum)}")
        if maximum is not None and value > maximum:
            raise self.problem(key, f"{raw} is above the largest allowed value, {format_number(maximum)}")
        return int(value) if integer else value

    def flag(self, key: str, *, blank: bool | None = False) -> bool:
        """A yes/no cell: Y/N, yes/no, true/false or 1/0 in any case."""
        raw = self.text(key)
        word = raw.lower()
        if word == "" and blank is not None:
            return blank
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
        raise self.problem(key, f"'{raw}' is not a yes/no flag; use Y or N (also yes/no, true/false, 1/0)")

    def choice(self, key: str, options: Sequence[str], *, blank: str | None = None) -> str:
        """One of `options`, matched case-insensitively and returned as spelled in `options`."""
        raw = self.text(key)
        if raw == "" and blank is not None:
            return blank
        for option in options:
            if option.lower() == raw.lower():
                return option
        raise self.problem(key, f"'{raw}' is not one of {', '.join(options)}")


class CsvTable(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    file: str
    headers: tuple[str, ...]  # as written
    keys: tuple[str, ...]  # normalized
    rows: tuple[CsvRow, ...]


def read_csv(
    text: str,
    file: str,
    *,
    required: Iterable[str],
    optional: Iterable[str] = (),
    allow_extra: bool = False,
    max_rows: int | None = None,
) -> CsvTable:
    """Parse CSV text with a header row; columns are checked by normalized name.

    Blank lines are skipped. `max_rows` refuses a larger file with the limit stated.
    """
    text = text.removeprefix("\ufeff")
    headers, keys, data = _checked_records(text, file, required, optional, allow_extra, max_rows)
    rows: list[CsvRow] = []
    header_cells = tuple(headers)
    # A file with no apostrophe and no unnamed column (the common case) maps keys to stripped cells directly:
    # a roster of 20,000 fighters has 260,000 cells.
    plain = "'" not in text and "" not in keys
    for line, values in data:
        if plain:
            cells = dict(zip(keys, map(str.strip, values)))
        else:
            cells = {key: (from_formula_safe(v) if v[:1] == "'" else v).strip() for key, v in zip(keys, values) if key}
        rows.append(CsvRow(file, line, cells, tuple(values), header_cells))
    return CsvTable(file, header_cells, keys, tuple(rows))


class CsvColumns(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """A table read a column at a time (see `read_csv_columns`); `row` gives any row as `read_csv` does."""

    file: str
    headers: tuple[str, ...]  # as written
    keys: tuple[str, ...]  # normalized
    lines: tuple[int, ...]  # each data row's row number
    records: tuple[list[str], ...]  # each data row's cells as written
    columns: dict[str, list[str]]  # each column's cells, stripped ("" where a row is short)

    def column(self, key: str) -> list[str]:
        """The column's stripped cells; all blank for a column the file does not have."""
        found = self.columns.get(key)
        return found if found is not None else [""] * len(self.lines)

    def row(self, index: int) -> CsvRow:
        values = self.records[index]
        cells = dict(zip(self.keys, map(str.strip, values)))
        return CsvRow(self.file, self.lines[index], cells, tuple(values), self.headers)


def read_csv_columns(
    text: str,
    file: str,
    *,
    required: Iterable[str],
    optional: Iterable[str] = (),
    allow_extra: bool = False,
    max_rows: int | None = None,
) -> CsvColumns | None:
    """What `read_csv` reads (with the same checks and errors), a column at a time: for large files whose rows
    are checked column by column. None for a file with a cell starting with an apostrophe or an unnamed
    column, which `read_csv` reads."""
    text = text.removeprefix("\ufeff")
    headers, keys, data = _checked_records(text, file, required, optional, allow_extra, max_rows)
    if "'" in text or "" in keys:
        return None
    width = len(keys)
    records = tuple(values for _, values in data)
    full = [values if len(values) >= width else values + [""] * (width - len(values)) for values in records]
    columns = {key: list(map(str.strip, cells)) for key, cells in zip(keys, zip(*full))}
    return CsvColumns(file, tuple(headers), keys, tuple(line for line, _ in data), records, columns)


def _checked_records(
    text: str, file: str, required: Iterable[str], optional: Iterable[str], allow_extra: bool, max_rows: int | None
) -> tuple[list[str], tuple[str, ...], list[tuple[int, list[str]]]]:
    """The header (as written, and normalized) and the data records with their row numbers, checked: the
    columns, the number of rows, and no row longer than the header."""
    required = [normalize_header(c) for c in required]
    known = set(required) | {normalize_header(c) for c in optional}
    lines = [(n, row) for n, row in _records(text, file) if any(map(str.strip, row))]
    if not lines:
        raise RuleInputError(InputProblem("is empty; a header row and at least one data row are needed", file))
    header_line, headers = lines[0]
    headers = [from_formula_safe(h) for h in headers]
    keys = tuple(normalize_header(h) for h in headers)
    seen: set[str] = set()
    for key, header in zip(keys, headers):
        if key == "":
            continue
        if key in seen:
            raise RuleInputError(InputProblem(f"column '{header.strip()}' appears twice", file, header_line))
        seen.add(key)
        if not allow_extra and key not in known:
            expected = ", ".join(required + sorted(known - set(required)))
            raise RuleInputError(
                InputProblem(f"unknown column '{header.strip()}'; the columns are: {expected}", file, header_line)
            )
    missing = [c for c in required if c not in seen]
    if missing:
        raise RuleInputError(
            InputProblem(f"missing column(s): {', '.join(missing)}; the header row must name them", file, header_line)
        )
    data = lines[1:]
    if not data:
        raise RuleInputError(InputProblem("has a header but no data rows", file))
    if max_rows is not None and len(data) > max_rows:
        raise RuleInputError(InputProblem(f"has {len(data)} rows; the limit is {max_rows}", file))
    width = len(headers)
    for line, values in data:
        if len(values) > width and any(v.strip() for v in values[width:]):
            raise RuleInputError(
                InputProblem(f"has {len(values)} cells but the header has {width} columns", file, line)
            )
    return headers, keys, data


def _records(text: str, file: str) -> list[tuple[int, list[str]]]:
    """Each record with its row number as a spreadsheet shows it (a cell holding a line break does not make two
    rows, a blank line is a row); a quote left open is an error at the row where it opens."""
    reader = csv.reader(io.StringIO(text, newline=""), skipinitialspace=True)
    records: list[tuple[int, list[str]]] = []
    next_line = last_line = 1  # the file's lines where the next and the last record start
    try:
        for number, row in enumerate(reader, start=1):
            records.append((number, row))
            last_line, next_line = next_line, reader.line_num + 1
    except csv.Error as exc:
        raise RuleInputError(InputProblem(f"is not valid CSV ({exc})", file, len(records) + 1)) from None
    # A quote that is never closed swallows the rest of the file into the last record's last cell, which
    # the lenient reader accepts; a strict reader of that record alone tells it from a closed quote.
    if records:
        tail = "".join(io.StringIO(text, newline="").readlines()[last_line - 1 :])
        try:
            for _ in csv.reader(io.StringIO(tail, newline=""), skipinitialspace=True, strict=True):
                pass
        except csv.Error as exc:
            if "end of data" in str(exc):
                raise RuleInputError(
                    InputProblem(
                        'has a quote (") that opens here and is never closed; close it, or remove it',
                        file,
                        records[-1][0],
                    )
                ) from None
    return records


MAX_FILE_MIB = 32  # what the command line reads of a file: more than any roster the engines take


def read_text_file(path: str | PathLike[str], limit_mib: int = MAX_FILE_MIB) -> str:
    """A UTF-8 text file (with or without a byte-order mark) for the command line; a problem is a RuleInputError.
    At most `limit_mib` MiB are read, so a huge file (or /dev/zero) is refused at once instead of filling memory."""
    limit = limit_mib * 1024 * 1024
    try:
        with open(path, "rb") as file:
            data = file.read(limit + 1)
    except FileNotFoundError:
        raise RuleInputError(InputProblem("file not found", str(path))) from None
    except OSError as exc:
        raise RuleInputError(f"cannot read {path}: {exc.strerror}") from None
    if len(data) > limit:
        raise RuleInputError(
            InputProblem(f"is larger than {limit_mib} MiB, the most the command line reads", str(path))
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RuleInputError(f"{path} is not UTF-8 text (byte {exc.start}); save it as 'CSV UTF-8'") from None


def write_csv(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """CSV text of `headers` and `rows`; floats as `format_number` writes them, text cells `formula_safe`."""
    return _write_records([headers, *rows])


def _write_records(records: Iterable[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    # csv quotes a cell holding a line break only when the break is in its line terminator: a record with a
    # "\r" in a cell is written all quoted, so that it reads back as one record
    quoting_all = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    for record in records:
        cells = [_written(cell) for cell in record]
        (quoting_all if any(isinstance(c, str) and "\r" in c for c in cells) else writer).writerow(cells)
    return out.getvalue()


def _written(cell: object) -> object:
    if isinstance(cell, str):
        return formula_safe(cell)
    if isinstance(cell, float):
        return format_number(cell)
    return cell  # an int (or a bool, None): csv writes it as it is, a number never a formula


def formula_safe_csv(text: str, file: str) -> str:
    """A user's CSV text as it may be handed back for a spreadsheet: `text` itself when no cell would run as a
    formula, else its records written again with those cells neutralized (`read_csv` reads both the same)."""
    records = [cells for _, cells in _records(text.removeprefix("\ufeff"), file)]
    if all(formula_safe(from_formula_safe(cell)) == cell for cells in records for cell in cells):
        return text
    return _write_records([[from_formula_safe(cell) for cell in cells] for cells in records])
