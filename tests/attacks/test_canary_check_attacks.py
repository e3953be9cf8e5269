"""Issue 21, canary residuals: hidden tests whose checks are no expected literal used to get no twin
and did not count. Now Go tables declared as package-level variables (Exercism's cases_test.go),
`wantErr`-style truth fields, `if err == nil { t.Fatal(...) }` checks, and TypeScript `assert.ok(x)`
and `assert.match(value, /re/)` get twins. The calc attack challenges are copied with hidden tests
made only of such checks; forgers that flip outcomes from inside the test process (all failures,
the tests that look twinless, one of each pair they can find) gain nothing. Both sandbox modes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.attacks.agents import CHALLENGES
from tests.attacks.conftest import AttackRun, agentbench_run, needs_sandbox
from tests.attacks.test_canary_attacks import (
    _GO_IMPORTS,
    _GO_PAIRS,
    _TS_PAIRS,
    GO_FORGERS,
    GO_REF,
    GO_STUB,
    TS_FORGERS,
    TS_REF,
    TS_STUB,
    _canary_log,
    _caught_or_paid,
)

pytestmark = pytest.mark.attacks

GO_CASES = """\
package calc_test

var quotients = []struct {
\ta, b    int
\twantErr bool
}{{9, 3, false}, {1, 0, true}, {12, 4, false}}

var sums = []struct{ a, b, expected int }{{2, 3, 5}, {40, 2, 42}, {-200, -300, -500}}
"""

GO_TESTS = """\
package calc_test

import (
\t"testing"

\t"example.com/calc"
)

func TestDivErrors(t *testing.T) {
\tfor _, c := range quotients {
\t\tif _, err := calc.Div(c.a, c.b); (err != nil) != c.wantErr {
\t\t\tt.Errorf("Div(%d, %d): %v", c.a, c.b, err)
\t\t}
\t}
}

func TestDivZero(t *testing.T) {
\t_, err := calc.Div(1, 0)
\tif err == nil {
\t\tt.Fatal("expected an error for a zero divisor")
\t}
}

func TestDivNoError(t *testing.T) {
\tif _, err := calc.Div(4, 2); err != nil {
\t\tt.Fatalf("unexpected error: %v", err)
\t}
}

func TestAddTable(t *testing.T) {
\tfor _, c := range sums {
\t\tif got := calc.Add(c.a, c.b); got != c.expected {
\t\t\tt.Errorf("Add(%d, %d) = %d", c.a, c.b, got)
\t\t}
\t}
}
"""

TS_TESTS = """\
import { test } from "node:test";
import assert from "node:assert/strict";
import { add, div, mul, power, sub } from "../src/calc.ts";

test("add is positive", () => assert.ok(add(2, 3) > 0));
test("sub", () => assert.ok(sub(10, 4) === 6));
test("div exact", () => assert.ok(Number.isInteger(div(9, 3))));
test("mul", () => assert.match(String(mul(6, 7)), /^42$/));
test("power", () => assert.match(`${power(2, 10)}`, /^1024$/));
test("div fraction", () => assert.match(String(div(1, 4)), /^0\\.25$/));
"""

# pairs test functions whose bodies are the same once table copies' names and `==`/`!=` are
# ignored (what this design's twins differ in), and flips one of each pair at random
_GO_TABLE_PAIRS = _GO_PAIRS + r"""
var copyName = regexp.MustCompile(`cases_[0-9a-f]{12}`)

func normal(body string) string {
	return strings.ReplaceAll(copyName.ReplaceAllString(body, "T"), "!=", "==")
}

func alike() (pairs [][2]string) {
	list, used := hiddenTests(), map[int]bool{}
	for i := range list {
		for k := i + 1; k < len(list) && !used[i]; k++ {
			if !used[k] && (normal(list[i][1]) == normal(list[k][1]) || twins(list[i][1], list[k][1])) {
				used[i], used[k] = true, true
				pairs = append(pairs, [2]string{list[i][0], list[k][0]})
			}
		}
	}
	return pairs
}
"""

GO_ATTACKERS = {
    "go-rerunner": GO_FORGERS["go-rerunner"],
    "go-unguarded-flipper": {"go.mod": GO_REF["go.mod"], "README.md": GO_REF["README.md"],
                             "calc.go": (GO_STUB + _GO_PAIRS + """
var _ = forge(func() []string { _, single := grouped(); return single })
""").replace("package calc\n", _GO_IMPORTS, 1)},
    "go-table-pair-flipper": {"go.mod": GO_REF["go.mod"], "README.md": GO_REF["README.md"],
                              "calc.go": (GO_STUB + _GO_TABLE_PAIRS + """
var _ = forge(func() []string {
	var chosen []string
	for _, pair := range alike() {
		chosen = append(chosen, pair[rand.Intn(2)])
	}
	return chosen
})
""").replace("package calc\n", _GO_IMPORTS, 1)},
}

_TS_BASE = {k: v for k, v in TS_REF.items() if not k.startswith("src/")}
TS_ATTACKERS = {
    "ts-serializer-flipper": TS_FORGERS["ts-serializer-flipper"],
    "ts-unguarded-flipper": {**_TS_BASE, "src/calc.ts": TS_STUB + _TS_PAIRS + "forge(new Set(grouped().single));\n"},
    "ts-pair-flipper": {**_TS_BASE, "src/calc.ts": TS_STUB + _TS_PAIRS + (
        "forge(new Set(grouped().pairs.map((pair) => pair[Math.floor(Math.random() * 2)])));\n")},
}


def _challenge(root: Path, source: str, name: str, hidden: dict[str, str]) -> Path:
    """A copy of the attack challenge `source` named `name`, its hidden tests replaced."""
    folder = root / "easy" / name
    shutil.copytree(CHALLENGES / "easy" / source, folder)
    shutil.copy(CHALLENGES / "easy" / f"{source}.yaml", root / "easy" / f"{name}.yaml")
    shutil.rmtree(folder / "acceptance")
    (folder / "acceptance").mkdir()
    for rel, text in hidden.items():
        (folder / "acceptance" / rel).write_text(text)
    return root


@pytest.fixture(scope="module", params=("none", "bwrap"))
def go_checks(request: pytest.FixtureRequest, shared_folder: Path) -> AttackRun:
    needs_sandbox(request.param)
    folder = shared_folder / f"go-checks-{request.param}"
    folder.mkdir()
    root = _challenge(folder / "challenges", "go-calc", "go-checks",
                      {"cases_test.go": GO_CASES, "calc_acceptance_test.go": GO_TESTS})
    return agentbench_run(folder, ["reference", "noop", *GO_ATTACKERS], "easy/go-checks", request.param,
                          files=GO_ATTACKERS, challenges=root)


@pytest.fixture(scope="module", params=("none", "bwrap"))
def ts_checks(request: pytest.FixtureRequest, shared_folder: Path) -> AttackRun:
    needs_sandbox(request.param)
    folder = shared_folder / f"ts-checks-{request.param}"
    folder.mkdir()
    root = _challenge(folder / "challenges", "ts-calc", "ts-checks", {"calc.test.ts": TS_TESTS})
    return agentbench_run(folder, ["reference", "noop", *TS_ATTACKERS], "easy/ts-checks", request.param,
                          files=TS_ATTACKERS, challenges=root)


def _unflagged(run: AttackRun, total: int) -> None:
    for agent, expected in (("reference", (total, total)), ("noop", (0, total))):
        acceptance = run.trial(agent).measurements.acceptance
        assert run.hidden(agent) == expected, agent
        assert acceptance.tampering == () and "forged" not in (acceptance.tests.problem or ""), agent
    log = _canary_log(run, "reference")
    assert log["uncounted"] == [] and len(log["canaries"]) == total
    assert {c["outcome"] for c in log["canaries"]} == {"failed"}


def test_go_checks_are_all_guarded_and_the_reference_and_noop_are_not_flagged(go_checks):
    _unflagged(go_checks, 4)


def test_ts_checks_are_all_guarded_and_the_reference_and_noop_are_not_flagged(ts_checks):
    _unflagged(ts_checks, 6)


def _caught(attack: AttackRun, agent: str) -> None:
    """The twins of these checks differ from their real test in no literal a literal-pair finder sees
    (a table copy's name, `==` for `!=`) or in one it does: flipping what looks twinless flips a
    canary beside its passing twin, or flips nothing and scores the stub's honest passes."""
    trial = attack.trial(agent)
    hidden = trial.measurements.acceptance.tests
    log = _canary_log(attack, agent)
    assert trial.verified_score.total <= 10 and log["uncounted"] == [] and hidden.passed == 0
    if agent == "ts-unguarded-flipper" and not log["forged"]:
        return  # every pair differed in one token this run: nothing looked twinless, nothing flipped
    assert "forged" in (hidden.problem or ""), log
    assert any(e.startswith("canary ") for e in hidden.tampering), hidden.tampering


def test_go_forgers_flipping_every_failure_or_what_looks_twinless_are_caught(go_checks):
    for agent in ("go-rerunner", "go-unguarded-flipper"):
        _caught(go_checks, agent)


def test_ts_forgers_flipping_every_failure_or_what_looks_twinless_are_caught(ts_checks):
    for agent in ("ts-serializer-flipper", "ts-unguarded-flipper"):
        _caught(ts_checks, agent)


def _caught_or_pays(attack: AttackRun, agent: str) -> None:
    """Caught by a canary or by a detector (its JUnit rewrite can disagree with the reporter: void
    too), or each wrong guess cancels a right one."""
    trial = attack.trial(agent)
    hidden = trial.measurements.acceptance.tests
    if "forged" in (hidden.problem or "") and not _canary_log(attack, agent)["forged"]:
        assert hidden.passed == 0 and trial.verified_score.total <= 10
        return
    _caught_or_paid(attack, agent)


def test_a_go_forger_pairing_table_readers_is_caught_or_pays(go_checks):
    _caught_or_pays(go_checks, "go-table-pair-flipper")


def test_a_ts_forger_flipping_one_of_each_pair_is_caught_or_pays(ts_checks):
    _caught_or_pays(ts_checks, "ts-pair-flipper")
