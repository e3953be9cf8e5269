"""Go canaries of tests that read package-level tables (Exercism's cases_test.go and other shapes):
rendered, compiled and run by the real `go test` on a correct solution, every real test passes and
every canary fails; the rendered text no longer holds the original table, and every copy looks alike."""

from __future__ import annotations

import json
import re
import secrets
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from agentbench.toolchains.canaries import HiddenCatalog, Mutation
from agentbench.toolchains.go.assets import layered
from agentbench.toolchains.go.canaries import candidates, pick_aligned, render
from tests.requirements import TOOLS

SOLUTION = """\
package m

import "errors"

func Reverse(s string) string {
\tr := []rune(s)
\tfor i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
\t\tr[i], r[j] = r[j], r[i]
\t}
\treturn string(r)
}

func Square(n int) int { return n * n }

func Divide(a, b int) (int, error) {
	if b == 0 {
		return 0, errors.New("division by zero")
	}
	return a / b, nil
}

func IsEven(n int) bool { return n%2 == 0 }

func All(n int, s string) []string {
\tvar out []string
\tfor i := 0; i+n <= len(s); i++ {
\t\tout = append(out, s[i:i+n])
\t}
\treturn out
}

func Codes(s string) []int {
\tvar out []int
\tfor _, r := range s {
\t\tout = append(out, int(r))
\t}
\treturn out
}
"""

# the test in one file, the cases (keyed, with descriptions, run as subtests) in another
SUBTESTS = {"m_test.go": """\
package m

import "testing"

func TestReverse(t *testing.T) {
\tfor _, tc := range append(testCases, extraCases...) {
\t\tt.Run(tc.description, func(t *testing.T) {
\t\t\tif got := Reverse(tc.input); got != tc.expected {
\t\t\t\tt.Fatalf("Reverse(%q) = %q, want %q", tc.input, got, tc.expected)
\t\t\t}
\t\t})
\t}
}

func BenchmarkReverse(b *testing.B) {
\tfor i := 0; i < b.N; i++ {
\t\tfor _, tc := range testCases {
\t\t\tReverse(tc.input)
\t\t}
\t}
}
""", "cases_test.go": """\
package m

// Generated: do not edit.
var testCases = []struct {
\tdescription string
\tinput       string
\texpected    string
}{
\t{
\t\tdescription: "a word",
\t\tinput:       "robot",
\t\texpected:    "tobor",
\t},
\t{
\t\tdescription: "a sentence",
\t\tinput:       "I'm hungry!",
\t\texpected:    "!yrgnuh m'I",
\t},
}

var extraCases = []struct {
\tdescription string
\tinput       string
\texpected    string
}{
\t{description: "palindrome", input: "racecar", expected: "racecar"},
}
"""}

# a named row type and unkeyed rows, in a `var (...)` group of the test's own file; two tests read
# one table; a helper reads another table, which stays as it is
NAMED = {"m_test.go": """\
package m

import "testing"

type squareCase struct {
\tin   int
\twant int
}

var (
\tunrelated = 3
\tsquares   = []squareCase{{12, 144}, {25, 625}}
\tkept      = []squareCase{{30, 900}}
)

func TestSquare(t *testing.T) {
\tfor _, c := range squares {
\t\tif got := Square(c.in); got != c.want {
\t\t\tt.Errorf("Square(%d) = %d", c.in, got)
\t\t}
\t}
}

func TestSquareAgain(t *testing.T) {
\tfor _, c := range squares {
\t\tif Square(c.in) != c.want {
\t\t\tt.Error(c.in)
\t\t}
\t}
\t_ = unrelated
}

func check(t *testing.T) {
\tfor _, c := range kept {
\t\tif Square(c.in) != c.want {
\t\t\tt.Error(c.in)
\t\t}
\t}
}

func TestKept(t *testing.T) { check(t) }
"""}


# expected values that are slices of literals (Exercism's series), keyed and unkeyed
SLICES = {"s_test.go": """\
package m

import (
\t"reflect"
\t"testing"
)

func TestAll(t *testing.T) {
\tfor _, tc := range seriesCases {
\t\tt.Run(tc.description, func(t *testing.T) {
\t\t\tif got := All(tc.digits, tc.input); !reflect.DeepEqual(got, tc.expected) {
\t\t\t\tt.Fatalf("All(%d, %q) = %v", tc.digits, tc.input, got)
\t\t\t}
\t\t})
\t}
}

func TestCodes(t *testing.T) {
\tfor _, c := range codes {
\t\tif got := Codes(c.in); !reflect.DeepEqual(got, c.want) {
\t\t\tt.Errorf("%q: %v", c.in, got)
\t\t}
\t}
}
""", "cases_test.go": """\
package m

var seriesCases = []struct {
\tdescription string
\tdigits      int
\tinput       string
\texpected    []string
}{
\t{description: "slices of two", digits: 2, input: "91234", expected: []string{"91", "12", "23", "34"}},
}

var codes = []struct {
\tin   string
\twant []int
}{{"ab", []int{97, 98}}, {"z", []int{122}}}
"""}

# tests whose only checks are of errors or truth values
ERRORS = {"e_test.go": """\
package m

import "testing"

var divisions = []struct {
\ta, b    int
\twantErr bool
}{{4, 2, false}, {1, 0, true}}

func TestDivideByZero(t *testing.T) {
\t_, err := Divide(1, 0)
\tif err == nil {
\t\tt.Fatal("expected an error")
\t}
}

func TestDivide(t *testing.T) {
\tif _, err := Divide(4, 2); err != nil {
\t\tt.Fatalf("unexpected error: %v", err)
\t}
}

func TestDivideTable(t *testing.T) {
\tfor _, c := range divisions {
\t\t_, err := Divide(c.a, c.b)
\t\tif (err != nil) != c.wantErr {
\t\t\tt.Errorf("%d/%d: %v", c.a, c.b, err)
\t\t}
\t}
}

func TestEven(t *testing.T) {
\tfor _, c := range []struct {
\t\tn        int
\t\texpected bool
\t}{{n: 4, expected: true}, {n: 7, expected: false}} {
\t\tif IsEven(c.n) != c.expected {
\t\t\tt.Error(c.n)
\t\t}
\t}
}

func TestResultChecked(t *testing.T) {
\tq, err := Divide(9, 3)
\tif err != nil {
\t\tt.Fatal(err)
\t}
\t_ = q
\tif q < 0 {
\t\tt.Fatal("negative")
\t}
}
"""}


def _go_test(folder: Path, caches: dict[str, str]) -> dict[str, str]:
    go = str(TOOLS / "go") if (TOOLS / "go").is_file() else shutil.which("go") or "go"
    env = {"PATH": f"{Path(go).parent}:/usr/bin:/bin", "HOME": str(folder.parent), "GOFLAGS": "-mod=mod",
           **caches, "GOPATH": str(folder.parent / "gopath"), "GOTOOLCHAIN": "local"}
    run = subprocess.run([go, "test", "-json", "-count=1", "."], cwd=folder, env=env, capture_output=True,
                         text=True, timeout=300, check=False)
    events = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    outcomes = {e["Test"]: e["Action"] for e in events if e.get("Test") and e["Action"] in ("pass", "fail", "skip")}
    assert outcomes, run.stdout[-2000:] + run.stderr[-2000:]
    return outcomes


def _render_and_run(tmp_path: Path, assets: Path, sources: dict[str, str],
                    picked: Sequence[Mutation] | None = None) -> tuple[dict[str, str], Any]:
    generated = candidates(sources)
    rendered = render(sources, generated if picked is None else picked)
    folder = tmp_path / secrets.token_hex(4)
    folder.mkdir()
    (folder / "go.mod").write_text("module example.com/m\n\ngo 1.22\n")
    (folder / "m.go").write_text(SOLUTION)
    for rel, text in rendered.sources.items():
        (folder / rel).write_text(text)
    return _go_test(folder, layered(assets, tmp_path)), (generated, rendered)


@pytest.mark.needs("go")
def test_a_table_in_another_file_read_by_subtests_gets_canaries_that_fail_on_a_correct_solution(tmp_path: Path, assets: Path) -> None:
    outcomes, (generated, rendered) = _render_and_run(tmp_path, assets, SUBTESTS)
    assert {m.described.split(": ")[1].split(" ->")[0] for m in generated} == {'"tobor"', '"!yrgnuh m\'I"', '"racecar"'}
    text = "".join(rendered.sources.values())
    assert "testCases" not in text and "extraCases" not in text  # only the random copies are left
    copies = re.findall(r"var (cases_[0-9a-f]{12}) = ", text)
    assert len(copies) == 2 + len(generated)  # one unchanged copy per table, one per change
    for name, role in rendered.roles.items():
        assert outcomes[name] == ("pass" if role.canary is None else "fail"), (name, role)
    real = [o for t, o in outcomes.items() if "/" in t and rendered.roles[t.split("/")[0]].canary is None]
    assert real == ["pass"] * 3  # the subtests of the real test, each named by its description


@pytest.mark.needs("go")
def test_named_row_types_grouped_vars_and_shared_tables(tmp_path: Path, assets: Path) -> None:
    outcomes, (generated, rendered) = _render_and_run(tmp_path, assets, NAMED)
    changed = sorted({m.described.split(": ")[1].split(" ->")[0] for m in generated})
    assert changed == ["144", "625"]  # `kept` is read by a helper: not a site, left as it is
    per_site = {}
    for m in generated:  # two tests read `squares`: a row's change is the same for both
        per_site.setdefault(m.described, set()).add(m.test)
    assert all(tests == {"TestSquare", "TestSquareAgain"} for tests in per_site.values())
    text = rendered.sources["m_test.go"]
    assert "squares" not in text and "kept      = []squareCase{{30, 900}}" in text and "unrelated = 3" in text
    assert sum(o == "fail" for o in outcomes.values()) == len(generated)
    for name, role in rendered.roles.items():
        assert outcomes[name] == ("pass" if role.canary is None else "fail"), (name, role)


@pytest.mark.needs("go")
def test_a_run_changes_a_shared_table_once_and_its_copies_are_read_alike(tmp_path: Path, assets: Path) -> None:
    generated = candidates(NAMED)
    catalog = HiddenCatalog(tests=("TestSquare", "TestSquareAgain"), canaries=tuple(generated), supported=True)
    for _ in range(20):  # whichever rows the tests' canaries picked: one change of `squares` per run
        picked = pick_aligned(catalog, NAMED)
        assert len({m.described for m in picked}) == 1
        text = render(NAMED, picked).sources["m_test.go"]
        names = re.findall(r"\b(cases_[0-9a-f]{12})\b", text)
        assert len(set(names)) == 2 and names.count(names[0]) == names.count(names[1]) == 3
    outcomes, (_, rendered) = _render_and_run(tmp_path, assets, NAMED, picked)
    for name, role in rendered.roles.items():
        assert outcomes[name] == ("pass" if role.canary is None else "fail"), (name, role)


def test_a_canary_changing_the_test_body_reads_the_changed_copy_of_its_table() -> None:
    source = {"a_test.go": NAMED["m_test.go"].replace("\t_ = unrelated\n", "\tif Square(11) != 121 {\n\t\tt.Fail()\n\t}\n")}
    generated = candidates(source)
    in_body = next(m for m in generated if m.test == "TestSquareAgain" and "121" in m.described)
    on_table = next(m for m in generated if m.test == "TestSquare")
    rendered = render(source, [in_body, on_table]).sources["a_test.go"]
    names = re.findall(r"\b(cases_[0-9a-f]{12})\b", rendered)
    assert len(set(names)) == 2 and names.count(names[0]) == names.count(names[1]) == 3


@pytest.mark.needs("go")
def test_error_checks_and_expected_truth_values_get_common_twins(tmp_path: Path, assets: Path) -> None:
    outcomes, (generated, rendered) = _render_and_run(tmp_path, assets, ERRORS)
    by_test = {}
    for m in generated:
        by_test.setdefault(m.test, []).append(m)
    assert all(m.common and not m.strong for m in generated)
    assert sorted(by_test) == ["TestDivide", "TestDivideByZero", "TestDivideTable", "TestEven"]
    assert [m.described.split(": ")[1] for m in by_test["TestDivideByZero"]] == ["err == nil -> err != nil"]
    assert [m.described.split(": ")[1] for m in by_test["TestDivideTable"]] == ["false -> true", "true -> false"]
    text = rendered.sources["e_test.go"]
    assert "expected an error" not in text and "unexpected error" not in text  # both twins read alike
    assert text.count('t.Fatal("error check:", err)') == 2 and text.count('t.Fatalf("error check: %v", err)') == 2
    assert 't.Fatal("negative")' in text  # a check followed by uses of the result is no site
    for name, role in rendered.roles.items():
        assert outcomes[name] == ("pass" if role.canary is None else "fail"), (name, role)


def test_a_test_and_its_twin_differ_only_in_the_changed_value_or_the_table_copy_they_read() -> None:
    """What the attack `go-table-pair-flipper` relies on to pair them, and all a reader can see."""
    sources = {**SUBTESTS, "e_test.go": ERRORS["e_test.go"]}
    generated = candidates(sources)
    rendered = render(sources, generated)
    bodies = {}
    for text in rendered.sources.values():
        for name, body in re.findall(r"^func (Test_[0-9a-f]{12})\(t \*testing\.T\) \{\n(.*?)^\}", text, re.M | re.S):
            bodies[name] = body
    assert set(bodies) == set(rendered.roles)

    def normal(body: str) -> list[str]:
        text = re.sub(r"cases_[0-9a-f]{12}", "T", body).replace("!=", "==")
        return re.findall(r'\w+|"(?:[^"\\]|\\.)*"|\S', text)

    for name, role in rendered.roles.items():
        real = next(n for n, r in rendered.roles.items() if r.group == role.group and r.canary is None)
        mine, theirs = normal(bodies[name]), normal(bodies[real])
        assert len(mine) == len(theirs) and sum(a != b for a, b in zip(mine, theirs, strict=True)) <= 1, role


def test_tables_are_found_alone_in_groups_with_maps_and_only_when_tests_alone_read_them() -> None:
    from agentbench.toolchains.go.canaries import _tokens
    from agentbench.toolchains.go.tables import packages

    source = ('package m\n\nimport "testing"\n\nvar n = 5\n\nvar plain = []int{1, 2}\n\n'
              'var (\n\ta = 1\n\tb = 2\n\tnamed = map[string]int{"x": 1}\n)\n\n'
              'var helperRead = []struct{ want int }{{300}}\n\nvar Exported = plain\n\n'
              'func helper() int { return helperRead[0].want }\n\n'
              'func TestA(t *testing.T) { _ = named; _ = n; _ = helper() }\n')
    found = packages({"a_test.go": source, "other/b_test.go": "package other\n\nvar plain = []int{3}\n"}, _tokens)
    package = next(p for p in found if "a_test.go" in p.texts)
    assert len(found) == 2  # one package per folder and package clause
    assert set(package.tables) == {"named"}  # plain: read by a variable; helperRead: by a helper; n, a, b: no literal
    grouped = package.tables["named"]
    assert grouped.grouped and package.tokens["a_test.go"][grouped.decl[0]].text == "named"


def test_aligning_falls_back_to_a_body_canary_when_a_test_has_no_canary_on_the_chosen_row() -> None:
    source = NAMED["m_test.go"].replace("\t_ = unrelated\n", "\tif Square(11) != 121 {\n\t\tt.Fail()\n\t}\n")
    generated = candidates({"m_test.go": source})
    again = [m for m in generated if m.test == "TestSquareAgain"]
    for_square = [m for m in generated if m.test == "TestSquare" and "625" in m.described]
    keep = [*for_square, *(m for m in again if "625" not in m.described)]  # TestSquareAgain lost its 625 row
    catalog = HiddenCatalog(tests=("TestSquare", "TestSquareAgain"), canaries=tuple(keep), supported=True)
    for _ in range(20):
        picked = pick_aligned(catalog, {"m_test.go": source})
        table_changes = {m.described for m in picked if "-> " in m.described and "121" not in m.described}
        assert len(table_changes) == 1, picked


@pytest.mark.needs("go")
def test_expected_slices_of_literals_in_keyed_and_unkeyed_rows(tmp_path: Path, assets: Path) -> None:
    outcomes, (generated, rendered) = _render_and_run(tmp_path, assets, SLICES)
    changed = {m.test: sorted(m.described.split(": ")[1].split(" ->")[0] for m in generated if m.test == t)
               for t in ("TestAll", "TestCodes") for m in generated if m.test == t}
    assert len(changed["TestAll"]) == 3 and set(changed["TestAll"]) <= {'"91"', '"12"', '"23"', '"34"'}
    assert changed["TestCodes"] == ["122", "97", "98"]
    for name, role in rendered.roles.items():
        assert outcomes[name] == ("pass" if role.canary is None else "fail"), (name, role)


def test_a_table_a_twinless_test_reads_is_not_changed_when_its_readers_have_other_canaries() -> None:
    source = NAMED["m_test.go"].replace("\t_ = unrelated\n", "\tif Square(11) != 121 {\n\t\tt.Fail()\n\t}\n")
    generated = candidates({"m_test.go": source})
    keep = [m for m in generated if m.test == "TestSquareAgain"]  # TestSquare: no verified canary
    catalog = HiddenCatalog(tests=("TestSquare", "TestSquareAgain"), canaries=tuple(keep), supported=True)
    for _ in range(10):
        (picked,) = pick_aligned(catalog, {"m_test.go": source})
        assert "121" in picked.described  # the body canary: `squares` keeps one copy, read alike
        text = render({"m_test.go": source}, [picked]).sources["m_test.go"]
        assert len(set(re.findall(r"\bcases_[0-9a-f]{12}\b", text))) == 1
