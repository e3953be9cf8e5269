"""Lexing: template source -> tags and text; tag contents -> expression tokens."""

from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import TemplateSyntaxError

TEXT, VAR, BLOCK, COMMENT = "text", "var", "block", "comment"

_OPENERS = {"{{": (VAR, "}}"), "{%": (BLOCK, "%}"), "{#": (COMMENT, "#}")}
_OPEN_RE = re.compile(r"\{[{%#]")

_EXPR_TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
    |(?P<float>[0-9]+\.[0-9]+)
    |(?P<int>[0-9]+)
    |(?P<name>[A-Za-z_][A-Za-z0-9_]*)
    |(?P<string>"[^"]*"|'[^']*')
    |(?P<op>==|!=|<=|>=|<|>|\.|\||\(|\)|,)
    """,
    re.VERBOSE,
)


@dataclass(frozen=True)
class Token:
    """A template-level token: text, or the inside of a ``{{ }}``/``{% %}``/``{# #}`` tag."""

    kind: str
    value: str
    lineno: int


@dataclass(frozen=True)
class ExprToken:
    """A token inside a tag: kind is ``float``, ``int``, ``name``, ``string`` or ``op``."""

    kind: str
    value: str


def tokenize(source: str) -> list[Token]:
    """Split ``source`` into text and tag tokens, tracking the line of each token's start."""
    tokens: list[Token] = []
    pos, lineno = 0, 1
    while pos < len(source):
        token, end = _next_token(source, pos, lineno)
        tokens.append(token)
        lineno += source.count("\n", pos, end)
        pos = end
    return tokens


def _next_token(source: str, pos: int, lineno: int) -> tuple[Token, int]:
    match = _OPEN_RE.search(source, pos)
    if match is None:
        return Token(TEXT, source[pos:], lineno), len(source)
    if match.start() > pos:
        return Token(TEXT, source[pos : match.start()], lineno), match.start()
    kind, closer = _OPENERS[match.group()]
    end = source.find(closer, match.end())
    if end < 0:
        raise TemplateSyntaxError(f"unclosed tag {match.group()!r}", lineno)
    return Token(kind, source[match.end() : end], lineno), end + len(closer)


def tokenize_expression(text: str, lineno: int) -> list[ExprToken]:
    """Split the inside of a tag into expression tokens (whitespace is dropped)."""
    tokens: list[ExprToken] = []
    pos = 0
    while pos < len(text):
        match = _EXPR_TOKEN_RE.match(text, pos)
        if match is None:
            raise TemplateSyntaxError(f"unexpected character {text[pos]!r}", lineno)
        kind = match.lastgroup or ""
        if kind != "ws":
            tokens.append(ExprToken(kind, match.group()))
        pos = match.end()
    return tokens
