"""Lexical analysis: turn SQL text into a list of tokens."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from .errors import SQLSyntaxError

KEYWORDS = frozenset(
    """SELECT DISTINCT FROM WHERE GROUP BY HAVING ORDER ASC DESC LIMIT OFFSET AS AND OR NOT
    IN BETWEEN LIKE IS NULL TRUE FALSE JOIN INNER LEFT OUTER ON""".split()
)

_OPERATORS = ("<>", "!=", "<=", ">=", "=", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",", ".", ";")

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[0-9]+(?:\.[0-9]+)?")
_SPACE = re.compile(r"[ \t\r\n]+")


@dataclass(frozen=True)
class Token:
    """One token.

    ``kind`` is one of ``KEYWORD`` (value: upper-case keyword), ``IDENT`` (value: the name),
    ``NUMBER`` (value: int or float), ``STRING`` (value: str), ``OP`` (value: the operator text)
    or ``EOF``. ``start``/``end`` delimit the token's text in the SQL string.
    """

    kind: str
    value: Any
    start: int
    end: int


def tokenize(sql: str) -> list[Token]:
    """Split ``sql`` into tokens; the list always ends with an ``EOF`` token at ``len(sql)``."""
    tokens: list[Token] = []
    pos = 0
    while pos < len(sql):
        space = _SPACE.match(sql, pos)
        if space:
            pos = space.end()
            continue
        token = _next_token(sql, pos)
        tokens.append(token)
        pos = token.end
    tokens.append(Token("EOF", None, len(sql), len(sql)))
    return tokens


def _next_token(sql: str, pos: int) -> Token:
    """Read the single token starting at ``pos``."""
    char = sql[pos]
    if char == "'":
        return _quoted(sql, pos, "STRING")
    if char == '"':
        return _quoted(sql, pos, "IDENT")
    word = _WORD.match(sql, pos)
    if word:
        return _word_token(word.group(), pos)
    number = _NUMBER.match(sql, pos)
    if number:
        text = number.group()
        value: int | float = float(text) if "." in text else int(text)
        return Token("NUMBER", value, pos, number.end())
    return _operator(sql, pos)


def _word_token(text: str, pos: int) -> Token:
    """A keyword or an unquoted identifier."""
    upper = text.upper()
    if upper in KEYWORDS:
        return Token("KEYWORD", upper, pos, pos + len(text))
    return Token("IDENT", text, pos, pos + len(text))


def _quoted(sql: str, pos: int, kind: str) -> Token:
    """A quoted string literal or identifier; a doubled quote stands for one quote character."""
    quote = sql[pos]
    parts: list[str] = []
    index = pos + 1
    while True:
        close = sql.find(quote, index)
        if close < 0:
            raise SQLSyntaxError("unterminated quoted text", pos)
        parts.append(sql[index:close])
        if sql.startswith(quote, close + 1):
            parts.append(quote)
            index = close + 2
            continue
        return Token(kind, "".join(parts), pos, close + 1)


def _operator(sql: str, pos: int) -> Token:
    """An operator or punctuation token."""
    for op in _OPERATORS:
        if sql.startswith(op, pos):
            return Token("OP", op, pos, pos + len(op))
    raise SQLSyntaxError(f"unexpected character {sql[pos]!r}", pos)
