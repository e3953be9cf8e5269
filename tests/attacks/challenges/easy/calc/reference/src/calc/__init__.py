"""A tiny calculator."""

from calc.ops import add, div, mul, power, sub

__all__ = ["add", "div", "mul", "power", "sub"]
