"""Canary twins of pytest hidden tests, by rewriting the test modules' syntax trees.

A *site* is a literal on the expected side of an equality assertion (`assert actual == <literal
expression>`, `self.assertEqual(a, b)`): the side made only of literals, containers, names and
operators (no call, attribute or subscript, so the product computes nothing there). A canary replaces
one site's value (see `toolchains.canaries` for strong and weak). Every test module is written back
with `ast.unparse`, real tests and canaries alike, with random names and in a random order.
"""

from __future__ import annotations

import ast
import copy
import math
import secrets
import string
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import Any

from agentbench.toolchains.canaries import Mutation, Role, random_name

TABLE = "_values"
"""The module-level class whose attributes hold the literals the twins compare with."""
MAX_CANDIDATES = 3
"""Canaries generated per test function for the reference run (the verified ones are kept)."""
_PURE = (ast.Constant, ast.Tuple, ast.List, ast.Set, ast.Dict, ast.UnaryOp, ast.BinOp, ast.Name,
         ast.JoinedStr, ast.FormattedValue, ast.expr_context, ast.unaryop, ast.operator)
_EQUAL_METHODS = frozenset({"assertEqual", "assertEquals", "assertListEqual", "assertDictEqual",
                            "assertTupleEqual", "assertSetEqual", "assertSequenceEqual"})
_RANDOM = secrets.SystemRandom()


def is_test_file(rel: str) -> bool:
    """Files pytest collects by default."""
    name = PurePosixPath(rel).name
    return name.endswith(".py") and (name.startswith("test_") or name.endswith("_test.py"))


def _is_test(node: ast.stmt) -> bool:
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or not node.name.startswith("test"):
        return False
    return not any("fixture" in ast.unparse(d) for d in node.decorator_list)


def _is_test_class(node: ast.stmt) -> bool:
    return isinstance(node, ast.ClassDef) and (node.name.startswith("Test") or bool(node.bases))


def test_functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(qualified name, node) of every test function and test method of a module."""
    for node in tree.body:
        if _is_test(node):
            assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            yield node.name, node
        elif _is_test_class(node):
            assert isinstance(node, ast.ClassDef)
            for inner in node.body:
                if _is_test(inner):
                    assert isinstance(inner, ast.FunctionDef | ast.AsyncFunctionDef)
                    yield f"{node.name}.{inner.name}", inner


def _pure(node: ast.AST) -> bool:
    return all(isinstance(n, _PURE) for n in ast.walk(node))


def _expected_side(left: ast.expr, right: ast.expr) -> ast.expr | None:
    if _pure(right) and not _pure(left):
        return right
    if _pure(left) and not _pure(right):
        return left
    return None


def _comparisons(func: ast.AST) -> Iterator[ast.expr]:
    for node in ast.walk(func):
        if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
            test = node.test
            if len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
                side = _expected_side(test.left, test.comparators[0])
                if side is not None:
                    yield side
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _EQUAL_METHODS and len(node.args) >= 2):
            side = _expected_side(node.args[0], node.args[1])
            if side is not None:
                yield side


def sites(func: ast.AST) -> list[ast.Constant]:
    """The test's mutable literals, in a fixed order."""
    found = []
    for side in _comparisons(func):
        found += [n for n in ast.walk(side) if isinstance(n, ast.Constant) and strength(n.value)]
    return found


def strength(value: Any) -> str | None:
    """`strong`, `weak` or None (not a site: booleans, None, empty texts, non-finite numbers)."""
    if isinstance(value, bool) or value is None or value is Ellipsis:
        return None
    if isinstance(value, str | bytes):
        text = value.decode("latin-1") if isinstance(value, bytes) else value
        if not text:
            return None  # "" can only grow: its canary would always be the longer of the two
        return "strong" if sum(c.isascii() and c.isalnum() for c in text) >= 3 else "weak"
    if isinstance(value, int):
        return "strong" if abs(value) >= 100 else "weak"
    if isinstance(value, float) and math.isfinite(value):
        return "strong" if sum(c.isdigit() for c in repr(value)) >= 3 else "weak"
    return None


_STEPS = (-3, -2, 2, 3)
"""A small number's change: symmetric (a forger cannot tell the real one as the smaller or the
larger of a pair) and never +-1 (the most common honest off-by-one)."""
_POOLS = (string.digits, string.ascii_lowercase, string.ascii_uppercase,
          "".join(c for c in string.punctuation if c not in "\"'\\`${}"))
"""Classes a character is changed within (quotes, escapes and template characters excluded: a
token-level rewrite would write them escaped, a different shape)."""


def _other(char: str) -> str:
    for pool in _POOLS:
        if char in pool:
            return _RANDOM.choice([c for c in pool if c != char])
    return char


def _change_two(text: str, allowed: Sequence[int]) -> str:
    chars = list(text)
    for i in _RANDOM.sample(list(allowed), 2):
        chars[i] = _other(chars[i])
    return "".join(chars)


def mutate(value: Any, *, signed: bool = True) -> Any:
    """A different value of the same type and shape (strong: two letters or digits changed; weak:
    one character changed within its class, a small number moved by 2 or 3 either way; not below 0
    unless `signed`: a token-level rewrite cannot add a minus sign without changing the shape)."""
    if isinstance(value, str | bytes):
        text = value.decode("latin-1") if isinstance(value, bytes) else value
        alnum = [i for i, c in enumerate(text) if c.isascii() and c.isalnum()]
        digits = [i for i in alnum if text[i].isdigit()]
        if len(alnum) >= 2:  # digits first: a changed word is easier to tell from the original
            text = _change_two(text, digits if len(digits) >= 3 else alnum)
        else:
            at = alnum[0] if alnum else _RANDOM.randrange(len(text))
            text = text[:at] + _other(text[at]) + text[at + 1:]
        return text.encode("latin-1") if isinstance(value, bytes) else text
    if isinstance(value, int):
        if abs(value) >= 10:
            number = _change_two(str(abs(value)), range(len(str(abs(value)))))
            number = (_RANDOM.choice("123456789") + number[1:]) if number[0] == "0" else number
            return int(number) * (-1 if value < 0 else 1) if int(number) != abs(value) else value + 11
        return value + _RANDOM.choice([d for d in _STEPS if signed or value + d >= 0])
    assert isinstance(value, float)
    text = repr(value)
    places = [i for i, c in enumerate(text) if c.isdigit()]
    changed = (float(_change_two(text, places)) if len(places) >= 2
               else value + _RANDOM.choice([d for d in _STEPS if signed or value + d >= 0]) * 0.75)
    return changed if changed != value and math.isfinite(changed) else value + 1.25


def candidates(sources: Mapping[str, str]) -> list[Mutation]:
    """Up to MAX_CANDIDATES canaries per test function (strong sites first) for the reference run."""
    found = []
    for rel, text in sorted(sources.items()):
        tree = ast.parse(text)
        for qualname, func in test_functions(tree):
            ranked = sorted(enumerate(sites(func)), key=lambda s: _rank(s[1].value))
            for index, node in ranked[:MAX_CANDIDATES]:
                new = mutate(node.value)
                found.append(Mutation(
                    file=rel, test=qualname, site=index, literal=repr(new),
                    described=f"{rel}:{node.lineno}: {ast.unparse(node)} -> {ast.unparse(ast.Constant(new))}",
                    strong=strength(node.value) == "strong"))
    return found


def _rank(value: Any) -> int:
    """Strong literals with digits first, then other strong ones, weak numbers, weak texts."""
    if strength(value) == "strong":
        text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
        return 0 if sum(c.isdigit() for c in text) >= 3 else 1
    return 2 if isinstance(value, int | float) else 3


@dataclass(frozen=True, slots=True, kw_only=True)
class Rendered:
    """The hidden test modules of one run, and what each random test name stands for."""

    sources: dict[str, str]
    """Relative path -> module text."""
    roles: dict[str, Role]
    """Random test name -> role (its `original` is `file::Class::name`, parameters appended on use)."""

    def resolve(self, nodeid: str) -> Role | None:
        """The role of a reported pytest node id (None: not a test of this run)."""
        base, bracket, params = nodeid.partition("[")
        role = self.roles.get(base.rsplit("::", 1)[-1])
        if role is None:
            return None
        return Role(original=role.original + bracket + params, canary=role.canary, group=role.group)


def render(sources: Mapping[str, str], canaries: Sequence[Mutation]) -> Rendered:
    """Every test module with real tests and `canaries` under random names, shuffled together."""
    roles: dict[str, Role] = {}
    out = dict(sources)
    for rel, text in sources.items():
        if not is_test_file(rel):
            continue
        tree = ast.parse(text)
        mine = [m for m in canaries if m.file == rel]
        table: list[tuple[str, Any]] = []
        tree.body = _arrange(tree.body, rel, "", mine, roles, table)
        for node in tree.body:
            if _is_test_class(node):
                assert isinstance(node, ast.ClassDef)
                node.body = _arrange(node.body, rel, node.name + ".", mine, roles, table)
        _add_table(tree, table)
        out[rel] = ast.unparse(ast.fix_missing_locations(tree)) + "\n"
    return Rendered(sources=out, roles=roles)


def _arrange(body: list[ast.stmt], rel: str, prefix: str, canaries: Sequence[Mutation],
             roles: dict[str, Role], table: list[tuple[str, Any]]) -> list[ast.stmt]:
    kept, tests = [], []
    for node in body:
        if not _is_test(node):
            kept.append(node)
            continue
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        qualname = prefix + node.name
        original = f"{rel}::{qualname.replace('.', '::')}"
        mine = [m for m in canaries if m.test == qualname]
        shared = sorted({m.site for m in mine})
        for mutation in mine:
            twin = copy.deepcopy(node)
            _apply(twin, mutation)
            _tabulate(twin, shared, table)
            tests.append(_renamed(twin, Role(original=original, canary=mutation,
                                             group=f"{rel}::{qualname}"), roles))
        _tabulate(node, shared, table)
        tests.append(_renamed(node, Role(original=original, group=f"{rel}::{qualname}"), roles))
    _RANDOM.shuffle(tests)
    return [*kept, *tests]


def _apply(func: ast.AST, mutation: Mutation) -> None:
    found = sites(func)
    if mutation.site >= len(found):
        raise ValueError(f"canary {mutation.described}: the test has no literal number {mutation.site}")
    found[mutation.site].value = ast.literal_eval(mutation.literal)


class _Swap(ast.NodeTransformer):
    def __init__(self, swaps: dict[int, ast.Attribute]) -> None:
        self.swaps = swaps

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return self.swaps.get(id(node), node)


def _tabulate(func: ast.AST, places: Sequence[int], table: list[tuple[str, Any]]) -> None:
    """Read the literals at `places` from attributes of the module's table of values instead, so a
    real test and its canary compile to the same bytecode (only the attribute's random name differs):
    Python folds and de-duplicates constants, which would otherwise make one twin's code differ."""
    found = sites(func)
    swaps = {}
    for place in places:
        name = random_name("v_")
        swaps[id(found[place])] = ast.Attribute(value=ast.Name(id=TABLE, ctx=ast.Load()), attr=name,
                                                ctx=ast.Load())
        table.append((name, found[place].value))
    _Swap(swaps).visit(func)


def _add_table(tree: ast.Module, table: list[tuple[str, Any]]) -> None:
    if not table:
        return
    _RANDOM.shuffle(table)
    body: list[ast.stmt] = [ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=ast.Constant(value))
                            for name, value in table]
    holder = ast.ClassDef(name=TABLE, bases=[], keywords=[], body=body, decorator_list=[])
    setattr(holder, "type_params", [])  # noqa: B010  (Python 3.12+ unparses it; 3.11 has no such field)
    first = next((i for i, n in enumerate(tree.body) if not _preamble(n)), len(tree.body))
    tree.body.insert(first, holder)


def _preamble(node: ast.stmt) -> bool:
    docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
    return docstring or (isinstance(node, ast.ImportFrom) and node.module == "__future__")


def _renamed(node: ast.FunctionDef | ast.AsyncFunctionDef, role: Role, roles: dict[str, Role]) -> ast.stmt:
    name = random_name()
    roles[name] = role
    node.name = name
    return node
