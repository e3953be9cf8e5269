"""Safe strings and HTML escaping."""

from __future__ import annotations

import html
from typing import Any


class Markup(str):
    """A string that is already safe HTML and is never escaped again."""

    __slots__ = ()


def to_text(value: Any) -> str:
    """Convert a value to the text it renders as: ``None`` becomes ``""``, else ``str(value)``."""
    return "" if value is None else str(value)


def escape(value: Any) -> Markup:
    """HTML-escape ``value`` (``& < > " '``) unless it is already :class:`Markup`."""
    if isinstance(value, Markup):
        return value
    return Markup(html.escape(to_text(value), quote=True))
