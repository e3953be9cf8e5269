"""Recursive-descent parser: SQL text -> :class:`~minisql.nodes.Select`."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from .errors import SQLSyntaxError
from .nodes import (
    Aggregate,
    Between,
    Binary,
    Column,
    Expr,
    InList,
    IsNull,
    Join,
    Like,
    Literal,
    OrderItem,
    Select,
    SelectItem,
    Star,
    TableRef,
    Unary,
)
from .tokenizer import Token, tokenize

T = TypeVar("T")

COMPARISONS = {"=": "=", "<>": "<>", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_KEYWORD_LITERALS = {"NULL": None, "TRUE": True, "FALSE": False}
_JOIN_KINDS = {"JOIN": "INNER", "INNER": "INNER", "LEFT": "LEFT"}


def parse(sql: str) -> Select:
    """Parse one SELECT statement (an optional trailing ``;`` is allowed)."""
    return Parser(sql).parse_query()


class Parser:
    """Parser state: the token list and the index of the current token."""

    def __init__(self, sql: str) -> None:
        self.sql = sql
        self.tokens = tokenize(sql)
        self.index = 0

    # ------------------------------------------------------------------ token helpers

    @property
    def current(self) -> Token:
        """The token being looked at."""
        return self.tokens[self.index]

    def peek(self, offset: int) -> Token:
        """The token ``offset`` positions ahead (EOF when past the end)."""
        return self.tokens[min(self.index + offset, len(self.tokens) - 1)]

    def advance(self) -> Token:
        """Consume and return the current token."""
        token = self.current
        self.index = min(self.index + 1, len(self.tokens) - 1)
        return token

    def at_keyword(self, *words: str) -> bool:
        """Whether the current token is one of the given keywords."""
        return self.current.kind == "KEYWORD" and self.current.value in words

    def at_op(self, *ops: str) -> bool:
        """Whether the current token is one of the given operators."""
        return self.current.kind == "OP" and self.current.value in ops

    def accept_keyword(self, word: str) -> bool:
        """Consume the keyword if it is current."""
        if self.at_keyword(word):
            self.advance()
            return True
        return False

    def accept_op(self, op: str) -> bool:
        """Consume the operator if it is current."""
        if self.at_op(op):
            self.advance()
            return True
        return False

    def expect_keyword(self, word: str) -> Token:
        """Consume the keyword or raise a syntax error."""
        if not self.at_keyword(word):
            raise self.error(word)
        return self.advance()

    def expect_op(self, op: str) -> Token:
        """Consume the operator or raise a syntax error."""
        if not self.at_op(op):
            raise self.error(repr(op))
        return self.advance()

    def expect_ident(self) -> str:
        """Consume an identifier and return its name."""
        if self.current.kind != "IDENT":
            raise self.error("identifier")
        return str(self.advance().value)

    def error(self, expected: str) -> SQLSyntaxError:
        """A syntax error at the current token."""
        token = self.current
        found = "end of input" if token.kind == "EOF" else repr(self.sql[token.start:token.end])
        return SQLSyntaxError(f"expected {expected}, found {found}", token.start)

    def comma_list(self, parse_item: Callable[[], T]) -> tuple[T, ...]:
        """``item {"," item}``."""
        items = [parse_item()]
        while self.accept_op(","):
            items.append(parse_item())
        return tuple(items)

    def optional_clause(self, keyword: str, parse_body: Callable[[], T]) -> T | None:
        """``[keyword body]``."""
        return parse_body() if self.accept_keyword(keyword) else None

    # ------------------------------------------------------------------ statement

    def parse_query(self) -> Select:
        """``select [";"] EOF``."""
        select = self.parse_select()
        self.accept_op(";")
        if self.current.kind != "EOF":
            raise self.error("end of query")
        return select

    def parse_select(self) -> Select:
        """The SELECT statement with all of its optional clauses."""
        self.expect_keyword("SELECT")
        distinct = self.accept_keyword("DISTINCT")
        items = self.comma_list(self.parse_select_item)
        source, joins = self.parse_from()
        where = self.optional_clause("WHERE", self.parse_expr)
        group_by = self.parse_by_list("GROUP", self.parse_expr)
        having = self.optional_clause("HAVING", self.parse_expr)
        order_by = self.parse_by_list("ORDER", self.parse_order_item)
        limit = self.optional_clause("LIMIT", self.parse_count)
        offset = self.optional_clause("OFFSET", self.parse_count)
        return Select(items, distinct, source, joins, where, group_by, having, order_by, limit, offset)

    def parse_select_item(self) -> SelectItem:
        """``*`` | ``table.*`` | ``expr [[AS] alias]``."""
        if self.accept_op("*"):
            return SelectItem(Star())
        if self.at_table_star():
            table = str(self.advance().value)
            self.advance()
            self.advance()
            return SelectItem(Star(table))
        start = self.current.start
        expr = self.parse_expr()
        text = self.sql[start:self.tokens[self.index - 1].end]
        return SelectItem(expr, self.parse_alias(), text)

    def at_table_star(self) -> bool:
        """Whether the next three tokens are ``identifier . *``."""
        dot, star = self.peek(1), self.peek(2)
        return self.current.kind == "IDENT" and (dot.kind, dot.value, star.kind, star.value) == (
            "OP", ".", "OP", "*")

    def parse_alias(self) -> str | None:
        """``[AS] identifier`` or nothing."""
        if self.accept_keyword("AS"):
            return self.expect_ident()
        if self.current.kind == "IDENT":
            return str(self.advance().value)
        return None

    def parse_from(self) -> tuple[TableRef | None, tuple[Join, ...]]:
        """``[FROM table_ref {join}]``."""
        if not self.accept_keyword("FROM"):
            return None, ()
        source = self.parse_table_ref()
        joins: list[Join] = []
        while self.at_keyword(*_JOIN_KINDS):
            joins.append(self.parse_join())
        return source, tuple(joins)

    def parse_table_ref(self) -> TableRef:
        """``name [[AS] alias]``."""
        name = self.expect_ident()
        return TableRef(name, self.parse_alias())

    def parse_join(self) -> Join:
        """``[INNER] JOIN t ON expr`` | ``LEFT [OUTER] JOIN t ON expr``."""
        kind = _JOIN_KINDS[self.current.value]
        if not self.at_keyword("JOIN"):
            self.advance()
        if kind == "LEFT":
            self.accept_keyword("OUTER")
        self.expect_keyword("JOIN")
        table = self.parse_table_ref()
        self.expect_keyword("ON")
        return Join(kind, table, self.parse_expr())

    def parse_by_list(self, keyword: str, parse_item: Callable[[], T]) -> tuple[T, ...]:
        """``[keyword BY item {"," item}]`` (GROUP BY / ORDER BY)."""
        if not self.accept_keyword(keyword):
            return ()
        self.expect_keyword("BY")
        return self.comma_list(parse_item)

    def parse_order_item(self) -> OrderItem:
        """``expr [ASC | DESC]``."""
        expr = self.parse_expr()
        if self.accept_keyword("DESC"):
            return OrderItem(expr, descending=True)
        self.accept_keyword("ASC")
        return OrderItem(expr)

    def parse_count(self) -> int:
        """A non-negative integer literal (LIMIT / OFFSET)."""
        token = self.current
        if token.kind != "NUMBER" or not isinstance(token.value, int):
            raise self.error("non-negative integer")
        self.advance()
        return int(token.value)

    # ------------------------------------------------------------------ expressions

    def parse_expr(self) -> Expr:
        """``or_expr``."""
        return self.parse_or()

    def parse_or(self) -> Expr:
        """``and_expr {OR and_expr}``."""
        left = self.parse_and()
        while self.accept_keyword("OR"):
            left = Binary("OR", left, self.parse_and())
        return left

    def parse_and(self) -> Expr:
        """``not_expr {AND not_expr}``."""
        left = self.parse_not()
        while self.accept_keyword("AND"):
            left = Binary("AND", left, self.parse_not())
        return left

    def parse_not(self) -> Expr:
        """``NOT not_expr | predicate``."""
        if self.accept_keyword("NOT"):
            return Unary("NOT", self.parse_not())
        return self.parse_predicate()

    def parse_predicate(self) -> Expr:
        """An additive expression optionally followed by one comparison-level operator."""
        left = self.parse_additive()
        if self.at_op(*COMPARISONS):
            op = COMPARISONS[self.advance().value]
            return Binary(op, left, self.parse_additive())
        if self.accept_keyword("IS"):
            return self.parse_is(left)
        negated = self.accept_keyword("NOT")
        if not self.at_keyword("IN", "BETWEEN", "LIKE"):
            if negated:
                raise self.error("IN, BETWEEN or LIKE")
            return left
        node = self.parse_membership(left)
        return Unary("NOT", node) if negated else node

    def parse_is(self, left: Expr) -> Expr:
        """``IS [NOT] NULL`` (after IS)."""
        negated = self.accept_keyword("NOT")
        self.expect_keyword("NULL")
        return Unary("NOT", IsNull(left)) if negated else IsNull(left)

    def parse_membership(self, left: Expr) -> Expr:
        """``IN (...)``, ``BETWEEN a AND b`` or ``LIKE p`` (current token is the keyword)."""
        keyword = self.advance().value
        if keyword == "IN":
            self.expect_op("(")
            items = self.comma_list(self.parse_expr)
            self.expect_op(")")
            return InList(left, items)
        if keyword == "BETWEEN":
            low = self.parse_additive()
            self.expect_keyword("AND")
            return Between(left, low, self.parse_additive())
        return Like(left, self.parse_additive())

    def parse_additive(self) -> Expr:
        """``multiplicative {("+" | "-") multiplicative}``."""
        left = self.parse_multiplicative()
        while self.at_op("+", "-"):
            op = str(self.advance().value)
            left = Binary(op, left, self.parse_multiplicative())
        return left

    def parse_multiplicative(self) -> Expr:
        """``unary {("*" | "/" | "%") unary}``."""
        left = self.parse_unary()
        while self.at_op("*", "/", "%"):
            op = str(self.advance().value)
            left = Binary(op, left, self.parse_unary())
        return left

    def parse_unary(self) -> Expr:
        """``("-" | "+") unary | primary``."""
        if self.at_op("-", "+"):
            op = str(self.advance().value)
            return Unary(op, self.parse_unary())
        return self.parse_primary()

    def parse_primary(self) -> Expr:
        """Literals, column references, function calls and parenthesised expressions."""
        token = self.current
        if token.kind in ("NUMBER", "STRING"):
            self.advance()
            return Literal(token.value)
        if token.kind == "KEYWORD" and token.value in _KEYWORD_LITERALS:
            self.advance()
            return Literal(_KEYWORD_LITERALS[token.value])
        if token.kind == "IDENT":
            return self.parse_name()
        if self.accept_op("("):
            expr = self.parse_expr()
            self.expect_op(")")
            return expr
        raise self.error("expression")

    def parse_name(self) -> Expr:
        """``name`` | ``table.name`` | ``name(args)``."""
        name = str(self.advance().value)
        if self.accept_op("("):
            return self.parse_call(name)
        if self.accept_op("."):
            return Column(name, self.expect_ident())
        return Column(None, name)

    def parse_call(self, name: str) -> Aggregate:
        """``"*" ")"`` | ``[DISTINCT] expr ")"`` (after the opening parenthesis)."""
        if self.accept_op("*"):
            self.expect_op(")")
            return Aggregate(name.upper(), None)
        distinct = self.accept_keyword("DISTINCT")
        arg = self.parse_expr()
        self.expect_op(")")
        return Aggregate(name.upper(), arg, distinct)
