"""Issue 21, items 4 and 5: coverage the product cannot write, quality that cannot be diluted or
skipped, and a channel secret that /proc does not keep. Each attack end to end through `agentbench run`
on `easy/calc`, in both sandbox modes (one run per mode), against an honest twin: each inflated
component gains at most 0.5 points."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.attacks.agents import CHALLENGES, REF, d
from tests.attacks.conftest import AttackRun, mode_run
from tests.requirements import require

pytestmark = pytest.mark.attacks

EXTRA = d('''
    def clamp(x, low, high):
        if x < low:
            return low
        if x > high:
            return high
        return x


    def sign(x):
        if x > 0:
            return 1
        if x < 0:
            return -1
        return 0
    ''')

EXTRA_TEST = "from calc.extra import clamp\n\n\ndef test_clamp():\n    assert clamp(5, 0, 9) == 5\n"

FORGE = d('''

    import coverage as _coverage
    import os as _os
    _live = _coverage.Coverage.current()
    if _live is not None:
        import ast as _ast
        _root = _os.path.dirname(__file__)
        for _name in _os.listdir(_root):
            if _name.endswith(".py"):
                _path = _os.path.join(_root, _name)
                _tree = _ast.parse(open(_path).read())
                _lines = {n.lineno for n in _ast.walk(_tree) if hasattr(n, "lineno")}
                _live.get_data().add_lines({_path: sorted(_lines)})
    ''')

BIG = "def classify(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(60)) + "    return -1\n"
TRIVIAL = "".join(f"\n\ndef t{i}():\n    return {i}\n" for i in range(80))

HUNT = d('''

    import os as _os
    import re as _re
    _found = []
    for _pid in ("self", str(_os.getppid())):
        try:
            _env = open(f"/proc/{_pid}/environ", "rb").read()
        except OSError:
            continue
        # every 32-hex value but the process markers (which say which processes to kill, no secret)
        _found += [v for n, v in _re.findall(rb"(?:^|\\x00)([^=\\x00]+)=([0-9a-f]{32})(?=\\x00|$)", _env)
                   if not n.endswith(b"_MARKER")]
        for _fd, _ in _re.findall(rb"=(\\d+):(\\d+)(?:\\x00|$)", _env):
            for _p in (f"/proc/self/fd/{int(_fd)}", f"/proc/{_pid}/fd/{int(_fd)}"):
                try:  # a closed key descriptor's number may be reused: only a key record counts
                    _found += [r for r in [open(_p, "rb").read(256)] if b"nonce" in r]
                except OSError:
                    pass
    if _found:  # with a secret the attack would forge events; here it shows by breaking add()
        add = sub  # noqa: F811
    ''')

COV = {**REF, "src/calc/extra.py": EXTRA, "tests/test_extra.py": EXTRA_TEST}
AGENTS = {
    "cov-honest": COV,
    "cov-forge": {**COV, "src/calc/extra.py": EXTRA + FORGE},
    "q-honest": {**REF, "src/calc/big.py": BIG},
    "q-dilute": {**REF, "src/calc/big.py": BIG + TRIVIAL},
    "q-padded": {**REF, "src/calc/big.py": BIG + ("# padding\n" * 500_000)},
    "proc-secret": {**REF, "src/calc/ops.py": REF["src/calc/ops.py"] + HUNT},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def run(request: pytest.FixtureRequest, shared_folder: Path) -> AttackRun:
    return mode_run(shared_folder, "measure-attacks", ["reference", "noop", *AGENTS], "easy/calc",
                    request.param, files=AGENTS)


def gain(run: AttackRun, attack: str, honest: str, component: str, rubric: str) -> float:
    score = {"seed": "seed_score", "verified": "verified_score"}[rubric]
    return getattr(getattr(run.trial(attack), score), component) - getattr(getattr(run.trial(honest), score), component)


def test_reference_full_marks_and_noop_nothing(run):
    assert run.trial("reference").verified_score.total >= 95
    assert run.trial("noop").verified_score.total == 0


def test_lines_added_to_coverage_s_live_data_earn_nothing(run):
    honest = run.trial("cov-honest").measurements.coverage
    assert honest.covered_lines < honest.total_lines  # there was something to forge
    for rubric in ("seed", "verified"):
        assert gain(run, "cov-forge", "cov-honest", "coverage", rubric) <= 0.5


def test_trivial_functions_do_not_dilute_verified_quality(run):
    assert gain(run, "q-dilute", "q-honest", "quality", "verified") <= 0.5


def test_a_module_padded_past_the_size_limit_is_the_worst_band(run):
    padded = run.trial("q-padded")
    assert padded.measurements.quality.unanalysed == ("src/calc/big.py",)
    for rubric in ("seed", "verified"):
        assert gain(run, "q-padded", "q-honest", "quality", rubric) <= 0.5


def test_product_code_finds_no_channel_secret_in_proc(run):
    """The hunt runs on import in the hidden and own test processes; had it found a secret-looking
    value in its own or its parent's environ, or read a key record, add() would be broken."""
    assert run.hidden("proc-secret") == (10, 10)
    assert run.trial("proc-secret").measurements.tests.failed == 0


TS_REFERENCE = CHALLENGES / "easy" / "ts-calc" / "reference"
TS_REF = {str(p.relative_to(TS_REFERENCE)): p.read_text() for p in TS_REFERENCE.rglob("*") if p.is_file()}
TS_HONEST_TEST = d('''
    import { test } from "node:test";
    import assert from "node:assert/strict";
    import { add } from "../src/calc.ts";

    test("add", () => assert.equal(add(2, 3), 5));
    ''')
TS_PLANT = d('''
    import fs from "node:fs";
    import path from "node:path";

    test("plants a V8 coverage file claiming every byte of the product ran", () => {
      const folder = process.env.NODE_V8_COVERAGE;
      const url = "file://" + path.resolve("src/calc.ts");
      const ranges = [{ startOffset: 0, endOffset: 1e6, count: 1 }];
      const body = { result: [{ scriptId: "1", url, functions: [{ functionName: "", ranges, isBlockCoverage: true }] }] };
      for (const pid of [process.pid, process.ppid, 1, 2, 3]) {
        if (folder) fs.writeFileSync(path.join(folder, `coverage-${pid}-${Date.now()}-0.json`), JSON.stringify(body));
      }
    });
    ''')
TS_VM = d('''

    import vm from "node:vm";
    import fs from "node:fs";
    import { fileURLToPath } from "node:url";
    // a script named like this file, compiled from other text of the same length: one range that ran
    const me = fileURLToPath(import.meta.url);
    vm.runInThisContext("0;".padEnd(fs.readFileSync(me, "utf8").length, " "), { filename: "file://" + me + NAME });
    ''')
TS_AGENTS = {
    "ts-honest": {**TS_REF, "test/calc.test.ts": TS_HONEST_TEST},
    "ts-plant": {**TS_REF, "test/calc.test.ts": TS_HONEST_TEST + TS_PLANT},
    "ts-vm-honest": {**TS_REF, "test/calc.test.ts": TS_HONEST_TEST,  # the same code, another name
                     "src/calc.ts": TS_REF["src/calc.ts"] + TS_VM.replace("NAME", '".elsewhere"')},
    "ts-vm": {**TS_REF, "test/calc.test.ts": TS_HONEST_TEST,
              "src/calc.ts": TS_REF["src/calc.ts"] + TS_VM.replace("NAME", '""')},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def ts_run(request: pytest.FixtureRequest, shared_folder: Path) -> AttackRun:
    require("node22")
    return mode_run(shared_folder, "measure-attacks-ts", ["reference", *TS_AGENTS], "easy/ts-calc",
                    request.param, files=TS_AGENTS)


def test_typescript_coverage_planted_or_compiled_from_other_text_earns_nothing(ts_run):
    honest = ts_run.trial("ts-honest").measurements.coverage
    assert 0 < honest.covered_lines < honest.total_lines  # there was something to forge
    reference = ts_run.trial("reference").measurements.coverage
    assert reference.covered_lines == reference.total_lines  # the second collector confirms honest lines
    for attack, twin in (("ts-plant", "ts-honest"), ("ts-vm", "ts-vm-honest")):
        for rubric in ("seed", "verified"):
            assert gain(ts_run, attack, twin, "coverage", rubric) <= 0.5, attack


GO_REFERENCE = CHALLENGES / "easy" / "go-calc" / "reference"
GO_REF = {str(p.relative_to(GO_REFERENCE)): p.read_text() for p in GO_REFERENCE.rglob("*") if p.is_file()}
GO_HONEST_TEST = d('''
    package calc

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

    // every block of calc.go, claimed run
    const forged = "mode: set\\nexample.com/calc/calc.go:10.24,10.40 1 1\\nexample.com/calc/calc.go:13.24,13.40 1 1\\n" +
        "example.com/calc/calc.go:16.24,16.40 1 1\\nexample.com/calc/calc.go:19.33,20.13 1 1\\n" +
        "example.com/calc/calc.go:20.13,22.3 1 1\\nexample.com/calc/calc.go:23.2,23.19 1 1\\n" +
        "example.com/calc/calc.go:27.29,29.26 2 1\\nexample.com/calc/calc.go:29.26,31.3 1 1\\n" +
        "example.com/calc/calc.go:32.2,32.15 1 1\\n"

    // paths: every coverage path on the command line of this process and its ancestors.
    func paths() []string {
        var found []string
        pid := os.Getpid()
        for i := 0; i < 10 && pid > 1; i++ {
            cmdline, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
            for _, arg := range strings.Split(string(cmdline), "\\x00") {
                for _, flag := range []string{"-coverprofile=", "-test.coverprofile=", "-test.gocoverdir="} {
                    if p, ok := strings.CutPrefix(arg, flag); ok {
                        found = append(found, p)
                    }
                }
            }
            stat, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
            fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
            if len(fields) < 2 {
                break
            }
            pid, _ = strconv.Atoi(fields[1])
        }
        return found
    }

    func TestMain(m *testing.M) {
        code := m.Run()
        if MODE != "" {
            for _, p := range paths() {
                if info, err := os.Stat(p); err == nil && info.IsDir() {
                    if MODE == "dir" {  // a second counters file beside the runtime's
                        _ = os.WriteFile(filepath.Join(p, "covcounters.0123456789abcdef0123456789abcdef.1.1"), []byte(forged), 0o644)
                    }
                    continue
                }
                if MODE == "append" {  // blocks appended to the profile, and a second profile beside it
                    if f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0o644); err == nil {
                        _, _ = f.WriteString(forged[len("mode: set\\n"):])
                        _ = f.Close()
                    }
                    _ = os.WriteFile(filepath.Join(filepath.Dir(p), "planted.cover"), []byte(forged), 0o644)
                }
            }
        }
        os.Exit(code)
    }
    ''')
GO_AGENTS = {
    "go-honest": {**GO_REF, "calc_test.go": GO_HONEST_TEST.replace("MODE", '""')},
    "go-append": {**GO_REF, "calc_test.go": GO_HONEST_TEST.replace("MODE", '"append"')},
    "go-plant-dir": {**GO_REF, "calc_test.go": GO_HONEST_TEST.replace("MODE", '"dir"')},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def go_run(request: pytest.FixtureRequest, shared_folder: Path) -> AttackRun:
    require("go")
    return mode_run(shared_folder, "measure-attacks-go", ["reference", *GO_AGENTS], "easy/go-calc",
                    request.param, files=GO_AGENTS)


def test_go_profiles_planted_or_appended_by_a_test_binary_earn_nothing(go_run):
    honest = go_run.trial("go-honest").measurements.coverage
    assert 0 < honest.covered_lines < honest.total_lines  # there was something to forge
    reference = go_run.trial("reference").measurements.coverage
    assert reference.covered_lines == reference.total_lines
    for attack in ("go-append", "go-plant-dir"):
        assert go_run.trial(attack).measurements.tests.passed == 1, attack
        for rubric in ("seed", "verified"):
            assert gain(go_run, attack, "go-honest", "coverage", rubric) <= 0.5, attack
