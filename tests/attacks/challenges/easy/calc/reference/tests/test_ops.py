import pytest

from calc import add, div, mul, power, sub


def test_add():
    assert add(2, 3) == 5


def test_sub():
    assert sub(2, 3) == -1


def test_mul():
    assert mul(2, 3) == 6


def test_div():
    assert div(6, 3) == 2
    with pytest.raises(ZeroDivisionError):
        div(1, 0)


def test_power():
    assert power(2, 10) == 1024
