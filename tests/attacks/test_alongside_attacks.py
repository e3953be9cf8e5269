"""The hidden tests run beside the own steps when a core is free (`hidden_alongside`, `--jobs 1`
on a machine with more cores): the agent's own tests, running at the same time as the same trial
user, hunt for the hidden run's copy and rewrite its test files so every assertion holds. The copy
has a random name in a harness folder the trial user cannot list, so the hunt finds nothing; and
what a concurrent process could do to the hidden run, product code inside it can do already (a
rewrite that passes the real tests passes their canary twins too). The forgery gains nothing."""

from __future__ import annotations

import pytest

from agentbench.trial import usable_cores
from tests.attacks.agents import GREEN_TESTS, REF, WRONG_OPS
from tests.attacks.conftest import agentbench_run, needs_sandbox
from tests.attacks.test_measure_attacks import TS_HONEST_TEST, TS_REF
from tests.conftest import drop_box
from tests.requirements import require

pytestmark = pytest.mark.attacks

REWRITER = GREEN_TESTS + '''

import os, pathlib, re, time


def test_rewrite_the_hidden_copy():
    """For 20 s, makes every assertion hold in the test files of any `hidden*` folder found next to
    its folder's ancestors (where the harness keeps the hidden run's copy)."""
    ancestors = list(pathlib.Path.cwd().parents)[:6]
    seen, rewritten = set(), set()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for top in ancestors:
            for hidden in [*top.glob("hidden*"), *top.glob("*/hidden*")]:
                for path in hidden.rglob("test_*.py"):
                    seen.add(str(path))
                    if path in rewritten:
                        continue
                    try:
                        path.write_text(re.sub(r"\\bassert\\b", "assert True or", path.read_text()))
                        rewritten.add(path)
                    except OSError:
                        pass
        time.sleep(0.05)
    report = [os.getcwd(), *sorted(seen), "--", *sorted(map(str, rewritten))]
    try:  # under bwrap the drop box is not bound: nothing to tell
        pathlib.Path(DROP, "rewriter.txt").write_text("\\n".join(report))
    except OSError:
        pass
'''


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_own_tests_rewriting_the_concurrent_hidden_run_gain_nothing(tmp_path, mode):
    needs_sandbox(mode)
    if usable_cores() < 2:
        pytest.skip("one usable core: the hidden tests never run beside the own steps here")
    box = drop_box(tmp_path)
    rewriter = REWRITER.replace("DROP", repr(str(box)))
    agents = {"rewriter": {**REF, "src/calc/ops.py": WRONG_OPS, "tests/test_ops.py": rewriter},
              "honest": {**REF, "src/calc/ops.py": WRONG_OPS, "tests/test_ops.py": GREEN_TESTS}}
    run = agentbench_run(tmp_path, ["rewriter", "honest"], "easy/calc", mode, "--jobs", "1",
                         files=agents)
    honest, forger = run.trial("honest"), run.trial("rewriter")
    assert run.hidden("honest")[0] < run.hidden("honest")[1]  # the wrong product fails some
    assert run.hidden("rewriter")[0] <= run.hidden("honest")[0]
    assert forger.verified_score.total <= honest.verified_score.total + 0.5
    if mode == "bwrap":
        return  # no harness folder is bound in the sandbox; the drop box is not either
    report = (box / "rewriter.txt").read_text().split("\n")
    assert report[report.index("--") + 1:] == [], report  # nothing of the hidden copy was rewritten


LINES_HUNTER = TS_HONEST_TEST + '''
import fs from "node:fs";

// on load, before any test: the harness starts lines.mjs as the own tests start
const report = [];
const deadline = Date.now() + 4000;
while (Date.now() < deadline) {
  for (const pid of fs.readdirSync("/proc").filter((name) => /^\\d+$/.test(name))) {
    let cmdline = "";
    try { cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8"); } catch { continue; }
    if (!cmdline.includes("lines.mjs") || cmdline.includes("supervise")) continue;
    report.push(`found ${pid}`);
    for (const what of ["environ", "mem", "fd/1"]) {
      try { fs.readFileSync(`/proc/${pid}/${what}`); report.push(`read ${what}`); } catch { /* undumpable */ }
    }
    try { process.kill(Number(pid), "SIGKILL"); report.push("killed"); } catch { /* not ours */ }
  }
}
try { fs.appendFileSync(DROP + "/hunter.txt", report.join("\\n") + "\\n"); } catch { /* bwrap: not bound */ }
'''


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_own_tests_reaching_the_concurrent_lines_step_gain_nothing(tmp_path, mode):
    """TypeScript's countable lines are worked out beside the own tests (`node._beside`), as the same
    trial user: tests that find that process can neither read it (undumpable) nor, by killing it,
    earn coverage (a killed step counts no line as covered)."""
    needs_sandbox(mode)
    require("node22")
    if usable_cores() < 2:
        pytest.skip("one usable core: the lines are never worked out beside the own tests here")
    box = drop_box(tmp_path)
    big = {"src/table.ts": "".join(f"export const v{i} = {i} + 1;\n" for i in range(40000))}  # lines.mjs: ~1 s
    agents = {"ts-hunter": {**TS_REF, **big, "test/calc.test.ts": LINES_HUNTER.replace("DROP", repr(str(box)))},
              "ts-honest": {**TS_REF, **big, "test/calc.test.ts": TS_HONEST_TEST}}
    run = agentbench_run(tmp_path, ["ts-hunter", "ts-honest"], "easy/ts-calc", mode, "--jobs", "1",
                         files=agents)
    honest, hunter = run.trial("ts-honest"), run.trial("ts-hunter")
    assert honest.measurements.coverage.covered_lines > 0
    assert hunter.measurements.coverage.covered_lines <= honest.measurements.coverage.covered_lines
    assert hunter.seed_score.total <= honest.seed_score.total + 0.5
    if mode == "none":  # it found the step, could not read it, and killed it
        report = (box / "hunter.txt").read_text().split("\n")
        assert "killed" in report and not [line for line in report if line.startswith("read")], report
