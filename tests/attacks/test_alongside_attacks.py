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
from tests.conftest import drop_box

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
