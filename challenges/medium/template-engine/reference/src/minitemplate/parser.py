"""Parsing: tokens -> syntax tree (see the grammar in README.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .errors import TemplateSyntaxError
from .filters import FILTERS
from .lexer import BLOCK, COMMENT, TEXT, ExprToken, Token, tokenize, tokenize_expression
from .nodes import And, Compare, Expr, FilterCall, For, If, Literal, Lookup, Node, Not, Or, Output, Text

CONSTANTS = {"true": True, "True": True, "false": False, "False": False, "none": None, "None": None}
RESERVED = frozenset({"and", "or", "not", "in", *CONSTANTS})
COMPARISON_OPS = frozenset({"==", "!=", "<", "<=", ">", ">="})


class ExpressionParser:
    """Recursive-descent parser for the expression inside one tag."""

    def __init__(self, tokens: list[ExprToken], lineno: int) -> None:
        self._tokens = tokens
        self._pos = 0
        self._lineno = lineno

    # -- token helpers -------------------------------------------------------------
    def error(self, message: str) -> TemplateSyntaxError:
        """Build a syntax error located at this tag's line."""
        return TemplateSyntaxError(message, self._lineno)

    def _peek(self) -> ExprToken | None:
        return self._tokens[self._pos] if self._pos < len(self._tokens) else None

    def _next(self) -> ExprToken:
        token = self._peek()
        if token is None:
            raise self.error("unexpected end of expression")
        self._pos += 1
        return token

    def _accept(self, kind: str, value: str) -> bool:
        token = self._peek()
        if token is not None and (token.kind, token.value) == (kind, value):
            self._pos += 1
            return True
        return False

    def expect(self, kind: str, value: str) -> None:
        """Consume the token ``(kind, value)`` or raise."""
        if not self._accept(kind, value):
            raise self.error(f"expected {value!r}")

    def expect_identifier(self) -> str:
        """Consume and return a non-reserved name."""
        token = self._next()
        if token.kind != "name" or token.value in RESERVED:
            raise self.error(f"expected a name, got {token.value!r}")
        return token.value

    def expect_end(self) -> None:
        """Raise unless every token has been consumed."""
        token = self._peek()
        if token is not None:
            raise self.error(f"unexpected {token.value!r}")

    # -- grammar -------------------------------------------------------------------
    def parse_complete(self) -> Expr:
        """Parse an expression that must span all remaining tokens."""
        if self._peek() is None:
            raise self.error("expected an expression")
        expr = self.parse_expression()
        self.expect_end()
        return expr

    def parse_expression(self) -> Expr:
        """expression := and_expr ("or" and_expr)*"""
        expr = self._and()
        while self._accept("name", "or"):
            expr = Or(expr, self._and())
        return expr

    def _and(self) -> Expr:
        expr = self._not()
        while self._accept("name", "and"):
            expr = And(expr, self._not())
        return expr

    def _not(self) -> Expr:
        if self._accept("name", "not"):
            return Not(self._not())
        return self._comparison()

    def _comparison(self) -> Expr:
        left = self._filtered()
        token = self._peek()
        if token is not None and token.kind == "op" and token.value in COMPARISON_OPS:
            self._pos += 1
            return Compare(left, token.value, self._filtered())
        return left

    def _filtered(self) -> Expr:
        expr = self._primary()
        while self._accept("op", "|"):
            expr = self._filter(expr)
        return expr

    def _filter(self, value: Expr) -> Expr:
        name = self.expect_identifier()
        spec = FILTERS.get(name)
        if spec is None:
            raise self.error(f"unknown filter {name!r}")
        args = self._arguments()
        if not spec.min_args <= len(args) <= spec.max_args:
            raise self.error(f"filter {name!r} takes {spec.min_args}-{spec.max_args} arguments")
        return FilterCall(value, name, args)

    def _arguments(self) -> tuple[Expr, ...]:
        if not self._accept("op", "("):
            return ()
        if self._accept("op", ")"):
            return ()
        args = [self.parse_expression()]
        while self._accept("op", ","):
            args.append(self.parse_expression())
        self.expect("op", ")")
        return tuple(args)

    def _primary(self) -> Expr:
        token = self._next()
        handler = self._PRIMARY.get(token.kind)
        if handler is None:
            return self._parenthesized(token)
        return handler(self, token)

    def _parenthesized(self, token: ExprToken) -> Expr:
        if token.value != "(":
            raise self.error(f"unexpected {token.value!r}")
        expr = self.parse_expression()
        self.expect("op", ")")
        return expr

    def _name(self, token: ExprToken) -> Expr:
        if token.value in CONSTANTS:
            return Literal(CONSTANTS[token.value])
        if token.value in RESERVED:
            raise self.error(f"unexpected {token.value!r}")
        attrs: list[str] = []
        while self._accept("op", "."):
            attrs.append(self.expect_identifier())
        return Lookup(token.value, tuple(attrs))

    _PRIMARY: dict[str, Callable[[ExpressionParser, ExprToken], Expr]] = {
        "string": lambda self, tok: Literal(tok.value[1:-1]),
        "int": lambda self, tok: Literal(int(tok.value)),
        "float": lambda self, tok: Literal(float(tok.value)),
        "name": _name,
    }


@dataclass(frozen=True)
class Tag:
    """A parsed ``{% ... %}`` tag: its keyword and an expression parser for the rest."""

    keyword: str
    rest: ExpressionParser
    lineno: int


class Parser:
    """Builds the node tree of a whole template."""

    def __init__(self, source: str) -> None:
        self._tokens: list[Token] = tokenize(source)
        self._pos = 0

    def parse(self) -> tuple[Node, ...]:
        """Parse the template; raise :class:`TemplateSyntaxError` on malformed input."""
        body, _ = self._body(frozenset())
        return body

    def _body(self, terminators: frozenset[str]) -> tuple[tuple[Node, ...], Tag | None]:
        """Parse nodes until a block tag whose keyword is in ``terminators`` (or the end)."""
        nodes: list[Node] = []
        while self._pos < len(self._tokens):
            token = self._tokens[self._pos]
            self._pos += 1
            if token.kind == BLOCK:
                tag = _block_tag(token)
                if tag.keyword in terminators:
                    return tuple(nodes), tag
                nodes.append(self._statement(tag))
            elif token.kind != COMMENT:
                nodes.append(_simple_node(token))
        return tuple(nodes), None

    def _statement(self, tag: Tag) -> Node:
        if tag.keyword == "if":
            return self._if(tag)
        if tag.keyword == "for":
            return self._for(tag)
        raise TemplateSyntaxError(f"unexpected tag {tag.keyword!r}", tag.lineno)

    def _block_until(self, opener: Tag, terminators: frozenset[str]) -> tuple[tuple[Node, ...], Tag]:
        body, end = self._body(terminators)
        if end is None:
            raise TemplateSyntaxError(f"unclosed {opener.keyword!r} block", opener.lineno)
        return body, end

    def _if(self, tag: Tag) -> Node:
        branches: list[tuple[Expr, tuple[Node, ...]]] = []
        condition = tag.rest.parse_complete()
        body, end = self._block_until(tag, _IF_TERMINATORS)
        while end.keyword == "elif":
            branches.append((condition, body))
            condition = end.rest.parse_complete()
            body, end = self._block_until(tag, _IF_TERMINATORS)
        branches.append((condition, body))
        else_body: tuple[Node, ...] = ()
        if end.keyword == "else":
            end.rest.expect_end()
            else_body, end = self._block_until(tag, frozenset({"endif"}))
        end.rest.expect_end()
        return If(tuple(branches), else_body)

    def _for(self, tag: Tag) -> Node:
        target = tag.rest.expect_identifier()
        tag.rest.expect("name", "in")
        iterable = tag.rest.parse_complete()
        body, end = self._block_until(tag, frozenset({"endfor"}))
        end.rest.expect_end()
        return For(target, iterable, body)


_IF_TERMINATORS = frozenset({"elif", "else", "endif"})


def _block_tag(token: Token) -> Tag:
    tokens = tokenize_expression(token.value, token.lineno)
    if not tokens or tokens[0].kind != "name":
        raise TemplateSyntaxError("expected a tag name", token.lineno)
    return Tag(tokens[0].value, ExpressionParser(tokens[1:], token.lineno), token.lineno)


def _simple_node(token: Token) -> Node:
    if token.kind == TEXT:
        return Text(token.value)
    tokens = tokenize_expression(token.value, token.lineno)
    return Output(ExpressionParser(tokens, token.lineno).parse_complete())


def parse(source: str) -> tuple[Node, ...]:
    """Parse template ``source`` into a tuple of nodes."""
    return Parser(source).parse()
