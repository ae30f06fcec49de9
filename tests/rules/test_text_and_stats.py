"""The shared number formatter, plural and the one Wilson interval."""

import pytest

from rules.stats import wilson_interval
from rules.text import format_number, plural


def test_numbers_are_written_as_a_person_writes_them():
    assert [format_number(v) for v in (1000.0, 333.3 + 333.3, 0.1 + 0.2, 2.5e16, 1e15 + 0.5, -3.0)] == [
        "1000",
        "666.6",
        "0.3",
        "25000000000000000",
        "1.000e+15",
        "-3",
    ]


def test_plural_reads_correctly_at_one_and_otherwise():
    assert [plural(n, "attack") for n in (0, 1, 2, 1500)] == ["0 attacks", "1 attack", "2 attacks", "1,500 attacks"]
    assert (plural(1, "boss", "bosses"), plural(3, "boss", "bosses")) == ("1 boss", "3 bosses")


def test_wilson_interval():
    low, high = wilson_interval(50, 100)
    assert (round(low, 4), round(high, 4)) == (0.4038, 0.5962)
    low, high = wilson_interval(500, 1000)
    assert low == pytest.approx(0.469, abs=1e-3) and high == pytest.approx(0.531, abs=1e-3)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    # The interval always holds the rate itself, even where rounding would put an end past it (10 of 10).
    for trials in range(1, 400):
        for successes in (0, 1, trials - 1, trials):
            low, high = wilson_interval(successes, trials)
            assert 0 <= low <= successes / trials <= high <= 1
