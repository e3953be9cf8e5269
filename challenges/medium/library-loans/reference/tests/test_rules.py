"""Tests for the pure lending rules."""

from datetime import date

import pytest

from library import rules


def test_due_after() -> None:
    assert rules.due_after(date(2024, 2, 20)) == date(2024, 3, 5)


@pytest.mark.parametrize("returned,fine", [(date(2024, 1, 10), 0), (date(2024, 1, 9), 0),
                                           (date(2024, 1, 11), 25), (date(2024, 3, 1), 1000)])
def test_fine_for(returned: date, fine: int) -> None:
    assert rules.fine_for(date(2024, 1, 10), returned) == fine
