"""Reading user CSV files into located, validated cells.

Headers are matched case-insensitively with surrounding spaces ignored; every error names the file, the
row (as a spreadsheet numbers it, header = 1) and the column.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rules.errors import InputProblem, RuleInputError
from rules.text import format_number

# Why a name with a line break or a tab is refused: it would break the lines and tables that show it.
NOT_ONE_LINE = "holds a line break or another character that cannot be shown; a name is one line of text"
TRUE_WORDS = frozenset({"y", "yes", "true", "1"})
FALSE_WORDS = frozenset({"n", "no", "false", "0"})


def normalize_header(name: str) -> str:
    return name.strip().lower()


@dataclass(frozen=True)
class CsvRow:
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


@dataclass(frozen=True)
class CsvTable:
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
    required = [normalize_header(c) for c in required]
    known = set(required) | {normalize_header(c) for c in optional}
    lines = [(n, row) for n, row in _records(text, file) if any(cell.strip() for cell in row)]
    if not lines:
        raise RuleInputError(InputProblem("is empty; a header row and at least one data row are needed", file))
    header_line, headers = lines[0]
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
    rows: list[CsvRow] = []
    for line, values in data:
        if len(values) > len(headers) and any(v.strip() for v in values[len(headers) :]):
            raise RuleInputError(
                InputProblem(f"has {len(values)} cells but the header has {len(headers)} columns", file, line)
            )
        cells = {key: value.strip() for key, value in zip(keys, values) if key}
        rows.append(CsvRow(file, line, cells, tuple(values), tuple(headers)))
    return CsvTable(file, tuple(headers), keys, tuple(rows))


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


def read_text_file(path: Path, limit_mib: int = MAX_FILE_MIB) -> str:
    """A UTF-8 text file (with or without a byte-order mark) for the command line; a problem is a RuleInputError.
    At most `limit_mib` MiB are read, so a huge file (or /dev/zero) is refused at once instead of filling memory."""
    limit = limit_mib * 1024 * 1024
    try:
        with path.open("rb") as file:
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
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(headers)
    for row in rows:
        writer.writerow([format_number(v) if isinstance(v, float) else v for v in row])
    return out.getvalue()
