"""Tests for the tokenizer."""

from __future__ import annotations

import pytest

from minisql.errors import SQLSyntaxError
from minisql.tokenizer import tokenize


def kinds_values(sql: str) -> list[tuple[str, object]]:
    return [(token.kind, token.value) for token in tokenize(sql)]


def test_keywords_are_case_insensitive_and_upper_cased() -> None:
    assert kinds_values("select Distinct") == [
        ("KEYWORD", "SELECT"), ("KEYWORD", "DISTINCT"), ("EOF", None)]


def test_identifiers_keep_their_spelling() -> None:
    assert kinds_values("Foo _bar9") == [("IDENT", "Foo"), ("IDENT", "_bar9"), ("EOF", None)]


def test_numbers() -> None:
    assert kinds_values("42 3.25") == [("NUMBER", 42), ("NUMBER", 3.25), ("EOF", None)]


def test_string_with_escaped_quote() -> None:
    assert kinds_values("'it''s'") == [("STRING", "it's"), ("EOF", None)]


def test_quoted_identifier() -> None:
    assert kinds_values('"unit ""price"""') == [("IDENT", 'unit "price"'), ("EOF", None)]


def test_quoted_keyword_is_an_identifier() -> None:
    assert kinds_values('"select"')[0] == ("IDENT", "select")


def test_operators_longest_match() -> None:
    values = [token.value for token in tokenize("<= >= <> != < > = + - * / % ( ) , . ;")][:-1]
    assert values == ["<=", ">=", "<>", "!=", "<", ">", "=", "+", "-", "*", "/", "%", "(", ")", ",", ".", ";"]


def test_positions() -> None:
    tokens = tokenize("SELECT  a,\n b")
    assert [(t.start, t.end) for t in tokens] == [(0, 6), (8, 9), (9, 10), (12, 13), (13, 13)]


def test_unterminated_string_reports_opening_quote() -> None:
    with pytest.raises(SQLSyntaxError) as info:
        tokenize("SELECT 'abc")
    assert info.value.position == 7


def test_unterminated_identifier() -> None:
    with pytest.raises(SQLSyntaxError) as info:
        tokenize('SELECT "abc')
    assert info.value.position == 7


@pytest.mark.parametrize(("sql", "position"), [("SELECT a # b", 9), ("SELECT !a", 7), ("SELECT a[1]", 8)])
def test_invalid_character(sql: str, position: int) -> None:
    with pytest.raises(SQLSyntaxError) as info:
        tokenize(sql)
    assert info.value.position == position
    assert str(info.value).endswith(f"at position {position}")
