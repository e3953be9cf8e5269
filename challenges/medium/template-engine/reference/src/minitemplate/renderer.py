"""Rendering: evaluate a node tree against a context."""

from __future__ import annotations

import operator
from collections import ChainMap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import TemplateRenderError
from .filters import FILTERS
from .markup import escape, to_text
from .nodes import And, Compare, Expr, FilterCall, For, If, Literal, Lookup, Node, Not, Or, Output, Text

Scope = ChainMap[str, Any]

_COMPARATORS: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


@dataclass(frozen=True)
class LoopInfo:
    """The ``loop`` variable available inside a ``for`` body."""

    index: int
    index0: int
    first: bool
    last: bool
    length: int


def lookup_attr(value: Any, name: str) -> Any:
    """Resolve one dotted segment: mapping key first, then attribute; otherwise ``None``."""
    if isinstance(value, Mapping) and name in value:
        return value[name]
    if value is None or name.startswith("_"):
        return None
    return getattr(value, name, None)


def compare(op: str, left: Any, right: Any) -> bool:
    """Apply a comparison; ordering of incomparable values is simply false."""
    try:
        return bool(_COMPARATORS[op](left, right))
    except TypeError:
        return False


class Renderer:
    """Renders nodes to text; ``autoescape`` controls escaping of ``{{ }}`` output."""

    def __init__(self, autoescape: bool = True) -> None:
        self.autoescape = autoescape

    def render(self, nodes: Iterable[Node], context: Mapping[str, Any]) -> str:
        """Return the text produced by ``nodes`` with ``context`` as the variables."""
        out: list[str] = []
        self._render_nodes(nodes, ChainMap(dict(context)), out)
        return "".join(out)

    def _render_nodes(self, nodes: Iterable[Node], scope: Scope, out: list[str]) -> None:
        for node in nodes:
            _NODE_HANDLERS[type(node)](self, node, scope, out)

    def _text(self, node: Text, scope: Scope, out: list[str]) -> None:
        out.append(node.text)

    def _output(self, node: Output, scope: Scope, out: list[str]) -> None:
        value = evaluate(node.expr, scope)
        out.append(escape(value) if self.autoescape else to_text(value))

    def _if(self, node: If, scope: Scope, out: list[str]) -> None:
        for condition, body in node.branches:
            if evaluate(condition, scope):
                self._render_nodes(body, scope, out)
                return
        self._render_nodes(node.else_body, scope, out)

    def _for(self, node: For, scope: Scope, out: list[str]) -> None:
        items = _materialize(evaluate(node.iterable, scope))
        count = len(items)
        for index0, item in enumerate(items):
            loop = LoopInfo(index0 + 1, index0, index0 == 0, index0 == count - 1, count)
            self._render_nodes(node.body, scope.new_child({node.target: item, "loop": loop}), out)


_NODE_HANDLERS: dict[type, Callable[..., None]] = {
    Text: Renderer._text,
    Output: Renderer._output,
    If: Renderer._if,
    For: Renderer._for,
}


def _materialize(value: Any) -> list[Any]:
    if value is None:
        return []
    try:
        return list(value)
    except TypeError:
        raise TemplateRenderError(f"cannot iterate over {type(value).__name__}") from None


def _eval_lookup(expr: Lookup, scope: Scope) -> Any:
    value = scope.get(expr.name)
    for name in expr.attrs:
        value = lookup_attr(value, name)
    return value


def _eval_filter(expr: FilterCall, scope: Scope) -> Any:
    args = [evaluate(arg, scope) for arg in expr.args]
    return FILTERS[expr.name].func(evaluate(expr.value, scope), *args)


_EXPR_HANDLERS: dict[type, Callable[[Any, Scope], Any]] = {
    Literal: lambda expr, scope: expr.value,
    Lookup: _eval_lookup,
    FilterCall: _eval_filter,
    Compare: lambda expr, scope: compare(
        expr.op, evaluate(expr.left, scope), evaluate(expr.right, scope)
    ),
    And: lambda expr, scope: evaluate(expr.left, scope) and evaluate(expr.right, scope),
    Or: lambda expr, scope: evaluate(expr.left, scope) or evaluate(expr.right, scope),
    Not: lambda expr, scope: not evaluate(expr.operand, scope),
}


def evaluate(expr: Expr, scope: Mapping[str, Any]) -> Any:
    """Evaluate an expression node; undefined names and failed lookups give ``None``."""
    return _EXPR_HANDLERS[type(expr)](expr, scope)
