"""Issue 15: every integrity rule holds for Go. Each trick end to end through `agentbench run` on
`easy/go-calc`, in both sandbox modes (one run per mode holding every agent)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.attacks.agents import CHALLENGES
from tests.attacks.conftest import AttackRun, agentbench_run, needs_sandbox

pytestmark = [pytest.mark.attacks, pytest.mark.needs("go")]

REFERENCE = CHALLENGES / "easy" / "go-calc" / "reference"
REF = {str(p.relative_to(REFERENCE)): p.read_text() for p in REFERENCE.rglob("*") if p.is_file()}
BASE = {"go.mod": REF["go.mod"], "README.md": REF["README.md"]}

WRONG = """package calc

// Add adds.
func Add(a, b int) int { return a + b }

// Sub subtracts.
func Sub(a, b int) int { return a - b }

// Mul multiplies.
func Mul(a, b int) int { return a * b }

// Div divides (wrongly).
func Div(a, b int) (int, error) {
\tif b == 0 {
\t\tb = 1
\t}
\treturn a/b + 1, nil
}

// Power is wrong.
func Power(a, n int) int { return a * n }
"""

GREEN = """package calc

import "testing"

func TestAdd(t *testing.T) {
\tif Add(2, 3) != 5 {
\t\tt.Fatal("add")
\t}
}

func TestSubMul(t *testing.T) {
\tif Sub(3, 2)+Mul(2, 2) != 5 {
\t\tt.Fatal("sub mul")
\t}
}
"""

FAILING = GREEN + """
func TestDiv(t *testing.T) {
\tif q, _ := Div(9, 2); q != 4 {
\t\tt.Fatal(q)
\t}
}
"""

GO_AGENTS: dict[str, dict[str, str]] = {
    # one trivial function, one passing test covering every line
    "go-stub": {**BASE, "calc.go": "package calc\n\n// F is one.\nfunc F() int { return 1 }\n",
                "calc_test.go": 'package calc\n\nimport "testing"\n\nfunc TestF(t *testing.T) {\n'
                                '\tif F() != 1 {\n\t\tt.Fatal("f")\n\t}\n}\n'},
    # half the hidden tests fail; its own tests pass
    "go-wrong-green": {**BASE, "calc.go": WRONG, "calc_test.go": GREEN},
    # one passing test and fifty skipped ones
    "go-skipper": {**REF, "calc_test.go": 'package calc\n\nimport "testing"\n\nfunc TestOK(t *testing.T) {}\n'
                   + "".join(f'\nfunc TestS{i}(t *testing.T) {{ t.Skip("later") }}\n' for i in range(50))},
    # a workspace file, a vendor folder and Go environment files planted to redirect the go command
    "go-planted-config": {**BASE, "calc.go": WRONG, "calc_test.go": FAILING,
                          "go.work": "go 1.22\n\nuse (\n\t.\n\t./other\n)\n",
                          "other/go.mod": "module example.com/other\n\ngo 1.22\n",
                          "other/other.go": "package other\n",
                          "vendor/modules.txt": "# example.com/calc v9.9.9\n",
                          "go.env": "GOFLAGS=-run=NONE\n", ".config/go/env": "GOFLAGS=-run=NONE\n"},
    # a TestMain that exits 0 whatever the tests did
    "go-exit-zero": {**BASE, "calc.go": WRONG, "calc_test.go": (FAILING + """
func TestMain(m *testing.M) {
\tm.Run()
\tos.Exit(0)
}
""").replace('import "testing"', 'import (\n\t"os"\n\t"testing"\n)')},
    # product code that prints test2json's framing to forge passes
    "go-forger": {**BASE, "calc_test.go": GREEN, "calc.go": WRONG.replace("package calc\n", """package calc

import "fmt"

func init() {
\tfor _, name := range []string{"TestDiv", "TestDivZero", "TestDivExact", "TestPower", "TestPowerZero"} {
\t\tfmt.Printf("\\x16--- PASS: %s (0.00s)\\n", name)
\t}
}
""", 1)},
    # product code that ends the test binary as the first failing test would run
    "go-early-exit": {**BASE, "calc_test.go": GREEN, "calc.go": WRONG.replace(
        "package calc\n", 'package calc\n\nimport "syscall"\n', 1).replace(
        "\tif b == 0 {", "\tsyscall.Exit(0)\n\tif b == 0 {")},
    # product code that goes after the harness
    "go-hunter": {**BASE, "calc_test.go": GREEN,
                  "calc.go": WRONG + '\n// Marker is aimed at the harness.\nconst Marker = "AGENTBENCH"\n'},
    # a package no test imports
    "go-unimported": {**REF, "cli/cli.go": """package cli

import "fmt"

// Main prints a usage line or a sum.
func Main(args []int) int {
\tif len(args) == 0 {
\t\tfmt.Println("usage: calc A B")
\t\treturn 2
\t}
\ttotal := 0
\tfor _, a := range args {
\t\ttotal += a
\t}
\tfmt.Println(total)
\treturn 0
}
"""},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def go_attacks(request: pytest.FixtureRequest, shared_folder: Path) -> AttackRun:
    needs_sandbox(request.param)
    folder = shared_folder / f"go-attacks-{request.param}"
    folder.mkdir()
    return agentbench_run(folder, ["reference", "noop", *GO_AGENTS], "easy/go-calc", request.param,
                          files=GO_AGENTS)


COUNTED = 10
"""go-calc's hidden tests that count: all 10 have a verified canary (TestDivZero's, an error check,
expects the opposite; a test no canary guards would be run and reported but not counted,
docs/scoring-integrity.md)."""


def test_reference_scores_full_marks_and_noop_nothing(go_attacks):
    ref, noop = go_attacks.trial("reference"), go_attacks.trial("noop")
    assert ref.seed_score.total >= 95 and ref.verified_score.total >= 95
    assert go_attacks.hidden("reference") == (COUNTED, COUNTED)
    assert ref.measurements.tests.tampering == () and ref.measurements.acceptance.tampering == ()
    assert noop.verified_score.total == 0 and noop.seed_score.total <= 10


def test_a_stub_does_not_outscore_a_solution_when_verified(go_attacks):
    stub = go_attacks.trial("go-stub")
    assert go_attacks.hidden("go-stub") == (0, COUNTED)
    assert stub.verified_score.total <= 10


def test_wrong_but_green_code_is_caught_by_the_hidden_tests(go_attacks):
    t = go_attacks.trial("go-wrong-green")
    assert t.measurements.tests.passed == t.measurements.tests.total == 2
    # 5 honest passes, less 1: TestDivZero's twin (`err != nil`) passes beside its failing twin, as a
    # product that never errs does honestly; it cancels one pass (a forger flipping it gains nothing)
    assert go_attacks.hidden("go-wrong-green") == (4, COUNTED)
    assert t.verified_score.total <= 60


def test_skipped_tests_are_not_passed(go_attacks):
    tests = go_attacks.trial("go-skipper").measurements.tests
    assert (tests.passed, tests.skipped, tests.total) == (1, 50, 51)


def test_planted_configuration_does_not_redirect_the_go_command(go_attacks):
    tests = go_attacks.trial("go-planted-config").measurements.tests
    assert (tests.passed, tests.failed, tests.problem) == (2, 1, None)
    assert go_attacks.hidden("go-planted-config") == (4, COUNTED)


def test_an_exit_status_forced_to_zero_voids_the_own_tests(go_attacks):
    tests = go_attacks.trial("go-exit-zero").measurements.tests
    assert tests.passed == 0 and any("exited 0" in t for t in tests.tampering)


@pytest.mark.parametrize("agent", ["go-forger", "go-early-exit", "go-hunter"])
def test_hidden_tests_cannot_be_forged_from_inside_the_test_binary(go_attacks, agent):
    acceptance = go_attacks.trial(agent).measurements.acceptance
    assert acceptance.tests.passed == 0
    assert acceptance.tampering and acceptance.tests.problem
    assert go_attacks.trial(agent).verified_score.total == 0


def test_an_untested_package_counts_as_uncovered(go_attacks):
    reference = go_attacks.trial("reference").measurements.coverage
    unimported = go_attacks.trial("go-unimported").measurements.coverage
    assert unimported.files == reference.files + 1
    assert unimported.total_lines - unimported.covered_lines >= 5
    assert reference.covered_lines > 0  # the profiles of the tests' workspace, mapped onto the snapshot
