"""Inline Markdown: code spans, links, strong and emphasis, with HTML escaping."""

from __future__ import annotations

import html
import re

CODE_SPAN = re.compile(r"`([^`]+)`")
LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")

_NOT_WORD_BEFORE = r"(?<![A-Za-z0-9_])"
_NOT_WORD_AFTER = r"(?![A-Za-z0-9_])"


def _delimited(delimiter: str, word_bounded: bool = False) -> re.Pattern[str]:
    """Pattern for ``<delimiter>text<delimiter>`` with the shortest non-blank-edged text.

    The text may span lines. With ``word_bounded`` the delimiters must not touch a word character
    on the outside (used for ``_`` so that ``snake_case`` stays literal).
    """
    fence = re.escape(delimiter)
    edge = rf"[^\s{re.escape(delimiter[0])}]"
    pattern = rf"{fence}({edge}(?:.*?{edge})??){fence}"
    if word_bounded:
        pattern = _NOT_WORD_BEFORE + pattern + _NOT_WORD_AFTER
    return re.compile(pattern, re.DOTALL)


# Order matters: strong before emphasis, so "**a**" never becomes "<em><em>a</em></em>".
EMPHASIS_RULES: tuple[tuple[re.Pattern[str], str], ...] = (
    (_delimited("**"), "strong"),
    (_delimited("__", word_bounded=True), "strong"),
    (_delimited("*"), "em"),
    (_delimited("_", word_bounded=True), "em"),
)


def escape(text: str) -> str:
    """Escape ``& < > " '`` for HTML (``html.escape`` with ``quote=True``)."""
    return html.escape(text, quote=True)


def emphasize(escaped: str) -> str:
    """Apply strong/emphasis rules to already escaped text."""
    for pattern, tag in EMPHASIS_RULES:
        escaped = pattern.sub(rf"<{tag}>\1</{tag}>", escaped)
    return escaped


def _render_plain(text: str) -> str:
    """Escape and emphasize text that contains no code span and no link."""
    return emphasize(escape(text))


def _render_link(match: re.Match[str]) -> str:
    """Render one ``[text](url)`` match."""
    return f'<a href="{escape(match.group(2))}">{_render_plain(match.group(1))}</a>'


def _render_text(text: str) -> str:
    """Render text without code spans: links first, then emphasis in the pieces between."""
    parts: list[str] = []
    position = 0
    for match in LINK.finditer(text):
        parts.append(_render_plain(text[position : match.start()]))
        parts.append(_render_link(match))
        position = match.end()
    parts.append(_render_plain(text[position:]))
    return "".join(parts)


def render_inline(text: str) -> str:
    """Render inline Markdown in ``text`` to HTML.

    Code spans are cut out first, so no other markup is recognised inside them and links or
    emphasis never pair across them.
    """
    pieces = CODE_SPAN.split(text)
    return "".join(
        f"<code>{escape(piece)}</code>" if index % 2 else _render_text(piece)
        for index, piece in enumerate(pieces)
    )
