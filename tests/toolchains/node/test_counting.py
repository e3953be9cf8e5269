"""The harness counts node:test outcomes itself: skipped is not passed, nothing the project plants
changes which Node runs or which reporter counts, and a run that never reached the reporter counts
nothing."""

from __future__ import annotations

import json
from pathlib import Path

from agentbench.toolchains.channel import Stream
from agentbench.toolchains.node.tally import NOT_LOADED, Reporter, tally
from agentbench.toolchains.node.testrun import to_measurement

PASSING = """\
import { test } from "node:test";
test("one", () => {});
"""


def test_skipped_and_todo_tests_are_in_the_total_but_not_passed(own_tests):
    own, _ = own_tests({"test/a.test.ts": """\
        import { test, describe } from "node:test";
        import assert from "node:assert/strict";
        test("passes", () => {});
        test("fails", () => { assert.equal(1, 2); });
        test.skip("skipped", () => {});
        test.todo("todo");
        test("skips itself", (t) => { t.skip(); });
        describe("suite", () => { test("inner", () => {}); });
        """})
    tests = own.tests
    assert (tests.passed, tests.failed, tests.skipped, tests.total) == (2, 1, 3, 6)
    assert tests.problem is None and tests.tampering == ()
    assert tests.test_files == ("test/a.test.ts",)


def test_a_file_that_fails_to_load_is_one_failure_and_an_empty_file_counts_nothing(own_tests):
    own, ctx = own_tests({"test/a.test.ts": PASSING, "test/broken.test.ts": "import './missing.ts';\n",
                          "test/empty.test.ts": "export const x = 1;\n"})
    assert (own.tests.passed, own.tests.failed, own.tests.total) == (1, 1, 2)
    outcomes = json.loads((ctx.logs() / "test-1.outcomes.json").read_text())
    assert any(path.endswith("empty.test.ts") for path in outcomes["files_without_tests"])


def test_a_file_that_exits_early_counts_as_if_deleted_never_as_passed(own_tests):
    """process.exit(0) in a test file makes node report the whole file as one passed test: the
    harness counts none of that file (as if its tests were deleted), so nothing is gained."""
    own, _ = own_tests({"test/a.test.ts": PASSING, "test/exit.test.ts": """\
        import { test } from "node:test";
        import assert from "node:assert/strict";
        test("fails", () => { assert.equal(1, 2); });
        test("exits", () => { process.exit(0); });
        """})
    assert (own.tests.passed, own.tests.total) == (1, 1)


def test_planted_node_binaries_and_npm_config_do_not_redirect_the_reporter(own_tests):
    fake_node = "#!/bin/sh\necho '# pass 99'\nexit 0\n"
    own, ctx = own_tests({
        "test/a.test.ts": PASSING.replace("{}", "{ throw new Error('no'); }"),
        ".npmrc": "node-options=--test-reporter=dot\n",
        "node_modules/.bin/node": fake_node, "node": fake_node,
        "package.json": '{"type": "module", "scripts": {"test": "node -e 0"}}',
    })
    for path in ("node_modules/.bin/node", "node"):
        (ctx.dirs.workspace / path).chmod(0o755)
    assert (own.tests.passed, own.tests.failed) == (0, 1)


def test_a_command_that_does_not_reach_the_reporter_counts_nothing(own_tests):
    own, _ = own_tests({"test/a.test.ts": PASSING,
                        "package.json": '{"type": "module", "scripts": {"test": "node --test"}}'},
                       "npm test", "echo '# pass 500'")
    assert own.tests.passed == 0
    assert own.tests.problem == NOT_LOADED


def test_coverage_data_is_collected(own_tests):
    own, _ = own_tests({"test/a.test.ts": PASSING})
    assert own.coverage_data is not None and any(own.coverage_data.glob("*.json"))


REPORTER = Reporter(file=Path("/r/agentbench-reporter-x.mjs"), nonce="secret")


def events(*items: dict) -> Stream:
    return Stream(events=tuple({"nonce": "secret", "pid": 1, **e} for e in items))


HELLO = {"e": "hello", "file": "/r/agentbench-reporter-x.mjs", "cwd": "/w"}
PASS = {"e": "test", "outcome": "pass", "name": "t", "file": "/w/a.test.ts", "line": 1, "column": 1}
FAIL = {**PASS, "outcome": "fail", "name": "u"}


def test_events_without_the_secret_void_the_counts():
    stream = Stream(events=(*events(HELLO, PASS).events, {**PASS, "nonce": "guess", "pid": 1},
                            *events({"e": "finish"}).events))
    judged = tally(stream, REPORTER, returncode=0, timed_out=False, direct=True)
    assert judged.tampering and to_measurement([_run(judged)], Path("/w")).passed == 0


def test_an_unfinished_run_that_was_not_killed_voids_the_counts():
    judged = tally(events(HELLO, PASS), REPORTER, returncode=0, timed_out=False, direct=True)
    assert any("without finishing" in t for t in judged.tampering)
    timed_out = tally(events(HELLO, PASS), REPORTER, returncode=None, timed_out=True, direct=True)
    assert timed_out.tampering == () and timed_out.passed == 1


def test_an_exit_status_that_disagrees_with_the_outcomes_voids_the_counts():
    finished = ({"e": "finish"},)
    assert tally(events(HELLO, FAIL, *finished), REPORTER, returncode=0, timed_out=False,
                 direct=True).tampering
    assert tally(events(HELLO, PASS, *finished), REPORTER, returncode=1, timed_out=False,
                 direct=True).tampering
    assert tally(events(HELLO, FAIL, *finished), REPORTER, returncode=1, timed_out=False,
                 direct=True).tampering == ()


def test_a_stream_without_the_reporter_s_hello_counts_nothing():
    judged = tally(events({**HELLO, "file": "/elsewhere.mjs"}, PASS), REPORTER, returncode=0,
                   timed_out=False, direct=True)
    assert judged.problem == NOT_LOADED and judged.passed == 0


def _run(judged):
    from agentbench.models import CommandResult
    from agentbench.toolchains.node.testrun import ReportedRun

    return ReportedRun(result=CommandResult(command="node --test", returncode=0, timed_out=False,
                                            duration_s=0.1, log="logs/test-1.log"), tally=judged)


def test_the_channel_s_descriptor_and_secret_are_not_in_proc_environ(own_tests):
    """Test files (children of the runner) read their own and their parent's /proc environ and every
    key descriptor named there: no secret, so nothing to forge events with. (Reads are non-blocking:
    a blocking read of a reused descriptor number hung the test until its timeout under CI load.)"""
    own, _ = own_tests({"test/a.test.ts": """\
        import { test } from "node:test";
        import assert from "node:assert/strict";
        import fs from "node:fs";
        test("no secret", () => {
          const found: string[] = [];
          for (const pid of ["self", String(process.ppid)]) {
            let environ = "";
            try { environ = fs.readFileSync(`/proc/${pid}/environ`, "latin1"); } catch { continue; }
            found.push(...(environ.match(/AGENTBENCH_REPORTER_[A-Z]+/g) ?? []).filter((v) => !v.endsWith("_KEY")));
            for (const m of environ.matchAll(/AGENTBENCH_REPORTER_KEY=(\\d+)/g)) {
              for (const path of [`/proc/self/fd/${m[1]}`, `/proc/${pid}/fd/${m[1]}`]) {
                // never block: the number may name some other process's pipe by now
                try {
                  const fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
                  const buffer = Buffer.alloc(256);
                  try { found.push(buffer.subarray(0, fs.readSync(fd, buffer)).toString()); }
                  finally { fs.closeSync(fd); }
                } catch {}
              }
            }
          }
          assert.deepEqual(found, []);
        });
        """})
    assert (own.tests.passed, own.tests.failed, own.tests.problem) == (1, 0, None)
