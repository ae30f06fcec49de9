"""The one error type every engine raises for a user's mistake."""

from __future__ import annotations

from typing import NamedTuple


class InputProblem(NamedTuple):  # a tuple: its class costs a command line's start less than a dataclass's
    """One thing wrong with a user's input, located as precisely as the input allows."""

    message: str
    file: str | None = None
    row: int | None = None  # line number in the file as a spreadsheet shows it (header = 1)
    column: str | None = None

    def __str__(self) -> str:
        where: list[str] = []
        if self.file:
            where.append(self.file)
        if self.row is not None:
            where.append(f"row {self.row}")
        if self.column:
            where.append(f"column '{self.column}'")
        return f"{', '.join(where)}: {self.message}" if where else self.message


class RuleInputError(ValueError):
    """Bad input from a user. Its text is safe and meant to be shown to that user as it is."""

    def __init__(self, problems: InputProblem | str | list[InputProblem]):
        if isinstance(problems, (str, InputProblem)):
            problems = [problems if isinstance(problems, InputProblem) else InputProblem(problems)]
        self.problems: tuple[InputProblem, ...] = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
