"""The built-in filters and their arities."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .errors import TemplateRenderError
from .markup import Markup, escape, to_text


def _upper(value: Any) -> str:
    text = to_text(value).upper()
    return Markup(text) if isinstance(value, Markup) else text


def _lower(value: Any) -> str:
    text = to_text(value).lower()
    return Markup(text) if isinstance(value, Markup) else text


def _default(value: Any, fallback: Any) -> Any:
    return fallback if value is None else value


def _length(value: Any) -> int:
    if value is None:
        return 0
    try:
        return len(value)
    except TypeError:
        raise TemplateRenderError(f"length: {type(value).__name__} has no length") from None


def _join(value: Any, sep: Any = "") -> str:
    if value is None:
        return ""
    try:
        items = iter(value)
    except TypeError:
        raise TemplateRenderError(f"join: {type(value).__name__} is not iterable") from None
    return to_text(sep).join(to_text(item) for item in items)


def _safe(value: Any) -> Markup:
    return value if isinstance(value, Markup) else Markup(to_text(value))


@dataclass(frozen=True)
class FilterSpec:
    """A filter function and how many arguments (besides the value) it accepts."""

    func: Callable[..., Any]
    min_args: int = 0
    max_args: int = 0


FILTERS: dict[str, FilterSpec] = {
    "upper": FilterSpec(_upper),
    "lower": FilterSpec(_lower),
    "default": FilterSpec(_default, 1, 1),
    "length": FilterSpec(_length),
    "join": FilterSpec(_join, 0, 1),
    "escape": FilterSpec(escape),
    "safe": FilterSpec(_safe),
}
