"""Tests for the parser (AST shape, precedence and syntax errors)."""

from __future__ import annotations

import pytest

from minisql.errors import SQLSyntaxError
from minisql.nodes import (
    Aggregate,
    Between,
    Binary,
    Column,
    InList,
    IsNull,
    Join,
    Like,
    Literal,
    OrderItem,
    SelectItem,
    Star,
    TableRef,
    Unary,
)
from minisql.parser import parse


def expr(sql: str):
    return parse(f"SELECT {sql}").items[0].expr


def test_minimal_select() -> None:
    select = parse("SELECT 1")
    assert select.items == (SelectItem(Literal(1), None, "1"),)
    assert select.source is None


def test_all_clauses() -> None:
    select = parse(
        "SELECT DISTINCT d.name AS n, COUNT(*) FROM emp e LEFT OUTER JOIN dept AS d ON e.dept_id = d.id "
        "WHERE e.salary > 10 GROUP BY d.name HAVING COUNT(*) > 1 ORDER BY n DESC, 2 LIMIT 5 OFFSET 1;"
    )
    assert select.distinct
    assert select.items[0] == SelectItem(Column("d", "name"), "n", "d.name")
    assert select.items[1].expr == Aggregate("COUNT", None)
    assert select.source == TableRef("emp", "e")
    assert select.joins == (Join("LEFT", TableRef("dept", "d"), Binary("=", Column("e", "dept_id"), Column("d", "id"))),)
    assert select.group_by == (Column("d", "name"),)
    assert select.order_by == (OrderItem(Column(None, "n"), True), OrderItem(Literal(2), False))
    assert (select.limit, select.offset) == (5, 1)


def test_join_kinds() -> None:
    select = parse("SELECT * FROM a JOIN b ON TRUE INNER JOIN c ON TRUE LEFT JOIN d ON TRUE")
    assert [join.kind for join in select.joins] == ["INNER", "INNER", "LEFT"]


def test_stars() -> None:
    select = parse("SELECT *, t.* FROM t")
    assert [item.expr for item in select.items] == [Star(), Star("t")]


def test_bare_alias() -> None:
    assert parse("SELECT a total FROM t").items[0].alias == "total"


def test_item_text_is_source_slice() -> None:
    assert parse("SELECT  a  +  b * 2 , c FROM t").items[0].text == "a  +  b * 2"


def test_arithmetic_precedence() -> None:
    assert expr("1 + 2 * 3") == Binary("+", Literal(1), Binary("*", Literal(2), Literal(3)))
    assert expr("1 - 2 - 3") == Binary("-", Binary("-", Literal(1), Literal(2)), Literal(3))
    assert expr("-a * 2") == Binary("*", Unary("-", Column(None, "a")), Literal(2))


def test_logic_precedence() -> None:
    a, b, c = (Column(None, name) for name in "abc")
    assert expr("a OR b AND c") == Binary("OR", a, Binary("AND", b, c))
    assert expr("NOT a AND b") == Binary("AND", Unary("NOT", a), b)


def test_predicates() -> None:
    x = Column(None, "x")
    assert expr("x IS NULL") == IsNull(x)
    assert expr("x IS NOT NULL") == Unary("NOT", IsNull(x))
    assert expr("x NOT IN (1, 2)") == Unary("NOT", InList(x, (Literal(1), Literal(2))))
    assert expr("x BETWEEN 1 AND 2 AND TRUE") == Binary("AND", Between(x, Literal(1), Literal(2)), Literal(True))
    assert expr("x NOT LIKE 'a%'") == Unary("NOT", Like(x, Literal("a%")))
    assert expr("x != 1") == Binary("<>", x, Literal(1))


def test_function_calls() -> None:
    assert expr("count(DISTINCT a)") == Aggregate("COUNT", Column(None, "a"), True)
    assert expr("Sum(a + 1)") == Aggregate("SUM", Binary("+", Column(None, "a"), Literal(1)))


def test_literals() -> None:
    assert expr("NULL") == Literal(None)
    assert expr("FALSE") == Literal(False)
    assert expr("'x'") == Literal("x")
    assert expr("(2.5)") == Literal(2.5)


@pytest.mark.parametrize(
    ("sql", "position"),
    [
        ("", 0),
        ("UPDATE t SET a = 1", 0),
        ("SELECT FROM t", 7),
        ("SELECT a FROM t WHERE", 21),
        ("SELECT a b c FROM t", 11),
        ("SELECT (1 + 2 FROM t", 14),
        ("SELECT a FROM t ORDER a", 22),
        ("SELECT a FROM t LIMIT 'x'", 22),
        ("SELECT a FROM t LIMIT 1.5", 22),
        ("SELECT a FROM t JOIN u", 22),
        ("SELECT a FROM t WHERE a IS 1", 27),
        ("SELECT a FROM t WHERE a NOT 1", 28),
        ("SELECT COUNT() FROM t", 13),
        ("SELECT a FROM t;;", 16),
        ("SELECT a AS FROM t", 12),
        ("SELECT t.", 9),
    ],
)
def test_syntax_error_positions(sql: str, position: int) -> None:
    with pytest.raises(SQLSyntaxError) as info:
        parse(sql)
    assert info.value.position == position
