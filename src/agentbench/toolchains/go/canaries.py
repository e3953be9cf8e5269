"""Canary twins of Go hidden tests, by rewriting the `_test.go` files' text.

Go test names are top-level functions, so a canary is a copy of a whole `func TestXxx(t *testing.T)`
with one literal on an expected side changed, placed right before or right after its twin at random;
every test function, real or canary, is renamed `Test_<random>`. A *site* (within the test's body) is
a string or number literal that is:

- the whole side of a `!=` / `==` comparison (`if got != 42 {`);
- the argument of a helper declared in the file whose parameter is named `want...`/`expected...`
  (`check(t, calc.Add(2, 3), 5)` with `func check(t *testing.T, got, want int)`);
- the value of a `want...`/`expected...` field in a composite literal (`{in: "IV", want: 4}`), or
  of such a field of an unkeyed row, or a literal inside such a value (`want: []string{"a", "b"}`); `true`/`false` there too (`wantErr: true`: the canary expects
  the opposite, a *common* canary, since an honest wrong product often gets it wrong);
- a value of a map literal that a `for key, want := range ...` loop reads as the expected value;
- such a field of a row of a package-level table the test names, declared in any `_test.go` file of
  its package (`var testCases = []struct{...}{...}`, Exercism's cases_test.go; see `go/tables.py`).

A test with none of these whose only checks are of an error (`if err == nil { t.Fatal(...) }`) gets
a twin with the check flipped (see `go/errchecks.py`).

A canary is judged by its top-level test only (a table's other rows pass in the canary too).
"""

from __future__ import annotations

import ast
import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from agentbench.toolchains.canaries import HiddenCatalog, Mutation, RenderedTests, Role, pick
from agentbench.toolchains.go.errchecks import error_checks, flipped
from agentbench.toolchains.go.tables import (
    EXPECTED,
    Package,
    Table,
    composite_literals,
    functions,
    named_rows,
    packages,
    row_literals,
    struct_fields,
)
from agentbench.toolchains.node.canaries import _arguments, _close, _Tok, tokenize
from agentbench.toolchains.python.canaries import MAX_CANDIDATES, mutate, strength

_EXPECTED = EXPECTED
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


def _expected_at(tokens: Sequence[_Tok], i: int) -> int | None:
    """`_literal_at`, or a `true`/`false` (an expected field's or parameter's value)."""
    if i < len(tokens) and tokens[i].text in ("true", "false") and tokens[i].kind == "id":
        return i
    return _literal_at(tokens, i)


def _kept(tok: _Tok) -> bool:
    value = _value(tok)
    return isinstance(value, bool) or strength(value) is not None


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
            found += _field_sites(tokens, i + 2)
        elif tok.text == "{" and i in wanted_maps:
            found += _map_values(tokens, i)
        elif tok.text == "struct" and tokens[i + 1].text == "{" and text:
            found += _positional_rows(tokens, i + 1, text)
    return [p for p in dict.fromkeys(found) if _kept(tokens[p])]


def _field_sites(tokens: Sequence[_Tok], i: int) -> list[int]:
    """The sites of an expected field's value at `i`: a literal, or those in a composite literal
    (`want: []string{"a", "b"}`)."""
    place = _expected_at(tokens, i)
    if place is None:
        return composite_literals(tokens, i)
    return [place] if place + 1 < len(tokens) and tokens[place + 1].text in (",", "}") else []


def _positional_rows(tokens: Sequence[_Tok], open_index: int, text: str) -> list[int]:
    """The `want...` field's literal in each unkeyed row of a table typed by the struct at
    `open_index` (`[]struct{ in string; want int }{{"IV", 4}, ...}`)."""
    fields = struct_fields(tokens, open_index, text)
    return row_literals(tokens, fields, _close(tokens, open_index) + 1, _expected_at)


def _helper_sites(tokens: Sequence[_Tok], open_index: int, positions: set[int]) -> list[int]:
    found = []
    for n, (first, last) in enumerate(_arguments(tokens, open_index)):
        place = _expected_at(tokens, first)
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
    if tok.kind == "id":
        return {"true": True, "false": False}.get(tok.text)
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


def _package_helpers(package: Package) -> dict[str, set[int]]:
    found: dict[str, set[int]] = {}
    for tokens in package.tokens.values():
        found.update(_helpers(tokens))
    return found


def _test_sites(package: Package, rel: str, test: _Test, helpers: Mapping[str, set[int]]) -> list[tuple[str, int]]:
    """(file, token index) of each literal a canary of `test` may change: in its body first, then
    in the rows of the package-level tables it names (see `go/tables.py`)."""
    found = [(rel, i) for i in sites(package.tokens[rel], test.span, helpers, package.texts[rel])]
    named = {t.name: t for t in package.references(rel, test.span).values()}
    for table in named.values():
        found += [(table.file, i) for i in _table_sites(package, table)]
    return found or [(rel, c.operator) for c in error_checks(package.tokens[rel], test.span)]


def _neutral(package: Package, rel: str, test: _Test, places: Sequence[tuple[str, int]]) -> dict[int, tuple[int, str]]:
    """The same neutral messages in a test and its twins whose sites are error checks."""
    tokens = package.tokens[rel]
    if not places or tokens[places[0][1]].text not in ("==", "!="):
        return {}
    return {a: (b, text) for check in error_checks(tokens, test.span) for a, b, text in check.arguments}


def _table_sites(package: Package, table: Table) -> list[int]:
    tokens = package.tokens[table.file]
    found = sites(tokens, table.init, {}, package.texts[table.file]) + named_rows(package, table, _expected_at)
    return [p for p in dict.fromkeys(found) if _kept(tokens[p])]


def candidates(sources: Mapping[str, str]) -> list[Mutation]:
    """Up to MAX_CANDIDATES canaries per test function (strong sites first). A table row's change
    is the same for every test that reads the table."""
    found = []
    for package in packages(sources, _tokens):
        helpers = _package_helpers(package)
        changes: dict[tuple[str, int], str] = {}
        for rel in sorted(package.texts):
            for test in find_tests(package.tokens[rel]):
                places = _test_sites(package, rel, test, helpers)
                found += [_candidate(package, rel, test, index, place, changes)
                          for index, place in _ranked(package, places)[:MAX_CANDIDATES]]
    return found


def _ranked(package: Package, places: Sequence[tuple[str, int]]) -> list[tuple[int, tuple[str, int]]]:
    def order(site: tuple[int, tuple[str, int]]) -> int:
        value = _value(package.tokens[site[1][0]][site[1][1]])
        return 2 if isinstance(value, bool) else 0 if strength(value) == "strong" else 1
    return sorted(enumerate(places), key=order)


def _candidate(package: Package, rel: str, test: _Test, index: int, place: tuple[str, int],
               changes: dict[tuple[str, int], str]) -> Mutation:
    where, at = place
    tok = package.tokens[where][at]
    line = package.texts[where].count("\n", 0, tok.start) + 1
    if tok.text in ("==", "!="):
        name = package.tokens[where][at - 1].text
        return Mutation(file=rel, test=test.name, site=index, literal=flipped(tok.text), strong=False, common=True,
                        described=f"{where}:{line}: {name} {tok.text} nil -> {name} {flipped(tok.text)} nil")
    old = _value(tok)
    truth = isinstance(old, bool)
    new = changes.setdefault(place, str(not old).lower() if truth else _literal(mutate(old, signed=False)))
    # the opposite truth value (`wantErr: true` -> false) is what an honest wrong product often
    # gives: a common canary (cancels one passing test; voids the run only with its twin)
    return Mutation(file=rel, test=test.name, site=index, literal=new, described=f"{where}:{line}: {tok.text} -> {new}",
                    strong=not truth and strength(old) == "strong", common=truth)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rendered(RenderedTests):
    """The hidden test files of one run, and what each random test name stands for."""

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
    """Every test file with real tests and `canaries` renamed at random, twins side by side; each
    package-level table they read replaced by randomly named copies (see `go/tables.py`)."""
    roles: dict[str, Role] = {}
    out = dict(sources)
    for package in packages(sources, _tokens):
        helpers = _package_helpers(package)
        copies = _Copies(decoys=_decoys(_on_tables(package, canaries, helpers)))
        spans: dict[str, list[tuple[int, int, str]]] = {rel: [] for rel in package.texts}
        for rel, tokens in package.tokens.items():
            for test in find_tests(tokens):
                mine = [m for m in canaries if m.file == rel and m.test == test.name]
                text, named = _group(package, rel, test, mine, helpers, copies)
                roles |= named
                spans[rel].append((tokens[test.span[0]].start, tokens[test.span[1]].end, text))
        _benchmarks(package, copies, spans)
        for table in copies.tables.values():
            tokens = package.tokens[table.file]
            spans[table.file].append((tokens[table.decl[0]].start, tokens[table.decl[1]].end,
                                      copies.declaration(package, table)))
        for rel, edits in spans.items():
            out[rel] = _splice(package.texts[rel], edits)
    return Rendered(sources=out, roles=roles)


def _group(package: Package, rel: str, test: _Test, mine: Sequence[Mutation], helpers: Mapping[str, set[int]],
           copies: _Copies) -> tuple[str, dict[str, Role]]:
    """The test and its canaries under random names, in a random order; their roles."""
    tokens = package.tokens[rel]
    roles: dict[str, Role] = {}
    places = _test_sites(package, rel, test, helpers)
    references = package.references(rel, test.span)
    group = []
    for mutation in [None, *mine]:
        name = _name()
        edits: dict[int, str | tuple[int, str]] = {test.name_index: name, **_neutral(package, rel, test, places)}
        site = places[mutation.site] if mutation is not None else None
        for index, table in references.items():
            edits[index] = copies.name(table, *copies.change(table, mutation, site))
        if mutation is not None and site is not None and site[0] == rel and test.span[0] <= site[1] <= test.span[1]:
            edits[site[1]] = mutation.literal
        roles[name] = Role(original=test.name, canary=mutation, group=f"{rel}::{test.name}")
        group.append(_edited(package.texts[rel], tokens, test.span, edits))
    _RANDOM.shuffle(group)
    return "\n\n".join(group), roles


def _benchmarks(package: Package, copies: _Copies, spans: dict[str, list[tuple[int, int, str]]]) -> None:
    """A benchmark reading a table reads one of its copies, chosen at random (it checks no value)."""
    for rel, tokens in package.tokens.items():
        for function in functions(tokens):
            if not re.match(r"Benchmark($|[^a-z])", function.name):
                continue
            references = package.references(rel, function.span)
            if references:
                edits = {i: copies.pick(table) for i, table in references.items()}
                spans[rel].append((tokens[function.span[0]].start, tokens[function.span[1]].end,
                                   _edited(package.texts[rel], tokens, function.span, edits)))


@dataclass(slots=True)
class _Copies:
    """The random names of each table's copies in one render: one unchanged, one per change."""

    names: dict[tuple[str, int | None, str], str] = field(default_factory=dict)
    tables: dict[str, Table] = field(default_factory=dict)
    decoys: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Table -> the one change this run's canaries make to it, which every canary of a test reading
    the table reads too: the changed copy is then read by as many functions as the unchanged one."""

    def change(self, table: Table, mutation: Mutation | None,
               site: tuple[str, int] | None) -> tuple[int | None, str]:
        """(token index, literal) of the change a variant's copy of `table` makes (None: none)."""
        if mutation is None or site is None:
            return None, ""
        if site[0] == table.file and table.init[0] <= site[1] <= table.init[1]:
            return site[1], mutation.literal
        return self.decoys.get(table.name, (None, ""))

    def name(self, table: Table, site: int | None = None, literal: str = "") -> str:
        self.tables[table.name] = table
        return self.names.setdefault((table.name, site, literal), "cases_" + secrets.token_hex(6))

    def pick(self, table: Table) -> str:
        return _RANDOM.choice(list(dict.fromkeys([self.name(table), *(n for k, n in self.names.items() if k[0] == table.name)])))

    def declaration(self, package: Package, table: Table) -> str:
        """The copies' declarations, in a random order, in place of the table's."""
        texts, tokens = package.texts[table.file], package.tokens[table.file]
        pieces = [_edited(texts, tokens, table.decl, {table.name_index: name} | ({} if site is None else {site: literal}))
                  for (owner, site, literal), name in self.names.items() if owner == table.name]
        _RANDOM.shuffle(pieces)
        return ("\n\t" if table.grouped else "\n\n").join(pieces)


def _on_tables(package: Package, canaries: Sequence[Mutation],
               helpers: Mapping[str, set[int]]) -> dict[Mutation, tuple[Table, int]]:
    """Each canary of the package that changes a table row: (the table, the changed token)."""
    found: dict[Mutation, tuple[Table, int]] = {}
    for rel, tokens in package.tokens.items():
        for test in find_tests(tokens):
            mine = [m for m in canaries if m.file == rel and m.test == test.name]
            places = _test_sites(package, rel, test, helpers) if mine else []
            for m in mine:
                where, at = places[m.site]
                table = next((t for t in package.tables.values() if t.file == where and t.init[0] <= at <= t.init[1]), None)
                if table is not None:
                    found[m] = (table, at)
    return found


def _decoys(on_tables: Mapping[Mutation, tuple[Table, int]]) -> dict[str, tuple[int, str]]:
    changes: dict[str, set[tuple[int, str]]] = {}
    for m, (table, at) in on_tables.items():
        changes.setdefault(table.name, set()).add((at, m.literal))
    return {name: next(iter(found)) for name, found in changes.items() if len(found) == 1}


def pick_aligned(catalog: HiddenCatalog, sources: Mapping[str, str]) -> tuple[Mutation, ...]:
    """`pick`, then one change per table: tests reading one table whose canaries change different
    rows would leave copies in which the changed rows are outvoted by the others. A table that a
    test without a canary reads is not changed when its readers have canaries off the table."""
    chosen = list(pick(catalog))
    options = catalog.by_twin()
    on_tables: dict[Mutation, tuple[Table, int]] = {}
    for package in packages(sources, _tokens):
        on_tables |= _on_tables(package, catalog.canaries, _package_helpers(package))

    def key(m: Mutation) -> tuple[str, str] | None:
        return (on_tables[m][0].file, on_tables[m][0].name) if m in on_tables else None

    def change(m: Mutation) -> tuple[int, str]:
        return on_tables[m][1], m.literal

    def follows(m: Mutation, target: Mutation) -> list[Mutation]:
        """`m`'s twin's canaries that make the same change as `target`, else those off tables."""
        same = [o for o in options[m.twin] if key(o) == key(target) and change(o) == change(target)]
        return same or [o for o in options[m.twin] if key(o) is None]

    for table in dict.fromkeys(k for m in chosen if (k := key(m)) is not None):
        mine = [m for m in chosen if key(m) == table]
        # a change every test reading the table can follow, when there is one
        targets = [t for t in mine if all(follows(m, t) for m in mine)] or mine
        target = _RANDOM.choice(targets)
        chosen = [_RANDOM.choice(follows(m, target) or [m]) if key(m) == table and change(m) != change(target)
                  else m for m in chosen]
    # a table a test without a canary reads too: its unchanged copy would have more readers
    guarded = {m.twin for m in chosen}
    for table, tests in _readers(sources).items():
        if not tests <= guarded:
            chosen = [_RANDOM.choice([o for o in options[m.twin] if key(o) is None] or [m]) if key(m) == table
                      else m for m in chosen]
    return tuple(chosen)


def _readers(sources: Mapping[str, str]) -> dict[tuple[str, str], set[str]]:
    """(file, name) of each table -> the tests (`file::Test`) that read it."""
    found: dict[tuple[str, str], set[str]] = {}
    for package in packages(sources, _tokens):
        for rel, tokens in package.tokens.items():
            for test in find_tests(tokens):
                for table in package.references(rel, test.span).values():
                    found.setdefault((table.file, table.name), set()).add(f"{rel}::{test.name}")
    return found


def _splice(text: str, edits: Sequence[tuple[int, int, str]]) -> str:
    """`text` with each (start, end) character span replaced (spans do not overlap)."""
    pieces, pos = [], 0
    for start, end, replacement in sorted(edits):
        pieces += [text[pos:start], replacement]
        pos = end
    return "".join([*pieces, text[pos:]])


def _edited(text: str, tokens: Sequence[_Tok], span: tuple[int, int],
            edits: Mapping[int, str] | Mapping[int, str | tuple[int, str]]) -> str:
    """The text of token `span` with the tokens at the keys of `edits` replaced (a value `(last,
    text)` replaces the tokens from the key to `last`)."""
    start, end = tokens[span[0]].start, tokens[span[1]].end
    pieces, pos = [], start
    for index in sorted(edits):
        edit = edits[index]
        last, replacement = (index, edit) if isinstance(edit, str) else edit
        pieces += [text[pos:tokens[index].start], replacement]
        pos = tokens[last].end
    return "".join([*pieces, text[pos:end]])
