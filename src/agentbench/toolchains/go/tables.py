"""Package-level tables of Go hidden tests, for canaries (`go/canaries.py`).

Exercism keeps a test's cases in a package-level `var testCases = []struct{...}{...}` of another
`_test.go` file of the package (cases_test.go), which the test ranges over. A table's expected
literals (keyed `want...`/`expect...` fields, or those fields of unkeyed rows) are sites of every
test function that names the table. When the tests are rendered, the declaration is replaced by
randomly named copies: one the real tests read (identical), one per canary change (that row's
literal changed), in a random order; each test's references are rewritten to its copy. The
original name is gone, so no copy can be told from the others by comparing it with the original.
A run makes one change per table (`canaries.pick_aligned`: with two changed copies, the unchanged
rows would outvote each changed one), and a canary of a test reading the table that changes its
body reads the changed copy too, so each copy has as many readers.

A table is used only when every reference to it is inside a `Test...` or `Benchmark...` function
(a benchmark reads a copy chosen at random: it checks no value); any other reader (a helper, an
example, another variable) keeps the table as it is and out of the sites.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from agentbench.toolchains.node.canaries import _arguments, _close, _Tok

EXPECTED = re.compile(r"^(want|expect)", re.I)
"""Names of a table's expected fields, or of a helper's expected parameters."""


@dataclass(frozen=True, slots=True)
class Table:
    """One package-level table variable of a test file."""

    name: str
    file: str
    decl: tuple[int, int]
    """Token span the copies replace (`var NAME ... }`, or `NAME ... }` inside a `var (...)` group)."""
    grouped: bool
    name_index: int
    init: tuple[int, int]
    """Token span of the initializer (its composite literal)."""


@dataclass(frozen=True, slots=True)
class Function:
    """A top-level `func Name(...) {...}` of a test file."""

    name: str
    name_index: int
    span: tuple[int, int]


@dataclass(slots=True)
class Package:
    """The test files of one folder and package clause, tokenized."""

    texts: dict[str, str]
    tokens: dict[str, list[_Tok]]
    tables: dict[str, Table] = field(default_factory=dict)
    """Usable tables by name."""
    structs: dict[str, list[str]] = field(default_factory=dict)
    """Field names of the package's named struct types."""

    def references(self, rel: str, span: tuple[int, int]) -> dict[int, Table]:
        """Token index -> table, of each table named in `span` of file `rel`."""
        tokens = self.tokens[rel]
        return {i: self.tables[tokens[i].text] for i in range(span[0], span[1] + 1)
                if _is_reference(tokens, i) and tokens[i].text in self.tables}


def functions(tokens: Sequence[_Tok]) -> Iterator[Function]:
    """Top-level function declarations (methods excluded)."""
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.text in ("(", "[", "{"):
            i = _close(tokens, i) + 1
            continue
        if tok.text == "func" and i + 2 < len(tokens) and tokens[i + 1].kind == "id" and tokens[i + 2].text == "(":
            body = next((j for j in range(_close(tokens, i + 2), len(tokens)) if tokens[j].text == "{"), None)
            if body is not None:
                end = _close(tokens, body)
                yield Function(tokens[i + 1].text, i + 1, (i, end))
                i = end + 1
                continue
        i += 1


def packages(sources: Mapping[str, str], tokenize: object) -> list[Package]:
    """The `_test.go` files of `sources` grouped by folder and package clause."""
    found: dict[tuple[str, str], Package] = {}
    for rel, text in sorted(sources.items()):
        if not PurePosixPath(rel).name.endswith("_test.go"):
            continue
        tokens = tokenize(text)  # type: ignore[operator]
        clause = next((tokens[i + 1].text for i, t in enumerate(tokens[:-1]) if t.text == "package"), "")
        package = found.setdefault((str(PurePosixPath(rel).parent), clause), Package({}, {}))
        package.texts[rel], package.tokens[rel] = text, tokens
    for package in found.values():
        _index(package)
    return list(found.values())


def _index(package: Package) -> None:
    declared: dict[str, Table] = {}
    for rel, tokens in package.tokens.items():
        for table in _declarations(rel, tokens, package.texts[rel]):
            declared[table.name] = table
        package.structs.update(_struct_types(tokens, package.texts[rel]))
    for name in [n for n in declared if _usable(package, n, declared[n])]:
        package.tables[name] = declared[name]


def _usable(package: Package, name: str, table: Table) -> bool:
    """Whether every reference is inside a test or benchmark function (and one in a test)."""
    in_test = False
    for rel, tokens in package.tokens.items():
        spans = [(f.name, f.span) for f in functions(tokens)]
        for i, tok in enumerate(tokens):
            if tok.text != name or not _is_reference(tokens, i) or (rel == table.file and i == table.name_index):
                continue
            owner = next((n for n, (a, b) in spans if a <= i <= b), "")
            if not re.match(r"(Test|Benchmark)($|[^a-z])", owner) or owner == "TestMain":
                return False
            in_test = in_test or owner.startswith("Test")
    return in_test


def _is_reference(tokens: Sequence[_Tok], i: int) -> bool:
    before = tokens[i - 1].text if i else ""
    after = tokens[i + 1].text if i + 1 < len(tokens) else ""
    return tokens[i].kind == "id" and before != "." and after != ":"


def _declarations(rel: str, tokens: Sequence[_Tok], text: str) -> Iterator[Table]:
    """Top-level `var NAME = T{...}` declarations, alone or inside a `var (...)` group."""
    i = 0
    while i < len(tokens):
        if tokens[i].text in ("(", "[", "{"):
            i = _close(tokens, i) + 1
            continue
        if tokens[i].text == "var" and i + 1 < len(tokens) and tokens[i + 1].text == "(":
            close = _close(tokens, i + 1)
            j = i + 2
            while j < close:
                table = _declared(rel, tokens, text, j, j, grouped=True)
                if table is not None:
                    yield table
                j = _close(tokens, j) + 1 if table is None and tokens[j].text in ("(", "[", "{") else \
                    (table.decl[1] + 1 if table else j + 1)
            i = close + 1
            continue
        if tokens[i].text == "var":
            table = _declared(rel, tokens, text, i, i + 1, grouped=False)
            if table is not None:
                yield table
        i += 1


def _declared(rel: str, tokens: Sequence[_Tok], text: str, start: int, name_index: int, *,
              grouped: bool) -> Table | None:
    """The table declared at `name_index` (`NAME [type] = T{...}` on one line), if it is one."""
    if name_index + 1 >= len(tokens) or tokens[name_index].kind != "id":
        return None
    equals = name_index + 1
    while equals < len(tokens) and (tokens[equals].kind == "id" or tokens[equals].text in ("[", "]", ".", "*")):
        equals += 1
    if equals >= len(tokens) or tokens[equals].text != "=" or \
            "\n" in text[tokens[name_index].end:tokens[equals].start]:
        return None
    j = equals + 1
    while j < len(tokens):
        word = tokens[j].text
        if word in ("struct", "interface") and j + 1 < len(tokens) and tokens[j + 1].text == "{":
            j = _close(tokens, j + 1) + 1
        elif word == "[":
            j = _close(tokens, j) + 1
        elif word == "{":
            end = _close(tokens, j)
            return Table(tokens[name_index].text, rel, (start, end), grouped, name_index, (equals + 1, end))
        elif tokens[j].kind == "id" or word in (".", "*"):
            j += 1
        else:
            return None
    return None


def _struct_types(tokens: Sequence[_Tok], text: str) -> Iterator[tuple[str, list[str]]]:
    for i in range(len(tokens) - 3):
        if tokens[i].text == "type" and tokens[i + 1].kind == "id" and tokens[i + 2].text == "struct" \
                and tokens[i + 3].text == "{":
            yield tokens[i + 1].text, struct_fields(tokens, i + 3, text)


def struct_fields(tokens: Sequence[_Tok], open_index: int, text: str) -> list[str]:
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


def row_literals(tokens: Sequence[_Tok], fields: Sequence[str], rows_open: int,
                 literal_at: object) -> list[int]:
    """The `want...` field's literal in each unkeyed row of the rows literal at `rows_open`
    (`{{"IV", 4}, ...}`), rows typed by a struct with `fields`; or the literals of its composite
    value (`{"ab", []string{"a", "b"}}`)."""
    wanted = {n for n, name in enumerate(fields) if EXPECTED.match(name)}
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
            place = literal_at(tokens, row[n][0])  # type: ignore[operator]
            if place is not None and place == row[n][1]:
                found.append(place)
            elif place is None and _close_or(tokens, row[n][1]) == row[n][1]:
                found += composite_literals(tokens, row[n][0])
    return found


def _close_or(tokens: Sequence[_Tok], last: int) -> int:
    """`last` when it closes a composite literal (the row value ends with `}`)."""
    return last if tokens[last].text == "}" else -1


def named_rows(package: Package, table: Table, literal_at: object) -> list[int]:
    """Unkeyed rows of a table whose element type is a named struct (`[]testCase{{...}}`)."""
    tokens = package.tokens[table.file]
    a = table.init[0]
    if tokens[a].text == "[" and tokens[a + 1].text == "]" and tokens[a + 2].text in package.structs \
            and tokens[a + 3].text == "{":
        return row_literals(tokens, package.structs[tokens[a + 2].text], a + 3, literal_at)
    return []


def composite_literals(tokens: Sequence[_Tok], i: int) -> list[int]:
    """The string and number literals inside the composite literal at `i` (`[]string{"a", "b"}`,
    `map[string]int{"a": 1}`, `Point{1, 2}`), an expected field's whole value; none if it calls
    anything (a value computed at run time)."""
    j = i
    while j < len(tokens) and tokens[j].text != "{":
        if tokens[j].text == "[":
            j = _close(tokens, j) + 1
        elif tokens[j].kind == "id" or tokens[j].text in (".", "*"):
            j += 1
        else:
            return []
    if j == i or j >= len(tokens):
        return []
    close = _close(tokens, j)
    if close + 1 >= len(tokens) or tokens[close + 1].text not in (",", "}"):
        return []
    inside = range(j + 1, close)
    if any(tokens[k].text in ("(", "func") for k in inside):
        return []
    return [k for k in inside if tokens[k].kind == "num" or (tokens[k].kind == "str" and tokens[k].text[0] == '"')]
