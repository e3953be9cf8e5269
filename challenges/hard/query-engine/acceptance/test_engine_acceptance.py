"""Hidden acceptance tests for hard/query-engine: the SQL engine (Database.query / execute)."""

from __future__ import annotations

import pytest

from conftest import CUSTOMERS, ORDERS


def run(db, sql):
    return db.execute(sql)


def one(db, sql):
    rows = db.execute(sql)
    assert len(rows) == 1
    return rows[0]


# ----------------------------------------------------------------------------- basics


def test_select_star_columns_and_rows(shop):
    result = shop.query("SELECT * FROM customers")
    assert list(result.columns) == CUSTOMERS[0]
    assert [tuple(row) for row in result.rows] == CUSTOMERS[1]
    assert all(type(row) is tuple for row in result.rows)
    assert shop.execute("SELECT * FROM orders") == ORDERS[1]


def test_tables_and_case_insensitive_names(shop):
    assert shop.tables() == ["customers", "orders", "Products"]
    result = shop.query("select NAME, Category from PRODUCTS where NAME = 'lamp'")
    assert list(result.columns) == ["name", "category"]
    assert result.rows == [("lamp", "home")]


def test_select_without_from_and_precedence(shop):
    assert one(shop, "SELECT 2 + 3 * 4, (2 + 3) * 4, 2 - 3 - 4, 10 - 2 * 3 % 4, -2 * 3, -(1 + 2), 24 / 4 / 2") == (
        14, 20, -5, 8, -6, -3, 3)


def test_integer_division_and_modulo(shop):
    row = one(shop, "SELECT 7 / 2, -7 / 2, 7 / -2, 7.0 / 2, -7 % 3, 7 % -3, 5.5 % 2, 1 / 0, 5 % 0, 1.5 / 0")
    assert row == (3, -3, -3, 3.5, -1, 1, 1.5, None, None, None)
    assert [type(v) for v in row[:4]] == [int, int, int, float]


def test_int_float_result_types_and_null_arithmetic(shop):
    row = one(shop, "SELECT 1 + 1, 1 + 1.0, 2 * 0.5, NULL + 1, 3 - NULL, -NULL")
    assert row == (2, 2.0, 1.0, None, None, None)
    assert (type(row[0]), type(row[1]), type(row[2])) == (int, float, float)


def test_result_column_names(shop):
    result = shop.query(
        "SELECT O.PRODUCT, o.qty  *  o.price AS total, qty price_alias, qty + 1, 'x', -7 / 2, (o.id) "
        "FROM orders o WHERE id = 10"
    )
    assert list(result.columns) == ["product", "total", "price_alias", "qty + 1", "'x'", "-7 / 2", "id"]
    assert result.rows == [("pen", 4.5, 3, 4, "x", -3, 10)]


def test_aggregate_column_names_are_source_text(shop):
    result = shop.query("SELECT count(*), Sum(qty)AS s, MAX( price ) FROM orders")
    assert list(result.columns) == ["count(*)", "s", "MAX( price )"]


def test_string_literals_and_quoted_identifiers(msql):
    db = msql.Database()
    db.create_table("t", ["unit price", 'say "hi"'], [(2.5, "x")])
    result = db.query('SELECT "unit price", "SAY ""HI""", \'it\'\'s\' FROM t')
    assert list(result.columns) == ["unit price", 'say "hi"', "'it''s'"]
    assert result.rows == [(2.5, "x", "it's")]


# ----------------------------------------------------------------------------- WHERE and logic


def test_where_comparisons(shop):
    assert run(shop, "SELECT id FROM orders WHERE qty >= 2 AND price < 5") == [(10,), (12,), (14,)]
    assert run(shop, "SELECT id FROM orders WHERE product != 'pen' AND product <> 'book'") == [(13,), (16,)]
    assert run(shop, "SELECT id FROM orders WHERE price <= 1.5 OR qty > 5") == [(10,), (12,), (14,)]


def test_and_or_not_precedence(shop):
    assert one(shop, "SELECT TRUE OR TRUE AND FALSE, (TRUE OR TRUE) AND FALSE, NOT FALSE AND FALSE, "
                     "NOT (FALSE AND FALSE), NOT 1 = 2") == (True, False, False, True, True)


def test_three_valued_logic(shop):
    assert one(shop, "SELECT NULL AND FALSE, FALSE AND NULL, NULL AND TRUE, NULL OR TRUE, "
                     "NULL OR FALSE, NOT NULL, NULL = NULL, NULL <> 1, NULL IS NULL, 1 IS NOT NULL") == (
        False, False, None, True, None, None, None, None, True, True)


def test_null_comparisons_never_match(shop):
    assert run(shop, "SELECT name FROM customers WHERE city = NULL") == []
    assert run(shop, "SELECT name FROM customers WHERE city <> 'Paris'") == [("bob",), ("Erin",)]
    assert run(shop, "SELECT name FROM customers WHERE NOT (city = 'Paris')") == [("bob",), ("Erin",)]
    assert run(shop, "SELECT name FROM customers WHERE city IS NULL OR tier IS NULL") == [("bob",), ("Dave",)]
    assert run(shop, "SELECT name FROM customers WHERE city IS NOT NULL AND NOT tier IS NULL") == [
        ("Alice",), ("Carol",), ("Erin",)]


def test_in_list_semantics(shop):
    assert one(shop, "SELECT 1 IN (1, NULL), 2 IN (1, NULL), 2 NOT IN (1, NULL), NULL IN (1, 2), "
                     "3 IN (1, 2), 3 NOT IN (1, 2), 1.0 IN (1)") == (True, None, None, None, False, True, True)
    assert run(shop, "SELECT name FROM customers WHERE tier IN ('silver', 'platinum')") == [("Carol",), ("Erin",)]
    assert run(shop, "SELECT name FROM customers WHERE tier NOT IN ('gold', NULL)") == []
    assert run(shop, "SELECT name FROM customers WHERE id NOT IN (1, 2, 3)") == [("Dave",), ("Erin",)]


def test_between(shop):
    assert run(shop, "SELECT id FROM orders WHERE qty BETWEEN 2 AND 3") == [(10,), (14,), (15,)]
    assert run(shop, "SELECT id FROM orders WHERE price NOT BETWEEN 1.5 AND 12 AND qty BETWEEN 1 AND 10") == [
        (12,), (16,)]
    assert one(shop, "SELECT 10 BETWEEN NULL AND 5, 3 BETWEEN NULL AND 5, 5 BETWEEN 5 AND 5, "
                     "2 BETWEEN 3 AND 1") == (False, None, True, False)


def test_like(shop):
    assert one(shop, "SELECT 'a.c' LIKE 'a.c', 'abc' LIKE 'a.c', 'Alice' LIKE 'a%', 'ab' LIKE 'a_', "
                     "'abc' LIKE 'a_', 'a+b' LIKE 'a+b', '' LIKE '%', 'x(y' LIKE '%(_', NULL LIKE '%', "
                     "'abc' NOT LIKE '%b%'") == (
        True, False, False, True, False, True, True, True, None, False)
    assert run(shop, "SELECT name FROM customers WHERE name LIKE '%a%'") == [("Carol",), ("Dave",)]


def test_comparison_across_types(shop):
    assert one(shop, "SELECT 2 < 'a', 1 = '1', 1 = 1.0, 'B' < 'a', 'abc' < 'abd', TRUE = 1") == (
        True, False, True, True, True, True)


# ----------------------------------------------------------------------------- joins


def test_inner_join_nested_loop_order(shop):
    rows = run(shop, "SELECT c.name, o.id FROM customers c JOIN orders o ON o.customer_id = c.id")
    assert rows == [("Alice", 10), ("Alice", 11), ("bob", 12), ("Carol", 13), ("Carol", 15)]
    assert run(shop, "SELECT c.name, o.id FROM customers AS c INNER JOIN orders AS o ON o.customer_id = c.id") == rows


def test_left_join_pads_with_null(shop):
    rows = run(shop, "SELECT c.name, o.product FROM customers c LEFT JOIN orders o ON o.customer_id = c.id")
    assert rows == [("Alice", "pen"), ("Alice", "book"), ("bob", "pen"), ("Carol", "lamp"),
                    ("Carol", "book"), ("Dave", None), ("Erin", None)]
    outer = run(shop, "SELECT c.name, o.product FROM customers c LEFT OUTER JOIN orders o ON o.customer_id = c.id")
    assert outer == rows


def test_left_join_null_keys_and_anti_join(shop):
    assert run(shop, "SELECT o.id, c.name FROM orders o LEFT JOIN customers c ON o.customer_id = c.id "
                     "WHERE c.id IS NULL") == [(14, None), (16, None)]
    assert run(shop, "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id "
                     "WHERE o.id IS NULL") == [("Dave",), ("Erin",)]


def test_left_join_condition_filters_right_side_only(shop):
    rows = run(shop, "SELECT c.id, o.id FROM customers c LEFT JOIN orders o "
                     "ON o.customer_id = c.id AND o.qty > 1 WHERE c.id <= 3")
    assert rows == [(1, 10), (2, 12), (3, 15)]


def test_three_table_join_and_star(shop):
    rows = run(shop, "SELECT c.name, p.category FROM orders o JOIN customers c ON o.customer_id = c.id "
                     "JOIN products p ON p.name = o.product ORDER BY c.name, p.category")
    assert rows == [("Alice", "media"), ("Alice", "office"), ("Carol", "home"), ("Carol", "media"),
                    ("bob", "office")]
    result = shop.query("SELECT *, p.* FROM products p JOIN orders o ON o.product = p.name WHERE o.id = 13")
    assert list(result.columns) == ["name", "category", "id", "customer_id", "product", "qty", "price",
                                    "name", "category"]
    assert result.rows == [("lamp", "home", 13, 3, "lamp", 1, None, "lamp", "home")]


def test_self_join_with_aliases(shop):
    rows = run(shop, "SELECT a.name, b.name FROM customers a JOIN customers b ON a.city = b.city AND a.id < b.id")
    assert rows == [("Alice", "Carol")]


# ----------------------------------------------------------------------------- aggregation


def test_count_star_vs_count_column(shop):
    assert one(shop, "SELECT COUNT(*), COUNT(city), COUNT(tier), COUNT(DISTINCT city), COUNT(DISTINCT tier) "
                     "FROM customers") == (5, 4, 4, 3, 2)


def test_sum_avg_min_max_values_and_types(shop):
    row = one(shop, "SELECT SUM(qty), SUM(price), AVG(qty), MIN(price), MAX(product), MIN(product), MAX(price) "
                    "FROM orders")
    assert row[0] == 20 and type(row[0]) is int
    assert row[1] == pytest.approx(176.25) and type(row[1]) is float
    assert row[2] == pytest.approx(20 / 7)
    assert row[3:] == (1.25, "pen", "book", 150.0)
    avg = one(shop, "SELECT AVG(qty) FROM orders WHERE qty = 2")[0]
    assert avg == 2.0 and type(avg) is float


def test_aggregates_over_no_rows(shop):
    assert one(shop, "SELECT COUNT(*), COUNT(qty), SUM(qty), AVG(qty), MIN(qty), MAX(qty) FROM orders "
                     "WHERE qty > 100") == (0, 0, None, None, None, None)
    assert run(shop, "SELECT product, COUNT(*) FROM orders WHERE qty > 100 GROUP BY product") == []
    assert one(shop, "SELECT SUM(price), AVG(price), COUNT(price) FROM orders WHERE id = 13") == (None, None, 0)


def test_group_by_first_appearance_order(shop):
    assert run(shop, "SELECT product, COUNT(*), SUM(qty) FROM orders GROUP BY product") == [
        ("pen", 3, 15), ("book", 2, 3), ("lamp", 1, 1), ("desk", 1, 1)]


def test_group_by_nulls_form_one_group(shop):
    assert run(shop, "SELECT tier, COUNT(*), MIN(name) FROM customers GROUP BY tier") == [
        ("gold", 2, "Alice"), (None, 1, "bob"), ("silver", 2, "Carol")]


def test_group_by_multiple_keys_and_qualified_match(shop):
    rows = run(shop, "SELECT city, c.tier, COUNT(*) FROM customers c GROUP BY c.city, tier ORDER BY 1, 2")
    assert rows == [(None, "gold", 1), ("Berlin", None, 1), ("Paris", "gold", 1), ("Paris", "silver", 1),
                    ("Rome", "silver", 1)]


def test_having_and_order_by_alias(shop):
    assert run(shop, "SELECT product, SUM(qty) AS total FROM orders GROUP BY product "
                     "HAVING SUM(qty) > 2 ORDER BY total DESC") == [("pen", 15), ("book", 3)]
    assert run(shop, "SELECT product FROM orders GROUP BY product HAVING MAX(price) IS NULL OR "
                     "COUNT(*) >= 3") == [("pen",), ("lamp",)]


def test_aggregate_only_in_order_by(shop):
    assert run(shop, "SELECT product FROM orders GROUP BY product ORDER BY COUNT(*) DESC, product") == [
        ("pen",), ("book",), ("desk",), ("lamp",)]


def test_group_by_expression(shop):
    assert run(shop, "SELECT qty % 2 AS parity, COUNT(*), SUM(qty) FROM orders GROUP BY qty % 2 ORDER BY parity") == [
        (0, 3, 14), (1, 4, 6)]


def test_distinct_aggregates(shop):
    row = one(shop, "SELECT COUNT(DISTINCT product), SUM(DISTINCT qty), AVG(DISTINCT price), "
                    "MAX(DISTINCT qty) FROM orders")
    assert row[0] == 4 and row[1] == 16 and row[3] == 10
    assert row[2] == pytest.approx(174.75 / 5)


def test_expressions_over_aggregates_and_left_join_counts(shop):
    assert one(shop, "SELECT MAX(qty) * 2, COUNT(*) + 1, SUM(qty) / COUNT(*) FROM orders") == (20, 8, 2)
    rows = run(shop, "SELECT c.name, COUNT(o.id), COUNT(*), SUM(o.qty) FROM customers c "
                     "LEFT JOIN orders o ON o.customer_id = c.id GROUP BY c.name ORDER BY MIN(c.id)")
    assert rows == [("Alice", 2, 2, 4), ("bob", 1, 1, 10), ("Carol", 2, 2, 3), ("Dave", 0, 1, None),
                    ("Erin", 0, 1, None)]


# ----------------------------------------------------------------------------- ORDER BY / DISTINCT / LIMIT


def test_order_by_nulls_first_asc_last_desc(shop):
    assert run(shop, "SELECT city FROM customers ORDER BY city") == [
        (None,), ("Berlin",), ("Paris",), ("Paris",), ("Rome",)]
    assert run(shop, "SELECT city FROM customers ORDER BY city DESC") == [
        ("Rome",), ("Paris",), ("Paris",), ("Berlin",), (None,)]


def test_order_by_multiple_keys_mixed_directions(shop):
    assert run(shop, "SELECT tier, name FROM customers ORDER BY tier DESC, name ASC") == [
        ("silver", "Carol"), ("silver", "Erin"), ("gold", "Alice"), ("gold", "Dave"), (None, "bob")]


def test_order_by_is_stable(shop):
    assert run(shop, "SELECT name FROM customers ORDER BY city = 'Paris'") == [
        ("Dave",), ("bob",), ("Erin",), ("Alice",), ("Carol",)]
    assert run(shop, "SELECT id FROM orders ORDER BY product DESC") == [
        (10,), (12,), (14,), (13,), (16,), (11,), (15,)]


def test_order_by_alias_ordinal_and_code_point_order(shop):
    assert run(shop, "SELECT name AS n FROM customers ORDER BY n DESC") == [
        ("bob",), ("Erin",), ("Dave",), ("Carol",), ("Alice",)]
    assert run(shop, "SELECT id, name FROM customers ORDER BY 2 LIMIT 2") == [(1, "Alice"), (3, "Carol")]


def test_order_by_alias_wins_over_column(shop):
    assert run(shop, "SELECT id AS qty, qty AS id FROM orders ORDER BY id") == [
        (11, 1), (13, 1), (16, 1), (14, 2), (15, 2), (10, 3), (12, 10)]


def test_order_by_unselected_expression(shop):
    assert run(shop, "SELECT id FROM orders ORDER BY qty * price DESC") == [
        (16,), (15,), (12,), (11,), (10,), (14,), (13,)]


def test_order_by_mixed_types(msql):
    db = msql.Database()
    db.create_table("m", ["v"], [("b",), (2,), (None,), (1.5,), ("a",), (-1,)])
    assert db.execute("SELECT v FROM m ORDER BY v") == [(None,), (-1,), (1.5,), (2,), ("a",), ("b",)]


def test_limit_and_offset(shop):
    assert run(shop, "SELECT id FROM orders ORDER BY id LIMIT 2 OFFSET 1") == [(11,), (12,)]
    assert run(shop, "SELECT id FROM orders ORDER BY id DESC OFFSET 5") == [(11,), (10,)]
    assert run(shop, "SELECT id FROM orders LIMIT 0") == []
    assert run(shop, "SELECT id FROM orders LIMIT 3 OFFSET 10") == []
    assert run(shop, "SELECT id FROM orders LIMIT 100;") == [(row[0],) for row in ORDERS[1]]


def test_distinct(shop, msql):
    assert run(shop, "SELECT DISTINCT city FROM customers") == [("Paris",), ("Berlin",), (None,), ("Rome",)]
    assert run(shop, "SELECT DISTINCT product FROM orders ORDER BY product LIMIT 2") == [("book",), ("desk",)]
    assert run(shop, "SELECT DISTINCT product, qty > 1 FROM orders WHERE product = 'pen'") == [
        ("pen", True)]
    db = msql.Database()
    db.create_table("t", ["v"], [(1,), (1.0,), (None,), (None,), (2,)])
    assert db.execute("SELECT DISTINCT v FROM t") == [(1,), (None,), (2,)]


# ----------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("sql", "position"),
    [
        ("SELECT FROM orders", 7),
        ("SELECT id FROM orders WHERE", 27),
        ("SELECT id qty price FROM orders", 14),
        ("SELECT id FROM orders WHERE product = 'pen", 38),
        ("SELECT (1 + 2 FROM orders", 14),
        ("SELECT id FROM orders WHERE qty @ 1", 32),
        ("UPDATE orders SET qty = 1", 0),
        ("", 0),
        ("SELECT id FROM orders ORDER id", 28),
        ("SELECT id FROM orders LIMIT 'x'", 28),
        ("SELECT id FROM orders LIMIT -1", 28),
        ("SELECT id FROM orders JOIN customers", 36),
        ("SELECT id FROM orders WHERE qty NOT 5", 36),
        ("SELECT id FROM orders WHERE qty IS 5", 35),
        ("SELECT COUNT() FROM orders", 13),
        ("SELECT id FROM orders WHERE qty = 1 = 1", 36),
        ("SELECT id, FROM orders", 11),
        ("SELECT id FROM orders OFFSET 1 LIMIT 1", 31),
        ('SELECT "id FROM orders', 7),
        ("SELECT * FROM orders WHERE qty IN ()", 35),
    ],
)
def test_syntax_error_position(shop, msql, sql, position):
    with pytest.raises(msql.SQLSyntaxError) as info:
        shop.execute(sql)
    assert info.value.position == position
    assert str(info.value).endswith(f"at position {position}")


def test_exception_hierarchy(msql):
    import minisql.errors as errors

    assert msql.SQLSyntaxError is errors.SQLSyntaxError and msql.QueryError is errors.QueryError
    assert issubclass(msql.SQLSyntaxError, msql.MiniSQLError)
    assert issubclass(msql.QueryError, msql.MiniSQLError)
    assert issubclass(msql.MiniSQLError, Exception)
    assert not issubclass(msql.QueryError, msql.SQLSyntaxError)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT * FROM nope",
        "SELECT nope FROM orders",
        "SELECT id FROM orders o JOIN customers c ON o.customer_id = c.id",
        "SELECT x.id FROM orders",
        "SELECT orders.id FROM orders o",
        "SELECT o.nope FROM orders o",
        "SELECT 1 FROM customers JOIN customers ON TRUE",
        "SELECT name, COUNT(*) FROM customers GROUP BY city",
        "SELECT city, COUNT(*) FROM customers GROUP BY city ORDER BY name",
        "SELECT city FROM customers GROUP BY city HAVING tier = 'gold'",
        "SELECT name, MAX(id) FROM customers",
        "SELECT name FROM customers WHERE COUNT(*) > 1",
        "SELECT SUM(COUNT(*)) FROM orders",
        "SELECT COUNT(*) FROM orders GROUP BY COUNT(*)",
        "SELECT o.id FROM orders o JOIN customers c ON COUNT(*) > 0",
        "SELECT UPPER(name) FROM customers",
        "SELECT SUM(*) FROM orders",
        "SELECT id FROM orders ORDER BY 2",
        "SELECT id FROM orders ORDER BY 0",
        "SELECT *",
        "SELECT id",
        "SELECT qty AS q FROM orders WHERE q > 1",
        "SELECT o.id FROM orders o JOIN customers c ON p.name = o.product JOIN products p ON TRUE",
    ],
)
def test_query_errors(shop, msql, sql):
    with pytest.raises(msql.QueryError):
        shop.execute(sql)


def test_query_errors_are_detected_on_empty_tables(msql):
    db = msql.Database()
    db.create_table("a", ["x", "y"], [])
    db.create_table("b", ["x"], [])
    for sql in ("SELECT z FROM a", "SELECT x FROM a JOIN b ON TRUE", "SELECT y, COUNT(*) FROM a GROUP BY x",
                "SELECT FOO(x) FROM a"):
        with pytest.raises(msql.QueryError):
            db.execute(sql)
    assert db.execute("SELECT a.x, b.x FROM a LEFT JOIN b ON a.x = b.x") == []


def test_syntax_error_wins_over_query_error(shop, msql):
    with pytest.raises(msql.SQLSyntaxError):
        shop.execute("SELECT nope FROM missing WHERE")


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT name + 1 FROM customers",
        "SELECT -name FROM customers",
        "SELECT id FROM customers WHERE id",
        "SELECT id FROM customers WHERE name AND TRUE",
        "SELECT id LIKE '1%' FROM customers",
        "SELECT SUM(name) FROM customers",
        "SELECT AVG(city) FROM customers",
    ],
)
def test_type_errors(shop, msql, sql):
    with pytest.raises(msql.QueryError):
        shop.execute(sql)


def test_type_errors_only_when_evaluated(shop):
    assert shop.execute("SELECT name + 1 FROM customers WHERE id > 100") == []


@pytest.mark.parametrize(
    ("name", "columns", "rows"),
    [
        ("ORDERS", ["a"], []),
        ("t", ["a", "A"], []),
        ("t", [], []),
        ("t", ["a", "b"], [(1, 2), (3,)]),
        ("t", ["a"], [(1, 2)]),
        ("t", ["a"], [([1],)]),
    ],
)
def test_create_table_errors(shop, msql, name, columns, rows):
    with pytest.raises(msql.QueryError):
        shop.create_table(name, columns, rows)


def test_create_table_accepts_lists_and_keeps_values(msql):
    db = msql.Database()
    db.create_table("t", ("a", "b"), [[1, True], [2.5, None]])
    assert db.execute("SELECT * FROM t") == [(1, True), (2.5, None)]
    assert db.execute("SELECT a FROM t WHERE b") == [(1,)]
    empty = msql.Database()
    empty.create_table("e", ["x"])
    assert empty.execute("SELECT COUNT(*) FROM e") == [(0,)]
