"""End-to-end tests of Database.query / Database.execute."""

from __future__ import annotations

import pytest

from minisql import Database, QueryError, Result, SQLSyntaxError


def test_select_star(db: Database) -> None:
    result = db.query("SELECT * FROM dept")
    assert result == Result(["id", "name"], [(1, "Engineering"), (2, "Sales"), (3, "Legal")])


def test_execute_returns_rows(db: Database) -> None:
    assert db.execute("SELECT name FROM dept WHERE id = 2") == [("Sales",)]


def test_tables_in_creation_order(db: Database) -> None:
    assert db.tables() == ["dept", "emp"]


def test_select_without_from() -> None:
    assert Database().query("SELECT 1 + 1, 'x' AS s") == Result(["1 + 1", "s"], [(2, "x")])


def test_column_names(db: Database) -> None:
    result = db.query("SELECT E.NAME, salary * 2, salary AS pay, d.* FROM emp e JOIN dept d ON e.dept_id = d.id")
    assert result.columns == ["name", "salary * 2", "pay", "id", "name"]


def test_case_insensitive_names(db: Database) -> None:
    assert db.execute("select NAME from DEPT where ID = 3") == [("Legal",)]


def test_where_and_order(db: Database) -> None:
    rows = db.execute("SELECT name FROM emp WHERE salary >= 80 ORDER BY salary DESC")
    assert rows == [("Ada",), ("Bob",), ("Cid",)]


def test_null_ordering(db: Database) -> None:
    assert db.execute("SELECT id FROM emp ORDER BY salary")[0] == (4,)
    assert db.execute("SELECT id FROM emp ORDER BY salary DESC")[-1] == (4,)


def test_multi_key_order_is_stable(db: Database) -> None:
    rows = db.execute("SELECT dept_id, name FROM emp ORDER BY dept_id DESC, name DESC")
    assert rows == [(2, "Dee"), (2, "Cid"), (1, "Bob"), (1, "Ada"), (None, "Eve")]


def test_order_by_alias_and_ordinal(db: Database) -> None:
    assert db.execute("SELECT name, salary AS s FROM emp WHERE salary IS NOT NULL ORDER BY s LIMIT 2") == [
        ("Eve", 60.0), ("Cid", 80.0)]
    assert db.execute("SELECT name FROM dept ORDER BY 1") == [("Engineering",), ("Legal",), ("Sales",)]


def test_order_by_alias_after_star(db: Database) -> None:
    rows = db.execute("SELECT *, 0 - id AS neg FROM dept ORDER BY neg")
    assert [row[0] for row in rows] == [3, 2, 1]


def test_order_by_unselected_column(db: Database) -> None:
    assert db.execute("SELECT name FROM emp ORDER BY id DESC LIMIT 1") == [("Eve",)]


def test_limit_offset(db: Database) -> None:
    assert db.execute("SELECT id FROM emp ORDER BY id LIMIT 2 OFFSET 1") == [(2,), (3,)]
    assert db.execute("SELECT id FROM emp ORDER BY id OFFSET 4") == [(5,)]
    assert db.execute("SELECT id FROM emp LIMIT 0") == []


def test_distinct(db: Database) -> None:
    assert db.execute("SELECT DISTINCT dept_id FROM emp") == [(1,), (2,), (None,)]


def test_inner_join(db: Database) -> None:
    rows = db.execute("SELECT e.name, d.name FROM emp e JOIN dept d ON e.dept_id = d.id ORDER BY e.id")
    assert rows == [("Ada", "Engineering"), ("Bob", "Engineering"), ("Cid", "Sales"), ("Dee", "Sales")]


def test_left_join_pads_with_null(db: Database) -> None:
    rows = db.execute("SELECT d.name, e.name FROM dept d LEFT JOIN emp e ON e.dept_id = d.id")
    assert rows[-1] == ("Legal", None)
    assert len(rows) == 5


def test_self_join(db: Database) -> None:
    rows = db.execute("SELECT e.name, m.name AS boss FROM emp e JOIN emp m ON e.manager_id = m.id ORDER BY e.id")
    assert rows == [("Bob", "Ada"), ("Cid", "Ada"), ("Dee", "Cid")]


def test_group_by_with_aggregates(db: Database) -> None:
    result = db.query(
        "SELECT dept_id, COUNT(*), COUNT(salary), SUM(salary), AVG(salary), MIN(name), MAX(name) "
        "FROM emp GROUP BY dept_id"
    )
    assert result.rows == [
        (1, 2, 2, 220.0, 110.0, "Ada", "Bob"),
        (2, 2, 1, 80.0, 80.0, "Cid", "Dee"),
        (None, 1, 1, 60.0, 60.0, "Eve", "Eve"),
    ]


def test_aggregate_without_group_by_on_empty_input(db: Database) -> None:
    assert db.execute("SELECT COUNT(*), SUM(salary), MAX(name) FROM emp WHERE FALSE") == [(0, None, None)]


def test_group_by_on_empty_input(db: Database) -> None:
    assert db.execute("SELECT dept_id, COUNT(*) FROM emp WHERE FALSE GROUP BY dept_id") == []


def test_having_and_order_by_aggregate(db: Database) -> None:
    rows = db.execute(
        "SELECT d.name, COUNT(e.id) AS n FROM dept d LEFT JOIN emp e ON e.dept_id = d.id "
        "GROUP BY d.name HAVING COUNT(e.id) < 2 OR d.name = 'Sales' ORDER BY COUNT(e.id), d.name"
    )
    assert rows == [("Legal", 0), ("Sales", 2)]


def test_group_by_expression(db: Database) -> None:
    rows = db.execute("SELECT id % 2, COUNT(*) FROM emp GROUP BY id % 2 ORDER BY 1")
    assert rows == [(0, 2), (1, 3)]


def test_count_distinct_and_sum_ints(db: Database) -> None:
    assert db.execute("SELECT COUNT(DISTINCT dept_id), SUM(id), SUM(DISTINCT dept_id) FROM emp") == [(2, 15, 3)]


def test_arithmetic(db: Database) -> None:
    assert db.execute("SELECT 7 / 2, -7 / 2, 7 % 3, -7 % 3, 7.0 / 2, 5.5 % 2, 1 / 0, 1 % 0, 2 + NULL") == [
        (3, -3, 1, -1, 3.5, 1.5, None, None, None)]


def test_three_valued_logic() -> None:
    rows = Database().execute(
        "SELECT NULL AND FALSE, NULL AND TRUE, NULL OR TRUE, NULL OR FALSE, NOT NULL, NULL = NULL, NULL IS NULL"
    )
    assert rows == [(False, None, True, None, None, None, True)]


def test_in_between_like(db: Database) -> None:
    assert db.execute("SELECT name FROM emp WHERE dept_id IN (2, NULL)") == [("Cid",), ("Dee",)]
    assert db.execute("SELECT name FROM emp WHERE dept_id NOT IN (1, NULL)") == []
    assert db.execute("SELECT name FROM emp WHERE salary BETWEEN 80 AND 100") == [("Bob",), ("Cid",)]
    assert db.execute("SELECT name FROM emp WHERE name LIKE '_e%'") == [("Dee",)]


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM nope",
        "SELECT nope FROM emp",
        "SELECT name FROM emp e JOIN dept d ON e.dept_id = d.id",
        "SELECT x.name FROM emp",
        "SELECT emp.name FROM emp e",
        "SELECT 1 FROM emp JOIN emp ON TRUE",
        "SELECT name, COUNT(*) FROM emp GROUP BY dept_id",
        "SELECT name FROM emp WHERE COUNT(*) > 1",
        "SELECT SUM(COUNT(*)) FROM emp",
        "SELECT MAX(*) FROM emp",
        "SELECT LOWER(name) FROM emp",
        "SELECT name FROM emp ORDER BY 2",
        "SELECT *",
        "SELECT d.name FROM emp e JOIN emp f ON d.id = e.id JOIN dept d ON TRUE",
        "SELECT name FROM emp GROUP BY COUNT(*)",
    ],
)
def test_query_errors(db: Database, sql: str) -> None:
    with pytest.raises(QueryError):
        db.execute(sql)


@pytest.mark.parametrize(
    "sql",
    ["SELECT name + 1 FROM emp", "SELECT name FROM emp WHERE id", "SELECT id LIKE 'x' FROM emp", "SELECT -name FROM emp"],
)
def test_type_errors(db: Database, sql: str) -> None:
    with pytest.raises(QueryError):
        db.execute(sql)


def test_syntax_error_comes_first(db: Database) -> None:
    with pytest.raises(SQLSyntaxError):
        db.execute("SELECT nope FROM missing WHERE")


@pytest.mark.parametrize(
    ("columns", "rows"),
    [([], []), (["a", "A"], []), (["a", ""], []), (["a"], [(1, 2)]), (["a"], [(object(),)])],
)
def test_create_table_validation(columns: list[str], rows: list[tuple]) -> None:
    with pytest.raises(QueryError):
        Database().create_table("t", columns, rows)


def test_duplicate_table(db: Database) -> None:
    with pytest.raises(QueryError):
        db.create_table("DEPT", ["x"], [])
