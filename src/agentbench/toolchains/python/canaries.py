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

from agentbench.toolchains.canaries import MUST_FAIL, Mutation, RenderedTests, Role, random_name

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


def _comparisons(nodes: Sequence[ast.AST]) -> Iterator[tuple[ast.AST, ast.expr]]:
    """(assertion, its expected side) of each equality assertion among `nodes`."""
    for node in nodes:
        if isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
            test = node.test
            if len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
                side = _expected_side(test.left, test.comparators[0])
                if side is not None:
                    yield node, side
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr in _EQUAL_METHODS and len(node.args) >= 2):
            side = _expected_side(node.args[0], node.args[1])
            if side is not None:
                yield node, side


def sites(func: ast.AST) -> list[ast.AST]:
    """The test's sites, in a fixed order: mutable literals (`ast.Constant`), then assertions of a
    truth value without one (`ast.Assert`: `assert f(x)`, `assert not f(x)`, `assert f(x) == expected`),
    then `with pytest.raises(Error):` calls (`ast.Call`) naming an exception a table can name too."""
    found: list[ast.AST] = []
    compared: set[int] = set()
    nodes = list(ast.walk(func))  # NOTE: walked once (each pass below keeps ast.walk's order)
    for owner, side in _comparisons(nodes):
        literals = [n for n in _outside_fstrings(side) if isinstance(n, ast.Constant) and strength(n.value)]
        found += literals
        if literals:
            compared.add(id(owner))
    found += [n for n in nodes if isinstance(n, ast.Assert) and id(n) not in compared
              and not _pure(n.test)]
    withitems = [n for n in nodes if isinstance(n, ast.withitem)]
    local = _local_names(func, nodes) if withitems else set()
    found += [n for n in withitems if _raises_error(n.context_expr, local) is not None]
    return found


def _outside_fstrings(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes under `node`, not entering f-strings (their parts cannot become attributes)."""
    yield node
    if not isinstance(node, ast.JoinedStr):
        for child in ast.iter_child_nodes(node):
            yield from _outside_fstrings(child)


def _raises_error(node: ast.expr, local: set[str]) -> ast.expr | None:
    """The exception of `pytest.raises(Error, ...)` when it is a name or attribute of one that is not
    local to the test (so the module's table can name it)."""
    if not (isinstance(node, ast.Call) and node.args and ast.unparse(node.func) in ("pytest.raises", "raises")):
        return None
    error = node.args[0]
    root = error
    while isinstance(root, ast.Attribute):
        root = root.value
    return error if isinstance(root, ast.Name) and root.id not in local else None


def _local_names(func: ast.AST, nodes: Sequence[ast.AST] | None = None) -> set[str]:
    """Names the test binds itself (assigned, parameters, imported, caught, defined); `nodes`: the
    nodes of `func` when already walked."""
    nodes = list(ast.walk(func)) if nodes is None else nodes
    names = {n.id for n in nodes if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    names |= {a.arg for a in nodes if isinstance(a, ast.arg)}
    names |= {(a.asname or a.name).split(".")[0] for n in nodes if isinstance(n, ast.Import | ast.ImportFrom)
              for a in n.names}
    names |= {n.name for n in nodes if isinstance(n, ast.ExceptHandler) and n.name}
    return names | {n.name for n in nodes if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
                     and n is not func}


def truth(node: ast.Assert) -> tuple[ast.expr, bool]:
    """(expression, the truth value the assertion expects)."""
    test = node.test
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return test.operand, False
    return test, True


def site_value(site: ast.AST) -> ast.expr:
    """The site's expected value as an expression (what the module's table holds for it)."""
    if isinstance(site, ast.Constant):
        return ast.Constant(site.value)
    if isinstance(site, ast.Assert):
        return ast.Constant(truth(site)[1])
    assert isinstance(site, ast.withitem) and isinstance(site.context_expr, ast.Call)
    return copy.deepcopy(site.context_expr.args[0])


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
    unless `signed`: a token-level rewrite cannot add a minus sign without changing the shape). A
    number is never changed to 0, 1 or -1: what a placeholder returns must not pass a canary."""
    for _ in range(50):
        changed = _mutated(value, signed)
        if isinstance(changed, str | bytes) or changed not in (0, 1, -1):
            return changed
    return value + 11


def _mutated(value: Any, signed: bool) -> Any:
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


_BUILTIN_ERRORS = ("ValueError", "TypeError", "KeyError", "IndexError", "RuntimeError",
                   "AttributeError", "LookupError", "ZeroDivisionError", "OSError")
"""Exceptions a `pytest.raises` canary may expect instead (with the others the module expects)."""


def candidates(sources: Mapping[str, str], must_fail: Sequence[str] = ()) -> list[Mutation]:
    """Up to MAX_CANDIDATES canaries per test function for the reference run: its literals (strong
    ones first) when it has any, else its truth assertions and expected exceptions; and the
    challenge's own `must_fail` tests (`file::test`, `file::Class::test`) as they are."""
    found: list[Mutation | None] = [
        Mutation(file=rel, test=test.replace("::", "."), site=MUST_FAIL, literal="",
                 described=f"{rel}: must_fail test {test}", strong=False)
        for rel, _, test in (name.partition("::") for name in must_fail)]
    own = {m.twin for m in found if m is not None}
    for rel, text in sorted(sources.items()):
        tree = ast.parse(text)
        errors = _module_errors(tree)
        for qualname, func in test_functions(tree):
            if f"{rel}::{qualname}" in own:
                continue
            places = list(enumerate(sites(func)))
            literal = [(i, n) for i, n in places if isinstance(n, ast.Constant)]
            ranked = (sorted(literal, key=lambda s: _rank(s[1].value)) if literal
                      else sorted(places, key=lambda s: isinstance(s[1], ast.Assert)))
            found += [_candidate(rel, qualname, index, node, errors) for index, node in ranked[:MAX_CANDIDATES]]
    return [m for m in found if m is not None]


def _rank(value: Any) -> int:
    """Strong literals with digits first, then other strong ones, weak numbers, weak texts."""
    if strength(value) == "strong":
        text = value.decode("latin-1") if isinstance(value, bytes) else str(value)
        return 0 if sum(c.isdigit() for c in text) >= 3 else 1
    return 2 if isinstance(value, int | float) else 3


def _module_errors(tree: ast.Module) -> list[str]:
    named = {ast.unparse(error) for func in (f for _, f in test_functions(tree))
             for n in ast.walk(func) if isinstance(n, ast.withitem)
             and (error := _raises_error(n.context_expr, _local_names(func))) is not None}
    return sorted(named | set(_BUILTIN_ERRORS))


def _candidate(rel: str, qualname: str, index: int, node: ast.AST, errors: Sequence[str]) -> Mutation | None:
    line = getattr(node, "lineno", None) or getattr(getattr(node, "context_expr", None), "lineno", 0)
    where = f"{rel}:{line}"
    if isinstance(node, ast.Constant):
        new = mutate(node.value)
        return Mutation(file=rel, test=qualname, site=index, literal=repr(new),
                        described=f"{where}: {ast.unparse(node)} -> {ast.unparse(ast.Constant(new))}",
                        strong=strength(node.value) == "strong")
    if isinstance(node, ast.Assert):
        expected = truth(node)[1]
        return Mutation(file=rel, test=qualname, site=index, literal=repr(not expected),
                        described=f"{where}: expects {expected} -> {not expected}", strong=False, common=True)
    own = ast.unparse(site_value(node))
    others = [e for e in errors if e != own]
    alternative = _RANDOM.choice(others)
    return Mutation(file=rel, test=qualname, site=index, literal=alternative,
                    described=f"{where}: raises {own} -> {alternative}", strong=False, common=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rendered(RenderedTests):
    """The hidden test modules of one run, and what each random test name stands for (a role's
    `original` is `file::Class::name`, parameters appended on use)."""

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
        table: list[tuple[str, ast.expr]] = []
        tree.body = _arrange(tree.body, rel, "", mine, roles, table)
        for node in tree.body:
            if _is_test_class(node):
                assert isinstance(node, ast.ClassDef)
                node.body = _arrange(node.body, rel, node.name + ".", mine, roles, table)
        _add_table(tree, table)
        out[rel] = ast.unparse(tree) + "\n"
    return Rendered(sources=out, roles=roles)


def _arrange(body: list[ast.stmt], rel: str, prefix: str, canaries: Sequence[Mutation],
             roles: dict[str, Role], table: list[tuple[str, ast.expr]]) -> list[ast.stmt]:
    kept, tests = [], []
    for node in body:
        if not _is_test(node):
            kept.append(node)
            continue
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        qualname = prefix + node.name
        original = f"{rel}::{qualname.replace('.', '::')}"
        mine = [m for m in canaries if m.test == qualname]
        if any(m.site == MUST_FAIL for m in mine):  # the challenge's own canary: run as it is
            tests.append(_renamed(node, Role(original=f"must_fail {original}", canary=mine[0],
                                             group=f"{rel}::{qualname}"), roles))
            continue
        shared = sorted({m.site for m in mine})
        for mutation in mine:
            twin = _clone(node)
            _tabulate(twin, shared, table, mutation)
            tests.append(_renamed(twin, Role(original=original, canary=mutation,
                                             group=f"{rel}::{qualname}"), roles))
        _tabulate(node, shared, table, None)
        tests.append(_renamed(node, Role(original=original, group=f"{rel}::{qualname}"), roles))
    _RANDOM.shuffle(tests)
    return [*kept, *tests]


def _clone(node: Any) -> Any:
    """A deep copy of a syntax tree: its nodes and lists copied, their leaf values (names, constants:
    immutable) shared; several times cheaper than `copy.deepcopy`."""
    if isinstance(node, ast.AST):
        twin = node.__class__.__new__(node.__class__)
        twin.__dict__.update({key: _clone(value) for key, value in node.__dict__.items()})
        return twin
    if isinstance(node, list):
        return [_clone(item) for item in node]
    return node


def _swap(func: ast.AST, swaps: dict[int, ast.Attribute]) -> None:
    """Replace the constants whose ids `swaps` names by their attribute."""
    if not swaps:
        return
    for parent in ast.walk(func):
        for field, value in ast.iter_fields(parent):
            if isinstance(value, ast.Constant) and id(value) in swaps:
                setattr(parent, field, swaps[id(value)])
            elif isinstance(value, list):
                value[:] = [swaps.get(id(item), item) if isinstance(item, ast.Constant) else item
                            for item in value]


def _tabulate(func: ast.AST, places: Sequence[int], table: list[tuple[str, ast.expr]],
              mutation: Mutation | None) -> None:
    """Read the expected values at `places` from attributes of the module's table of values (the
    canary's changed one at its site), so a real test and its canary compile to the same bytecode,
    only the attribute's random name differs: Python folds and de-duplicates constants, which would
    otherwise make one twin's code differ. A truth assertion becomes `assert bool(x) == <attribute>`,
    an expected exception `pytest.raises(<attribute>)`."""
    found = sites(func)
    swaps = {}
    for place in places:
        if place >= len(found):
            raise ValueError(f"canary {mutation.described if mutation else ''}: the test has no site {place}")
        site, name = found[place], random_name("v_")
        attribute = ast.Attribute(value=ast.Name(id=TABLE, ctx=ast.Load()), attr=name, ctx=ast.Load())
        changed = mutation is not None and mutation.site == place
        value = ast.parse(mutation.literal, mode="eval").body if changed and mutation else site_value(site)
        table.append((name, value))
        if isinstance(site, ast.Constant):
            swaps[id(site)] = attribute
        elif isinstance(site, ast.Assert):
            tested = truth(site)[0]
            site.test = ast.Compare(left=ast.Call(func=ast.Name(id="bool", ctx=ast.Load()), args=[tested],
                                                  keywords=[]), ops=[ast.Eq()], comparators=[attribute])
        else:
            assert isinstance(site, ast.withitem) and isinstance(site.context_expr, ast.Call)
            site.context_expr.args[0] = attribute
    _swap(func, swaps)


def _entry(name: str, value: ast.expr) -> ast.stmt:
    """`v_... = value`; an exception's name may not resolve (None then: that test fails, not its module)."""
    assign = ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value)
    if isinstance(value, ast.Constant):
        return assign
    fallback = ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=ast.Constant(None))
    handler = ast.ExceptHandler(type=ast.Name(id="Exception", ctx=ast.Load()), name=None, body=[fallback])
    return ast.Try(body=[assign], handlers=[handler], orelse=[], finalbody=[])


def _add_table(tree: ast.Module, table: list[tuple[str, ast.expr]]) -> None:
    """The table goes last: it may name the module's exceptions, and tests read it only when run."""
    if not table:
        return
    _RANDOM.shuffle(table)
    body = [_entry(name, value) for name, value in table]
    holder = ast.ClassDef(name=TABLE, bases=[], keywords=[], body=body, decorator_list=[])
    setattr(holder, "type_params", [])  # noqa: B010  (Python 3.12+ unparses it; 3.11 has no such field)
    ast.fix_missing_locations(holder)  # NOTE: unparsing reads an assignment's line (the rest: none)
    tree.body.append(holder)


def _renamed(node: ast.FunctionDef | ast.AsyncFunctionDef, role: Role, roles: dict[str, Role]) -> ast.stmt:
    name = random_name()
    roles[name] = role
    node.name = name
    return node
