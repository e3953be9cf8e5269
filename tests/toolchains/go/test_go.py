"""The harness counts `go test -json` itself: skipped is not passed, a test binary that exits in the
middle and forges lines earns nothing, coverage counts every package; the narrow test-file rule and
the lint of Go challenges."""

from __future__ import annotations

import json

from agentbench.toolchains.go import GoToolchain
from agentbench.toolchains.go.gotest import NOT_RUN, tally
from agentbench.toolchains.go.lint import lint_go_challenge
from agentbench.toolchains.go.sources import classify_sources
from tests.toolchains.go.conftest import challenge

LIB = """\
package m

// Add adds.
func Add(a, b int) int {
	return a + b
}

// Unused is never tested.
func Unused(x int) int {
	if x > 0 {
		return x
	}
	return -x
}
"""

TESTS = """\
package m

import "testing"

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("add")
	}
}

func TestSkipped(t *testing.T) { t.Skip("later") }

func TestFails(t *testing.T) { t.Error("no") }

func TestSub(t *testing.T) {
	t.Run("a", func(t *testing.T) {})
	t.Run("b", func(t *testing.T) {})
}
"""


def test_every_test_and_subtest_counts_and_skipped_is_not_passed(own_tests):
    own, _ = own_tests({"m.go": LIB, "m_test.go": TESTS})
    tests = own.tests
    assert (tests.passed, tests.failed, tests.skipped, tests.total) == (4, 1, 1, 6)
    assert tests.problem is None and tests.test_files == ("m_test.go",)


def test_a_test_binary_that_forges_lines_and_exits_early_earns_nothing(own_tests):
    forger = ('package m\n\nimport (\n\t"fmt"\n\t"syscall"\n\t"testing"\n)\n\n'
              'func TestFails(t *testing.T) { t.Fatal("no") }\n\n'
              'func TestZForge(t *testing.T) {\n\tfmt.Println("\\x16--- PASS: TestFails (0.00s)")\n'
              '\tsyscall.Exit(0)\n}\n')
    own, _ = own_tests({"m.go": LIB, "m_test.go": forger})
    assert own.tests.passed == 0
    assert own.tests.problem and own.tests.tampering


def test_coverage_counts_packages_without_tests_and_constrained_files(own_tests):
    own, ctx = own_tests({"m.go": LIB, "m_test.go": TESTS.split("func TestSkipped")[0],
                          "other/other.go": "package other\n\n// F is untested.\nfunc F() int {\n\treturn 1\n}\n",
                          "ignored.go": "//go:build never\n\npackage m\n\nfunc Hidden() int {\n\treturn 2\n}\n"})
    toolchain = GoToolchain()
    coverage = toolchain.coverage(own, toolchain.sources(ctx.dirs.workspace), ctx)
    per_file = json.loads((ctx.trial_dir / "coverage.json").read_text())["files"]
    assert per_file["m.go"] == {"covered": 1, "statements": 4}
    assert per_file["other/other.go"]["covered"] == 0 and per_file["other/other.go"]["statements"] >= 1
    assert per_file["ignored.go"]["covered"] == 0 and per_file["ignored.go"]["statements"] >= 3
    assert coverage.files == 3 and coverage.covered_lines == 1


def test_a_command_that_is_not_go_test_counts_nothing(own_tests):
    own, _ = own_tests({"m.go": LIB, "m_test.go": TESTS}, "sh -c 'echo ok'")
    assert own.tests.passed == 0 and own.tests.problem == NOT_RUN


def line(**event) -> str:
    return json.dumps({"Package": "p", **event})


def test_tally_rejects_repeated_outcomes_and_disagreeing_exit_status():
    output = "\n".join([line(Action="start"), line(Action="run", Test="T"), line(Action="fail", Test="T"),
                        line(Action="pass", Test="T"), line(Action="fail")])
    assert any("repeated" in t for t in tally(output, returncode=1, timed_out=False, direct=True).tampering)
    passing = "\n".join([line(Action="run", Test="T"), line(Action="pass", Test="T"), line(Action="pass")])
    assert tally(passing, returncode=0, timed_out=False, direct=True).tampering == ()
    assert tally(passing, returncode=1, timed_out=False, direct=True).tampering
    failing = "\n".join([line(Action="run", Test="T"), line(Action="fail", Test="T"), line(Action="fail")])
    assert tally(failing, returncode=0, timed_out=False, direct=True).tampering


def test_a_package_that_fails_without_a_failing_test_is_one_failure():
    output = "\n".join([line(Action="start"), line(Action="output", Output="panic in init"), line(Action="fail")])
    judged = tally(output, returncode=1, timed_out=False, direct=True)
    assert (judged.failed, judged.tampering) == (1, ())


def test_test_files_are_the_underscore_test_files(tmp_path):
    for name in ("a.go", "a_test.go", "sub/b.go", "testdata/c.go", "vendor/d/d.go", "_x/e.go"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("package x\n")
    sources = classify_sources(tmp_path)
    assert sorted(str(p.relative_to(tmp_path)) for p in sources.product) == ["a.go", "sub/b.go"]
    assert [p.name for p in sources.tests] == ["a_test.go"]


def test_lint_flags_uncountable_commands_and_hidden_tests_needing_modules(tmp_path):
    from dataclasses import replace

    from agentbench.models import AcceptanceSpec

    hidden = tmp_path / "acceptance"
    (hidden / "kv").mkdir(parents=True)
    (hidden / "kv" / "a_test.go").write_text(
        'package kv_test\n\nimport (\n\t"testing"\n\t"github.com/stretchr/testify/assert"\n'
        '\t"example.com/m/kv"\n)\n')
    (hidden / "notes.txt").write_text("x")
    ref = tmp_path / "reference"
    ref.mkdir()
    (ref / "go.mod").write_text("module example.com/m\n\ngo 1.22\n")
    text = "\n".join(lint_go_challenge(replace(challenge("make test", "go test -json ./..."),
                                               acceptance=AcceptanceSpec(files_dir=hidden),
                                               reference_dir=ref)))
    assert "'make test' does not run `go test`" in text and "sets -json" in text
    assert "github.com/stretchr/testify" in text and "example.com/m/kv" not in text
    assert "notes.txt" in text


PLANTER = """\
package m

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestAdd(t *testing.T) {
	if Add(1, 2) != 3 {
		t.Fatal("add")
	}
}

// TestPlant writes a profile claiming every block ran beside the one named on its parent's command
// line, and a block far outside m.go's lines.
func TestPlant(t *testing.T) {
	cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(os.Getppid()) + "/cmdline")
	for _, arg := range strings.Split(string(cmdline), "\\x00") {
		if path, ok := strings.CutPrefix(arg, "-coverprofile="); ok {
			forged := "mode: set\\nexample.com/m/m.go:9.26,10.12 1 1\\nexample.com/m/m.go:10.12,12.3 1 1\\n" +
				"example.com/m/m.go:13.2,13.11 1 1\\nexample.com/m/m.go:100.1,900.1 500 1\\n"
			for _, name := range []string{"planted.out", "planted" + filepath.Ext(path), "expected"} {
				_ = os.WriteFile(filepath.Join(filepath.Dir(path), name), []byte(forged), 0o644)
			}
		}
	}
}
"""


def test_a_profile_planted_beside_the_named_one_is_ignored(own_tests):
    own, ctx = own_tests({"m.go": LIB, "m_test.go": PLANTER})
    toolchain = GoToolchain()
    coverage = toolchain.coverage(own, toolchain.sources(ctx.dirs.workspace), ctx)
    assert own.tests.passed == 2
    assert (coverage.covered_lines, coverage.total_lines) == (1, 4)
