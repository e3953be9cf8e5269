"""The TypeScript hidden tests with the verdict in the parent `node --test` and each test file in its
own child process, run for real as a trial user (an undumpable tree): the reference counts in full
with every canary failing, a file that cannot load counts its tests as failed, and a file that hangs
is killed at the time limit with nothing of the trial user left running."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import textwrap
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from agentbench import users
from agentbench.models import AcceptanceSpec
from agentbench.toolchains import MeasureContext
from agentbench.toolchains.node import TypeScriptToolchain
from agentbench.workspace import make_trial_dirs

pytestmark = pytest.mark.needs("trial_users")

CALC = ("export function add(a: number, b: number): number { return a + b; }\n"
        "export function sub(a: number, b: number): number { return a - b; }\n")
HIDDEN = {
    "a.test.ts": """\
        import { test } from "node:test";
        import assert from "node:assert/strict";
        import { add } from "../src/calc.ts";
        test("adds", () => assert.equal(add(2, 3), 5));
        test("adds more", () => assert.equal(add(20, 22), 42));
        """,
    "b.test.ts": """\
        import { test } from "node:test";
        import assert from "node:assert/strict";
        import { sub } from "../src/calc.ts";
        test("subtracts", () => assert.equal(sub(50, 8), 42));
        """,
}


def _write(folder: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text), encoding="utf-8")
    return folder


@pytest.fixture
def hidden_run(tmp_path: Path, assets: Path) -> Iterator:
    """`hidden_run(calc, time_limit)` -> (HiddenRun, ctx) of a product whose src/calc.ts is `calc`,
    judged with the catalog of a reference run, as a trial user."""
    spec_dir = _write(tmp_path / "acceptance", HIDDEN)
    with users.trial_user() as user:
        assert user is not None
        base = Path(tempfile.mkdtemp(prefix="agentbench-trial-"))
        base.chmod(0o755)  # the trials' folders below it are handed over
        try:
            def run(calc: str, time_limit: int = 120):
                toolchain = TypeScriptToolchain()
                spec = AcceptanceSpec(files_dir=spec_dir, time_limit_seconds=time_limit)
                ctx = MeasureContext(dirs=make_trial_dirs(base / "ref", user), trial_dir=base / "ref-trial",
                                     assets=assets)
                reference = _write(ctx.dirs.workspace, {"package.json": '{"type": "module"}\n',
                                                        "src/calc.ts": CALC})
                catalog = toolchain.survey_hidden(spec, reference, ctx)
                assert catalog is not None
                ctx = MeasureContext(dirs=make_trial_dirs(base / "t", user), trial_dir=base / "trial",
                                     assets=assets, hidden_catalog=catalog)
                product = _write(ctx.dirs.workspace, {"package.json": '{"type": "module"}\n',
                                                      "src/calc.ts": calc})
                return toolchain.run_hidden(spec, ctx, product), ctx, user
            yield run
        finally:
            shutil.rmtree(base, ignore_errors=True)


def _canaries(ctx: MeasureContext) -> list[str]:
    log = json.loads((ctx.logs() / "hidden-canaries.json").read_text())
    return [c["outcome"] for c in log["canaries"]]


def test_the_reference_counts_in_full_and_every_canary_fails(hidden_run):
    run, ctx, _ = hidden_run(CALC)
    tests = run.measurement.tests
    assert (tests.passed, tests.failed, tests.problem, run.measurement.tampering) == (3, 0, None, ())
    assert _canaries(ctx) and set(_canaries(ctx)) == {"failed"}


def test_a_file_that_fails_to_load_counts_its_tests_as_failed(hidden_run):
    run, _, _ = hidden_run(CALC.split("\n")[0] + "\n")  # no `sub`: b.test.ts cannot import it
    tests = run.measurement.tests
    assert (tests.passed, tests.failed, run.measurement.tampering) == (2, 1, ())


def test_a_hanging_file_is_killed_at_the_time_limit_and_nothing_is_left(hidden_run):
    spin = CALC.replace("return a + b;", "if (a === 20) { for (;;) {} }\n  return a + b;")
    run, _, user = hidden_run(spin, time_limit=15)
    tests = run.measurement.tests
    assert tests.commands[0].timed_out
    assert tests.passed <= 2 and tests.failed >= 1
    left = subprocess.run(["ps", "-o", "pid,stat,etimes,args", "-u", str(user.uid), "--no-headers"], capture_output=True, text=True).stdout
    running = [line for line in left.splitlines() if line.split()[1] != "Z"]  # killed, awaiting reaping
    assert running == [], left
