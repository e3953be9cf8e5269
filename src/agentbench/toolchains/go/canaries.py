"""Canary twins of Go hidden tests, by rewriting the `_test.go` files' text.

Go test names are top-level functions, so a canary is a copy of a whole `func TestXxx(t *testing.T)`
with one literal on an expected side changed, placed right before or right after its twin at random;
every test function, real or canary, is renamed `Test_<random>`. A *site* (within the test's body) is
a string or number literal that is:

- the whole side of a `!=` / `==` comparison (`if got != 42 {`);
- the argument of a helper declared in the file whose parameter is named `want...`/`expected...`
  (`check(t, calc.Add(2, 3), 5)` with `func check(t *testing.T, got, want int)`);
- the value of a `want...`/`expected...` field in a composite literal (`{in: "IV", want: 4}`);
- a value of a map literal that a `for key, want := range ...` loop reads as the expected value.

A canary is judged by its top-level test only (a table's other rows pass in the canary too).
"""

from __future__ import annotations

import ast
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from agentbench.toolchains.canaries import Mutation, Role
from agentbench.toolchains.node.canaries import _close, _Tok, tokenize
from agentbench.toolchains.python.canaries import MAX_CANDIDATES, mutate, strength

_EXPECTED = re.compile(r"^(want|expect)", re.I)
_ENDS_SIDE = {"{", ")", "&&", "||", ";", ",", "}"}
_RANDOM = secrets.SystemRandom()


def is_test_file(rel: str) -> bool:
    """Go test files."""
    return PurePosixPath(rel).name.endswith("_test.go")


def _name() -> str:
    return "Test_" + secrets.token_hex(6)


@dataclass(frozen=True, slots=True)
class _Test:
    name: str
    name_index: int
    span: tuple[int, int]
    """Token span from `func` to the body's closing brace."""


def _tokens(text: str) -> list[_Tok]:
    # `&&`, `||`, `==`, `!=` and `:=` as one token each
    merged: list[_Tok] = []
    for tok in tokenize(text):
        if merged and tok.text in "&|" and merged[-1].text == tok.text and merged[-1].end == tok.start:
            merged[-1] = _Tok("punct", tok.text * 2, merged[-1].start, tok.end)
            continue
        if merged and tok.text == "=" and merged[-1].text in ("!", "=", ":") and merged[-1].end == tok.start:
            merged[-1] = _Tok("punct", merged[-1].text + "=", merged[-1].start, tok.end)
            continue
        merged.append(tok)
    return merged


def find_tests(tokens: Sequence[_Tok]) -> list[_Test]:
    """Top-level `func TestXxx(t *testing.T) {...}` declarations."""
    found = []
    for i, tok in enumerate(tokens[:-2]):
        name = tokens[i + 1].text
        if tok.text != "func" or tokens[i + 2].text != "(" or not re.match(r"Test($|[^a-z])", name):
            continue
        if name == "TestMain":
            continue
        params_end = _close(tokens, i + 2)
        body = next((j for j in range(params_end, len(tokens)) if tokens[j].text == "{"), None)
        if body is None:
            continue
        found.append(_Test(name=name, name_index=i + 1, span=(i, _close(tokens, body))))
    return found


def _helpers(tokens: Sequence[_Tok]) -> dict[str, set[int]]:
    """Helper functions of the file: name -> argument positions whose parameter is `want...`."""
    found: dict[str, set[int]] = {}
    for i, tok in enumerate(tokens[:-2]):
        if tok.text != "func" or tokens[i + 1].kind != "id" or tokens[i + 2].text != "(":
            continue
        close = _close(tokens, i + 2)
        names: list[str] = []
        expect_name = True
        for j in range(i + 3, close):
            t = tokens[j]
            if t.text == ",":
                expect_name = True
            elif expect_name and t.kind == "id":
                names.append(t.text)
                expect_name = False
        positions = {n for n, name in enumerate(names) if _EXPECTED.match(name)}
        if positions:
            found[tokens[i + 1].text] = positions
    return found


def _literal_at(tokens: Sequence[_Tok], i: int) -> int | None:
    """The index of a literal token at `i` (after an optional minus sign) that is a site's kind."""
    if i < len(tokens) and tokens[i].text == "-":
        i += 1
    if i < len(tokens) and (tokens[i].kind == "num" or (tokens[i].kind == "str" and tokens[i].text[0] == '"')):
        return i
    return None


def sites(tokens: Sequence[_Tok], span: tuple[int, int], helpers: Mapping[str, set[int]],
          text: str = "") -> list[int]:
    """Token indexes of the literals a canary may change in a test, in a fixed order."""
    found: list[int] = []
    wanted_maps = _range_targets(tokens, span)
    for i in range(span[0], span[1]):
        tok = tokens[i]
        if tok.text in ("!=", "=="):
            right = _literal_at(tokens, i + 1)
            if right is not None and right + 1 < len(tokens) and tokens[right + 1].text in _ENDS_SIDE:
                found.append(right)
            left = i - 1 if tokens[i - 1].kind in ("num", "str") else None
            if left is not None and tokens[left - 1].text in ("if", "(", "&&", "||", ";"):
                found.append(left)
        elif tok.kind == "id" and tok.text in helpers and tokens[i + 1].text == "(":
            found += _helper_sites(tokens, i + 1, helpers[tok.text])
        elif tok.kind == "id" and _EXPECTED.match(tok.text) and tokens[i + 1].text == ":":
            place = _literal_at(tokens, i + 2)
            if place is not None and tokens[place + 1].text in (",", "}"):
                found.append(place)
        elif tok.text == "{" and i in wanted_maps:
            found += _map_values(tokens, i)
        elif tok.text == "struct" and tokens[i + 1].text == "{" and text:
            found += _positional_rows(tokens, i + 1, text)
    return [p for p in dict.fromkeys(found) if strength(_value(tokens[p])) is not None]


def _struct_fields(tokens: Sequence[_Tok], open_index: int, text: str) -> list[str]:
    """Field names of a `struct { ... }` type in order (one per declared name)."""
    close = _close(tokens, open_index)
    names: list[str] = []
    at_start = True
    for j in range(open_index + 1, close):
        breaks = "\n" in text[tokens[j - 1].end:tokens[j].start] or tokens[j - 1].text == ";"
        at_start = at_start or breaks
        if at_start and tokens[j].kind == "id":
            names.append(tokens[j].text)
            at_start = tokens[j + 1].text == ","
        elif tokens[j].text != ",":
            at_start = False
    return names


def _positional_rows(tokens: Sequence[_Tok], open_index: int, text: str) -> list[int]:
    """The `want...` field's literal in each unkeyed row of a table typed by the struct at
    `open_index` (`[]struct{ in string; want int }{{"IV", 4}, ...}`)."""
    from agentbench.toolchains.node.canaries import _arguments

    fields = _struct_fields(tokens, open_index, text)
    wanted = {n for n, name in enumerate(fields) if _EXPECTED.match(name)}
    rows_open = _close(tokens, open_index) + 1
    if not wanted or rows_open >= len(tokens) or tokens[rows_open].text != "{":
        return []
    found = []
    for first, last in _arguments(tokens, rows_open):
        if tokens[first].text != "{" or _close(tokens, first) != last:
            continue
        row = _arguments(tokens, first)
        if len(row) != len(fields) or any(tokens[a].text == ":" for start, end in row for a in range(start, end + 1)):
            continue
        for n in sorted(wanted):
            place = _literal_at(tokens, row[n][0])
            if place is not None and place == row[n][1]:
                found.append(place)
    return found


def _helper_sites(tokens: Sequence[_Tok], open_index: int, positions: set[int]) -> list[int]:
    from agentbench.toolchains.node.canaries import _arguments

    found = []
    for n, (first, last) in enumerate(_arguments(tokens, open_index)):
        place = _literal_at(tokens, first)
        if n in positions and place is not None and place == last:
            found.append(place)
    return found


def _range_targets(tokens: Sequence[_Tok], span: tuple[int, int]) -> set[int]:
    """`{` of map literals whose values a `for k, want := range` loop reads."""
    names: set[str] = set()
    targets: set[int] = set()
    for i in range(span[0], span[1] - 5):
        t = tokens
        if t[i].text == "for" and t[i + 2].text == "," and _EXPECTED.match(t[i + 3].text) \
                and t[i + 4].text == ":=" and t[i + 5].text == "range":
            j = i + 6
            if t[j].text == "map":
                targets.add(next(k for k in range(j, span[1]) if t[k].text == "{"))
            elif t[j].kind == "id":
                names.add(t[j].text)
    for i in range(span[0], span[1] - 2):
        if tokens[i].text in names and tokens[i + 1].text in (":=", "=") and tokens[i + 2].text == "map":
            targets.add(next(k for k in range(i, span[1]) if tokens[k].text == "{"))
    return targets


def _map_values(tokens: Sequence[_Tok], open_index: int) -> list[int]:
    close = _close(tokens, open_index)
    found = []
    i = open_index + 1
    while i < close:
        if tokens[i].text in "([{":
            i = _close(tokens, i) + 1
            continue
        if tokens[i].text == ":":
            place = _literal_at(tokens, i + 1)
            if place is not None and tokens[place + 1].text in (",", "}"):
                found.append(place)
        i += 1
    return found


def _value(tok: _Tok) -> object:
    if tok.kind == "str":
        try:
            return ast.literal_eval(tok.text)
        except (ValueError, SyntaxError):
            return None
    text = tok.text.replace("_", "")
    if text[:2].lower() in ("0x", "0b", "0o") or text.endswith("n") or "i" in text:
        return None
    try:
        return float(text) if any(c in text for c in ".eE") else int(text)
    except ValueError:
        return None


def _literal(value: object) -> str:
    return json.dumps(value) if isinstance(value, str) else repr(value)


def candidates(sources: Mapping[str, str]) -> list[Mutation]:
    """Up to MAX_CANDIDATES canaries per test function (strong sites first)."""
    found = []
    for rel, text in sorted(sources.items()):
        tokens = _tokens(text)
        helpers = _helpers(tokens)
        for test in find_tests(tokens):
            places = sites(tokens, test.span, helpers, text)
            ranked = sorted(enumerate(places), key=lambda s: strength(_value(tokens[s[1]])) != "strong")
            for index, place in ranked[:MAX_CANDIDATES]:
                old = _value(tokens[place])
                new = mutate(old, signed=False)
                line = text.count("\n", 0, tokens[place].start) + 1
                found.append(Mutation(file=rel, test=test.name, site=index, literal=_literal(new),
                                      described=f"{rel}:{line}: {tokens[place].text} -> {_literal(new)}",
                                      strong=strength(old) == "strong"))
    return found


@dataclass(frozen=True, slots=True, kw_only=True)
class Rendered:
    """The hidden test files of one run, and what each random test name stands for."""

    sources: dict[str, str]
    roles: dict[str, Role]

    def resolve(self, test_id: str) -> Role | None:
        """The role of a reported `package Test/sub` id: a canary only at its top level."""
        package, _, test = test_id.partition(" ")
        top, slash, sub = test.partition("/")
        role = self.roles.get(top)
        if role is None or (role.canary is not None and slash):
            return None
        original = f"{package} {role.original}{slash}{sub}"
        return Role(original=original, canary=role.canary, group=role.group)


def render(sources: Mapping[str, str], canaries: Sequence[Mutation]) -> Rendered:
    """Every test file with real tests and `canaries` renamed at random, twins side by side."""
    roles: dict[str, Role] = {}
    out = dict(sources)
    for rel, text in sources.items():
        if not is_test_file(rel):
            continue
        tokens = _tokens(text)
        helpers = _helpers(tokens)
        pieces, last = [], 0
        for test in find_tests(tokens):
            start, end = tokens[test.span[0]].start, tokens[test.span[1]].end
            group = []
            for mutation in [None, *(m for m in canaries if m.file == rel and m.test == test.name)]:
                name, variant = _variant(text, tokens, test, mutation, helpers)
                roles[name] = Role(original=test.name, canary=mutation, group=f"{rel}::{test.name}")
                group.append(variant)
            _RANDOM.shuffle(group)
            pieces += [text[last:start], "\n\n".join(group)]
            last = end
        out[rel] = "".join([*pieces, text[last:]])
    return Rendered(sources=out, roles=roles)


def _variant(text: str, tokens: Sequence[_Tok], test: _Test, mutation: Mutation | None,
             helpers: Mapping[str, set[int]]) -> tuple[str, str]:
    """(random name, text) of the test, or of its canary for `mutation`."""
    name = _name()
    edits = {test.name_index: name}
    if mutation is not None:
        edits[sites(tokens, test.span, helpers, text)[mutation.site]] = mutation.literal
    start, end = tokens[test.span[0]].start, tokens[test.span[1]].end
    pieces, pos = [], start
    for index in sorted(edits):
        pieces += [text[pos:tokens[index].start], edits[index]]
        pos = tokens[index].end
    return name, "".join([*pieces, text[pos:end]])
