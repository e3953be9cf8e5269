import pytest

import calc


def test_add():
    assert calc.add(-2, 7) == 5


def test_add_floats():
    assert calc.add(0.5, 0.25) == 0.75


def test_sub():
    assert calc.sub(10, 4) == 6


def test_sub_negative():
    assert calc.sub(-1, -1) == 0


def test_mul():
    assert calc.mul(-3, 4) == -12


def test_div():
    assert calc.div(9, 3) == 3


def test_div_fraction():
    assert calc.div(1, 4) == 0.25


def test_div_by_zero():
    with pytest.raises(ZeroDivisionError):
        calc.div(5, 0)


def test_power():
    assert calc.power(3, 4) == 81


def test_power_zero():
    assert calc.power(7, 0) == 1
