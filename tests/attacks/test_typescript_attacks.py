"""Issue 15: every integrity rule holds for TypeScript. Each trick end to end through `agentbench run`
on `easy/ts-calc`, in both sandbox modes (one run per mode holding every agent)."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from tests.attacks.agents import CHALLENGES
from tests.attacks.conftest import AttackRun, agentbench_run, needs_sandbox

pytestmark = [pytest.mark.attacks, pytest.mark.needs("node22")]

REFERENCE = CHALLENGES / "easy" / "ts-calc" / "reference"
REF = {str(p.relative_to(REFERENCE)): p.read_text() for p in REFERENCE.rglob("*") if p.is_file()}
BASE = {name: REF[name] for name in ("package.json", "package-lock.json", "tsconfig.json", "README.md")}


def d(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


WRONG = d("""
    export function add(a: number, b: number): number {
      return a + b;
    }

    export function sub(a: number, b: number): number {
      return a - b;
    }

    export function mul(a: number, b: number): number {
      return a * b;
    }

    export function div(a: number, b: number): number {
      return Math.floor(a / (b || 1)) + 1;
    }

    export function power(a: number, n: number): number {
      return a * n;
    }
    """)

GREEN = d("""
    import { test } from "node:test";
    import assert from "node:assert/strict";
    import { add, mul, sub } from "../src/calc.ts";

    test("add", () => assert.equal(add(2, 3), 5));
    test("sub and mul", () => assert.equal(sub(3, 2) + mul(2, 2), 5));
    """)

FAILING = GREEN + 'import { div } from "../src/calc.ts";\ntest("div", () => assert.equal(div(1, 4), 0.25));\n'
FAKE_NODE = "#!/bin/sh\necho '# pass 500'\nexit 0\n"

TS_AGENTS: dict[str, dict[str, str]] = {
    # one trivial function, one passing test covering every line
    "ts-stub": {**BASE, "src/calc.ts": "export function f(): number {\n  return 1;\n}\n",
                "test/calc.test.ts": 'import { test } from "node:test";\nimport { f } from "../src/calc.ts";\n'
                                     'test("f", () => { f(); });\n'},
    # half the hidden tests fail; its own tests pass
    "ts-wrong-green": {**BASE, "src/calc.ts": WRONG, "test/calc.test.ts": GREEN},
    # one passing test and fifty skipped or todo ones
    "ts-skipper": {**REF, "test/calc.test.ts": 'import { test } from "node:test";\ntest("ok", () => {});\n'
                   + "".join(f'test.skip("s{i}", () => {{}});\ntest.todo("t{i}");\n' for i in range(25))},
    # configuration planted to swap the reporter, the runner, or Node itself
    "ts-planted-config": {
        **BASE, "src/calc.ts": WRONG, "test/calc.test.ts": FAILING,
        ".npmrc": "node-options=--test-reporter=dot --test-reporter-destination=stdout\n",
        "node.config.json": json.dumps({"testRunner": {"test-reporter": "dot"}}),
        "package.json": json.dumps({"type": "module", "scripts": {"test": "echo '# pass 500'"},
                                    "devDependencies": {"typescript": "5.9.3", "@types/node": "22.20.7"}}),
        "node": FAKE_NODE, "node_modules/.bin/node": FAKE_NODE,
        "__python__": "import os\nfor p in ('node', 'node_modules/.bin/node'):\n    os.chmod(p, 0o755)\n"},
    # product code registers its own passing tests in the hidden test run
    "ts-registers-tests": {**BASE, "test/calc.test.ts": GREEN, "src/calc.ts": WRONG + d("""
        import { test } from "node:test";
        for (let i = 0; i < 20; i++) {
          test(`calc works ${i}`, () => {});
        }
        """)},
    # product code replaces the assertions with no-ops (the harness froze them first)
    "ts-patches-assert": {**BASE, "test/calc.test.ts": GREEN, "src/calc.ts": WRONG + d("""
        import assert from "node:assert/strict";
        import plain from "node:assert";
        for (const api of [assert, plain] as Array<Record<string, unknown>>) {
          for (const name of ["equal", "strictEqual", "deepEqual", "deepStrictEqual", "throws", "ok"]) {
            try {
              api[name] = () => {};
            } catch {
              // frozen
            }
          }
        }
        """)},
    # at exit, the exit status forced to 0 and failures stripped from any JUnit report
    "ts-exit-rewriter": {**BASE, "test/calc.test.ts": GREEN, "src/calc.ts": WRONG + d("""
        import { readFileSync, writeFileSync } from "node:fs";
        process.on("exit", () => {
          process.exitCode = 0;
          for (const arg of process.argv.concat(process.execArgv)) {
            const match = /^--test-reporter-destination=(.*\\.xml)$/.exec(arg);
            if (match) {
              const text = readFileSync(match[1], "utf8").replace(/<failure[\\s\\S]*?<\\/failure>/g, "");
              writeFileSync(match[1], text);
            }
          }
        });
        """)},
    # product code ends the test process as soon as the first failing test would run
    "ts-early-exit": {**BASE, "test/calc.test.ts": GREEN,
                      "src/calc.ts": WRONG.replace("return Math.floor", "process.exit(0);\n  return Math.floor")},
    # product code that goes after the harness's reporter
    "ts-reporter-hunter": {**BASE, "test/calc.test.ts": GREEN,
                           "src/calc.ts": WRONG + "export const fd = process.env.AGENTBENCH_REPORTER_FD;\n"},
    # untested code behind coverage-ignore comments
    "ts-pragma": {**REF, "src/extra.ts": d("""
        /* c8 ignore start */
        /* node:coverage disable */
        export function untested(x: number): number {
          if (x > 1) {
            return x * 2;
          }
          return x;
        }
        /* node:coverage enable */
        /* c8 ignore stop */
        """), "src/calc.ts": REF["src/calc.ts"] + 'export { untested } from "./extra.ts";\n'},
    # a module no test imports
    "ts-unimported": {**REF, "src/cli.ts": d("""
        export function main(args: string[]): number {
          if (args.length === 0) {
            console.log("usage: calc A B");
            return 2;
          }
          console.log(args.map(Number).reduce((a, b) => a + b, 0));
          return 0;
        }
        """)},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def ts_attacks(request: pytest.FixtureRequest, shared_folder: Path) -> AttackRun:
    needs_sandbox(request.param)
    folder = shared_folder / f"ts-attacks-{request.param}"
    folder.mkdir()
    return agentbench_run(folder, ["reference", "noop", *TS_AGENTS], "easy/ts-calc", request.param,
                          files=TS_AGENTS)


def test_reference_scores_full_marks_and_noop_nothing(ts_attacks):
    ref, noop = ts_attacks.trial("reference"), ts_attacks.trial("noop")
    assert ref.seed_score.total >= 95 and ref.verified_score.total >= 95
    assert ts_attacks.hidden("reference") == (10, 10)
    assert ref.measurements.tests.tampering == () and ref.measurements.acceptance.tampering == ()
    assert noop.verified_score.total == 0 and noop.seed_score.total <= 10
    # the hidden test file cannot import the missing product: one failure, never "forged" (issue 21)
    assert noop.measurements.acceptance.tampering == () and noop.measurements.acceptance.tests.problem is None


def test_a_stub_does_not_outscore_a_solution_when_verified(ts_attacks):
    stub = ts_attacks.trial("ts-stub")
    assert ts_attacks.hidden("ts-stub") == (0, 10)
    assert stub.verified_score.total <= 10
    assert stub.verified_score.total < ts_attacks.trial("reference").verified_score.total


def test_wrong_but_green_code_is_caught_by_the_hidden_tests(ts_attacks):
    t = ts_attacks.trial("ts-wrong-green")
    assert t.measurements.tests.passed == t.measurements.tests.total == 2
    assert ts_attacks.hidden("ts-wrong-green") == (5, 10)
    assert t.verified_score.total <= 60


def test_skipped_and_todo_tests_are_not_passed(ts_attacks):
    tests = ts_attacks.trial("ts-skipper").measurements.tests
    assert (tests.passed, tests.skipped, tests.total) == (1, 50, 51)
    assert ts_attacks.trial("ts-skipper").seed_score.tests <= 20 / 51 + 1e-9


def test_planted_configuration_does_not_redirect_the_reporter(ts_attacks):
    t = ts_attacks.trial("ts-planted-config")
    tests = t.measurements.tests
    assert (tests.passed, tests.failed, tests.problem) == (2, 1, None)
    assert ts_attacks.hidden("ts-planted-config") == (5, 10)


@pytest.mark.parametrize("agent", ["ts-registers-tests", "ts-reporter-hunter"])
def test_hidden_tests_cannot_be_forged_from_inside_the_test_process(ts_attacks, agent):
    acceptance = ts_attacks.trial(agent).measurements.acceptance
    assert acceptance.tests.passed == 0
    assert acceptance.tampering and acceptance.tests.problem
    assert ts_attacks.trial(agent).verified_score.total == 0


@pytest.mark.parametrize("agent", ["ts-exit-rewriter", "ts-early-exit"])
def test_a_test_child_s_exit_status_and_exit_gain_nothing(ts_attacks, agent):
    """The exit status and the JUnit report are the parent `node --test`'s: a child's `exitCode = 0`
    or early `process.exit(0)` changes neither, and tests it never reported count as failed. The
    same wrong code with nothing of the kind scores 5 of 10 (`ts-patches-assert`)."""
    passed, total = ts_attacks.hidden(agent)
    assert total == 10 and passed <= ts_attacks.hidden("ts-patches-assert")[0] == 5
    assert ts_attacks.trial(agent).verified_score.acceptance <= ts_attacks.trial("ts-patches-assert").verified_score.acceptance


def test_replacing_the_assertions_is_impossible(ts_attacks):
    assert ts_attacks.hidden("ts-patches-assert") == (5, 10)


def test_coverage_ignore_comments_and_unimported_modules_count_as_uncovered(ts_attacks):
    reference = ts_attacks.trial("reference").measurements.coverage
    pragma = ts_attacks.trial("ts-pragma").measurements.coverage
    unimported = ts_attacks.trial("ts-unimported").measurements.coverage
    assert pragma.total_lines - pragma.covered_lines >= 4
    assert reference.covered_lines > 0  # the data of the tests' workspace, mapped onto the snapshot
    assert unimported.files == reference.files + 1
    assert unimported.total_lines - unimported.covered_lines >= 6
