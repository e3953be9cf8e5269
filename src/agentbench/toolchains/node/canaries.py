"""Canary twins of node:test hidden tests, by rewriting the test files' text.

A small tokenizer (strings, template literals, comments, regular expressions, numbers, names,
punctuation) finds each `test(title, ...)` / `it(title, ...)` call; a *site* is a string or number
literal in the expected argument of `assert.equal`, `assert.strictEqual`, `assert.deepEqual`,
`assert.deepStrictEqual` (the second argument) or `expect(...).toBe/toEqual/toStrictEqual` when that
argument is made only of literals, names, brackets and operators (nothing the product computes).
A canary is the whole call again with one site's value changed (`python.canaries.mutate`), placed
right before or right after its twin at random; every title, real or canary, becomes a fresh random
name (a title that is not a plain string keeps its text after the random prefix). `assert.throws(fn,
E)` twins expect another error class; `assert.match` and `assert.ok` twins: see `node/truths.py`.
"""

from __future__ import annotations

import ast
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from agentbench.toolchains.canaries import Mutation, RenderedTests, Role, random_name
from agentbench.toolchains.node.truths import mutate_regex, regex_strength, truth_sites
from agentbench.toolchains.python.canaries import MAX_CANDIDATES, mutate, strength

_TOKEN = re.compile(r"""
    (?P<space>\s+) | (?P<line>//[^\n]*) | (?P<block>/\*.*?\*/) |
    (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*') |
    (?P<num>(?:0[xXbBoO][0-9a-fA-F_]+|(?:\d[\d_]*\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)n?) |
    (?P<id>[A-Za-z_$][\w$]*) | (?P<tmpl>`) | (?P<punct>=>|\.\.\.|[^\s\w])
""", re.X | re.S)
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {"", "return", "typeof", "case"}
_ASSERT_EQUAL = {"equal", "strictEqual", "deepEqual", "deepStrictEqual"}
_EXPECT_EQUAL = {"toBe", "toEqual", "toStrictEqual"}
_PURE_NAMES = {"true", "false", "null", "undefined", "NaN", "Infinity"}
_RANDOM = secrets.SystemRandom()
SUFFIXES = (".ts", ".mts", ".js", ".mjs")


@dataclass(frozen=True, slots=True)
class _Tok:
    kind: str
    text: str
    start: int
    end: int


def tokenize(text: str) -> list[_Tok]:
    """The file's tokens (comments and white space dropped); a template literal is one token."""
    tokens: list[_Tok] = []
    pos = 0
    while pos < len(text):
        prev = tokens[-1].text if tokens else ""
        if text[pos] == "/" and (prev in _REGEX_AFTER) and text[pos:pos + 2] not in ("//", "/*"):
            end = _regex_end(text, pos)
            tokens.append(_Tok("regex", text[pos:end], pos, end))
            pos = end
            continue
        match = _TOKEN.match(text, pos)
        if match is None:
            raise ValueError(f"cannot read the test file at offset {pos}")
        kind = match.lastgroup or "punct"
        end = _template_end(text, pos) if kind == "tmpl" else match.end()
        if kind not in ("space", "line", "block"):
            tokens.append(_Tok(kind, text[pos:end], pos, end))
        pos = end
    return tokens


def _regex_end(text: str, pos: int) -> int:
    i, in_class = pos + 1, False
    while i < len(text) and text[i] != "\n":
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            i += 1
            while i < len(text) and (text[i].isalnum() or text[i] == "_"):
                i += 1
            return i
        i += 1
    raise ValueError(f"unterminated regular expression at offset {pos}")


def _template_end(text: str, pos: int) -> int:
    i, depth = pos + 1, 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if depth == 0 and c == "`":
            return i + 1
        if c == "$" and text[i + 1:i + 2] == "{":
            depth += 1
            i += 2
            continue
        if depth and c == "}":
            depth -= 1
        i += 1
    raise ValueError(f"unterminated template literal at offset {pos}")


def _close(tokens: Sequence[_Tok], open_index: int) -> int:
    """Index of the bracket closing the one at `open_index`."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    depth = 0
    for i in range(open_index, len(tokens)):
        if tokens[i].text in pairs:
            depth += 1
        elif tokens[i].text in pairs.values():
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced brackets")


def _arguments(tokens: Sequence[_Tok], open_index: int) -> list[tuple[int, int]]:
    """(first, last) token index of each argument of the call whose `(` is at `open_index`."""
    close = _close(tokens, open_index)
    args, start, i = [], open_index + 1, open_index + 1
    while i < close:
        if tokens[i].text in "([{":
            i = _close(tokens, i) + 1
            continue
        if tokens[i].text == ",":
            args.append((start, i - 1))
            start = i + 1
        i += 1
    if start <= close - 1:
        args.append((start, close - 1))
    return args


@dataclass(frozen=True, slots=True)
class _Test:
    title: tuple[int, int]
    """Token span of the title argument."""
    span: tuple[int, int]
    """Token span of the whole statement `test(...)` (with its `;` if any)."""
    original: str
    """`file:line:column title` as node reports it for the original file."""


def find_tests(rel: str, text: str, tokens: Sequence[_Tok]) -> list[_Test]:
    """Every `test(...)`/`it(...)` call whose title is its first argument."""
    found = []
    for i, tok in enumerate(tokens[:-1]):
        if tok.text not in ("test", "it") or tokens[i + 1].text != "(":
            continue
        if i and tokens[i - 1].text in (".", "function"):
            continue
        args = _arguments(tokens, i + 1)
        if len(args) < 2:
            continue
        end = _close(tokens, i + 1)
        end += 1 if end + 1 < len(tokens) and tokens[end + 1].text == ";" else 0
        first, last = args[0]
        title = (ast.literal_eval(tokens[first].text) if first == last and tokens[first].kind == "str"
                 else text[tokens[first].start:tokens[last].end])
        line = text.count("\n", 0, tok.start) + 1
        column = tok.start - (text.rfind("\n", 0, tok.start) + 1) + 1
        found.append(_Test(title=args[0], span=(i, end), original=f"{rel}:{line}:{column} {title}"))
    return found


def _pure(tokens: Sequence[_Tok]) -> bool:
    """Only literals, brackets, operators, object keys and constant names (nothing computed)."""
    for i, tok in enumerate(tokens):
        if tok.kind in ("tmpl", "regex") or tok.text in ("(", "."):
            return False
        key = i + 1 < len(tokens) and tokens[i + 1].text == ":"
        if tok.kind == "id" and tok.text not in _PURE_NAMES and not key:
            return False
    return True


def sites(tokens: Sequence[_Tok], span: tuple[int, int]) -> list[int]:
    """Token indexes of the literals a canary may change within a test, in a fixed order."""
    found = []
    for i in range(span[0], span[1]):
        expected = _expected_argument(tokens, i)
        if expected is None or not _pure(tokens[expected[0]:expected[1] + 1]):
            continue
        found += [j for j in range(expected[0], expected[1] + 1)
                  if tokens[j].kind in ("str", "num") and strength(_value(tokens[j])) is not None]
    found += [j for i in range(span[0], span[1]) if (j := _expected_error(tokens, i)) is not None]
    found += [j for i in range(span[0], span[1]) if (j := _expected_match(tokens, i)) is not None]
    return found + list(truth_sites([t.text for t in tokens], span[0], span[1]))


def _expected_match(tokens: Sequence[_Tok], i: int) -> int | None:
    """The regular expression literal of `assert.match(value, /re/)`, if it is a site."""
    if tokens[i].text != "match" or i < 2 or tokens[i - 1].text != "." or tokens[i - 2].text != "assert" \
            or i + 1 >= len(tokens) or tokens[i + 1].text != "(":
        return None
    args = _arguments(tokens, i + 1)
    if len(args) < 2 or args[1][0] != args[1][1] or tokens[args[1][0]].kind != "regex":
        return None
    return args[1][0] if regex_strength(tokens[args[1][0]].text) is not None else None


def _strength(tok: _Tok) -> str | None:
    return regex_strength(tok.text) if tok.kind == "regex" else strength(_value(tok))


def _primary(tokens: Sequence[_Tok], places: Sequence[int]) -> list[int]:
    """The literal and regular expression sites (the others are used only in a test without them)."""
    return [p for p in places if tokens[p].kind in ("str", "num", "regex")]


_THROWS = {"throws", "rejects"}
_ERRORS = ("RangeError", "TypeError", "SyntaxError", "ReferenceError", "URIError")
"""Error classes an `assert.throws` canary may expect instead (with the others the file expects)."""


def _expected_error(tokens: Sequence[_Tok], i: int) -> int | None:
    """The token of `E` in `assert.throws(fn, E)` / `assert.rejects(fn, E)` when `E` is one name."""
    tok = tokens[i]
    if (tok.text not in _THROWS or i < 2 or tokens[i - 1].text != "." or tokens[i - 2].text != "assert"
            or i + 1 >= len(tokens) or tokens[i + 1].text != "("):
        return None
    args = _arguments(tokens, i + 1)
    if len(args) < 2 or args[1][0] != args[1][1] or tokens[args[1][0]].kind != "id":
        return None
    return args[1][0] if tokens[args[1][0]].text not in _PURE_NAMES else None


def _expected_argument(tokens: Sequence[_Tok], i: int) -> tuple[int, int] | None:
    tok = tokens[i]
    if i + 1 >= len(tokens) or tokens[i + 1].text != "(" or i < 2 or tokens[i - 1].text != ".":
        return None
    if tok.text in _ASSERT_EQUAL and tokens[i - 2].text == "assert":
        args = _arguments(tokens, i + 1)
        return args[1] if len(args) >= 2 else None
    if tok.text in _EXPECT_EQUAL:
        args = _arguments(tokens, i + 1)
        return args[0] if args else None
    return None


def _value(tok: _Tok) -> object:
    if tok.kind == "str":
        return ast.literal_eval(tok.text)
    text = tok.text.replace("_", "")
    if text.endswith("n") or text[:2].lower() in ("0x", "0b", "0o"):
        return None
    return float(text) if any(c in text for c in ".eE") else int(text)


def _literal(value: object) -> str:
    return json.dumps(value) if isinstance(value, str) else repr(value)


def is_test_file(rel: str) -> bool:
    """The hidden test files the harness rewrites (`*.test.ts`, `*.spec.js`, ...)."""
    name = PurePosixPath(rel).name
    return name.endswith(SUFFIXES) and (".test." in name or ".spec." in name)


def _tests(rel: str, text: str) -> tuple[list[_Tok], list[_Test]]:
    tokens = tokenize(text)
    found = find_tests(rel, text, tokens)
    outer = [t for t in found if not any(o is not t and o.span[0] <= t.span[0] and t.span[1] <= o.span[1]
                                         for o in found)]
    return tokens, outer


def candidates(sources: Mapping[str, str]) -> list[Mutation]:
    """Up to MAX_CANDIDATES canaries per test call (strong sites first) for the reference run."""
    found = []
    for rel, text in sorted(sources.items()):
        tokens, tests = _tests(rel, text)
        errors = sorted({tokens[j].text for t in tests for j in sites(tokens, t.span) if tokens[j].kind == "id"}
                        | set(_ERRORS))
        for test in tests:
            places = list(enumerate(sites(tokens, test.span)))
            literal = [(i, p) for i, p in places if tokens[p].kind in ("str", "num", "regex")]
            if not literal:
                found += [_truth_canary(rel, text, tokens[p], (test.original, i)) if _is_truth(tokens, p)
                          else _error_canary(rel, text, tokens[p], (test.original, i), errors)
                          for i, p in places[:MAX_CANDIDATES]]
                continue
            ranked = sorted(literal, key=lambda s: _strength(tokens[s[1]]) != "strong")
            found += [_literal_canary(rel, text, tokens[place], (test.original, index))
                      for index, place in ranked[:MAX_CANDIDATES]]
    return found


def _literal_canary(rel: str, text: str, token: _Tok, where: tuple[str, int]) -> Mutation:
    """A canary expecting another value (or regular expression) at `token`."""
    line = text.count("\n", 0, token.start) + 1
    if token.kind == "regex":
        new = mutate_regex(token.text)
        return Mutation(file=rel, test=where[0], site=where[1], literal=new, described=f"{rel}:{line}: {token.text} -> {new}",
                        strong=regex_strength(token.text) == "strong")
    old = _value(token)
    literal = _literal(mutate(old, signed=False))
    return Mutation(file=rel, test=where[0], site=where[1], literal=literal,
                    described=f"{rel}:{line}: {token.text} -> {literal}", strong=strength(old) == "strong")


def _is_truth(tokens: Sequence[_Tok], place: int) -> bool:
    return tokens[place].text == "ok" and tokens[place - 1].text == "."


def _truth_canary(rel: str, text: str, token: _Tok, where: tuple[str, int]) -> Mutation:
    """A canary of `assert.ok(x)` expecting `x` falsy (see `node/truths.py`)."""
    line = text.count("\n", 0, token.start) + 1
    return Mutation(file=rel, test=where[0], site=where[1], literal="false",
                    described=f"{rel}:{line}: assert.ok(...) -> assert.ok(!...)", strong=False, common=True)


def _error_canary(rel: str, text: str, token: _Tok, where: tuple[str, int], errors: Sequence[str]) -> Mutation:
    """A canary of `assert.throws(fn, E)` expecting another error class (`where`: test, site)."""
    own = token.text
    other = _RANDOM.choice([e for e in errors if e not in (own, "Error")])
    line = text.count("\n", 0, token.start) + 1
    return Mutation(file=rel, test=where[0], site=where[1], literal=other,
                    described=f"{rel}:{line}: throws {own} -> {other}", strong=False, common=True)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rendered(RenderedTests):
    """The hidden test files of one run, and what each random title stands for (for a title that is
    not a plain string, a role's `original` ends with the `file:line:column ` prefix and the
    reported rest of the title is appended)."""

    dynamic: frozenset[str] = frozenset()

    def resolve(self, reported_name: str) -> Role | None:
        """The role of a reported test name (None: not a test of this run)."""
        token, _, rest = reported_name.partition(" ")
        role = self.roles.get(token)
        if role is None:
            return None
        if token not in self.dynamic:
            return role
        return Role(original=role.original + rest, canary=role.canary, group=role.group)


def render(sources: Mapping[str, str], canaries: Sequence[Mutation], *, canaries_first: bool = False) -> Rendered:
    """Every test file with real tests and `canaries` under random titles, twins side by side in a
    random order (`canaries_first`: every canary before its real test, as the survey runs them, so
    a real test that a canary's side effects break fails there and loses its canaries)."""
    roles: dict[str, Role] = {}
    dynamic: set[str] = set()
    out = dict(sources)
    for rel, text in sources.items():
        if not is_test_file(rel):
            continue
        tokens, tests = _tests(rel, text)
        pieces, last = [], 0
        for test in tests:
            start, end = tokens[test.span[0]].start, tokens[test.span[1]].end
            group = [_variant(text, tokens, test, None, roles, dynamic)]
            group += [_variant(text, tokens, test, m, roles, dynamic) for m in canaries
                      if m.file == rel and m.test == test.original]
            if canaries_first:
                group = group[1:] + group[:1]
            else:
                _RANDOM.shuffle(group)
            pieces += [text[last:start], "\n".join(group)]
            last = end
        out[rel] = "".join([*pieces, text[last:]])
    return Rendered(sources=out, roles=roles, dynamic=frozenset(dynamic))


def _variant(text: str, tokens: Sequence[_Tok], test: _Test, mutation: Mutation | None,
             roles: dict[str, Role], dynamic: set[str]) -> str:
    name = random_name()
    first, last = test.title
    plain = first == last and tokens[first].kind == "str"
    edits = {first: (tokens[last].end, json.dumps(name) if plain else
                     f"{json.dumps(name + ' ')} + ({text[tokens[first].start:tokens[last].end]})")}
    places = sites(tokens, test.span)
    if not _primary(tokens, places):  # assert.ok(x) written alike in a test and its twins
        edits |= {p: _truth_edit(text, tokens, p, "true") for p in places if _is_truth(tokens, p)}
    if mutation is not None:
        place = places[mutation.site]
        edits[place] = (_truth_edit(text, tokens, place, mutation.literal) if _is_truth(tokens, place)
                        else (tokens[place].end, mutation.literal))
    original = test.original if plain else test.original[:len(test.original) - _title_length(text, tokens, test)]
    if not plain:
        dynamic.add(name)
    roles[name] = Role(original=original, canary=mutation, group=f"{test.original.split(':', 1)[0]}::{test.original}")
    start, end = tokens[test.span[0]].start, tokens[test.span[1]].end
    pieces, pos = [], start
    for index in sorted(edits):
        pieces += [text[pos:tokens[index].start], edits[index][1]]
        pos = edits[index][0]
    return "".join([*pieces, text[pos:end]])


def _truth_edit(text: str, tokens: Sequence[_Tok], place: int, value: str) -> tuple[int, str]:
    """`ok(x` (from the `ok` at `place`) rewritten `equal(!!(x), value`."""
    first, last = _arguments(tokens, place + 1)[0]
    return tokens[last].end, f"equal(!!({text[tokens[first].start:tokens[last].end]}), {value}"


def _title_length(text: str, tokens: Sequence[_Tok], test: _Test) -> int:
    return tokens[test.title[1]].end - tokens[test.title[0]].start
