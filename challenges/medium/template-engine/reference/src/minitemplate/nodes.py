"""Syntax-tree node types produced by the parser and consumed by the renderer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class Expr:
    """Base class of expression nodes."""


@dataclass(frozen=True)
class Literal(Expr):
    """A constant: string, int, float, bool or None."""

    value: Any


@dataclass(frozen=True)
class Lookup(Expr):
    """A variable with optional dotted segments, e.g. ``user.address.city``."""

    name: str
    attrs: tuple[str, ...] = ()


@dataclass(frozen=True)
class FilterCall(Expr):
    """``value | name(args...)``."""

    value: Expr
    name: str
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Compare(Expr):
    """A single binary comparison ``left op right``."""

    left: Expr
    op: str
    right: Expr


@dataclass(frozen=True)
class And(Expr):
    """``left and right`` (Python semantics: returns an operand)."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Or(Expr):
    """``left or right`` (Python semantics: returns an operand)."""

    left: Expr
    right: Expr


@dataclass(frozen=True)
class Not(Expr):
    """``not operand`` (returns a bool)."""

    operand: Expr


class Node:
    """Base class of template (statement) nodes."""


@dataclass(frozen=True)
class Text(Node):
    """Literal template text, output verbatim."""

    text: str


@dataclass(frozen=True)
class Output(Node):
    """``{{ expr }}``."""

    expr: Expr


@dataclass(frozen=True)
class If(Node):
    """``if``/``elif`` branches (condition, body) plus the ``else`` body."""

    branches: tuple[tuple[Expr, tuple[Node, ...]], ...]
    else_body: tuple[Node, ...] = ()


@dataclass(frozen=True)
class For(Node):
    """``{% for target in iterable %}body{% endfor %}``."""

    target: str
    iterable: Expr
    body: tuple[Node, ...]
