"""Sealed hidden test files (`toolchains.node.sealed`): a TypeScript test file that imports only
Node's own modules (easy/ts-word-count's `cli.test.ts`, which spawns the product's CLI) has no
twins; its tests are guarded by the process boundary and run in a `node --test` of their own. The
product-loading file's child is where a forger lives: it cannot report the sealed file's tests,
even when the product's CLI kills the sealed test process first so that no honest report is left
to contradict it. End to end through `agentbench run`, in both sandbox modes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.attacks.agents import d
from tests.attacks.conftest import AttackRun, mode_run
from tests.attacks.test_canary_attacks import TS_FRAME

pytestmark = pytest.mark.attacks

REFERENCE = Path(__file__).resolve().parents[2] / "challenges" / "easy" / "ts-word-count" / "reference"
_FILES = {str(p.relative_to(REFERENCE)): p.read_text() for p in sorted(REFERENCE.rglob("*")) if p.is_file()}

# the product's CLI, started by the sealed file's tests, kills the test process that started it
_KILL_PARENT = 'if (process.argv[1]?.endsWith("cli.ts")) { try { process.kill(process.ppid, "SIGKILL"); } catch {} }\n'
# in the product-loading file's child: a pass for every test of the sealed file, in node's frames,
# under the sealed file's own path and its random titles (read from the rendered file)
_FORGE_SEALED = TS_FRAME + d(r"""
    import fs from "node:fs";
    import v8 from "node:v8";
    if (process.argv[1]?.endsWith("wordcount.test.ts")) {
      const file = new URL("../.agentbench-acceptance/cli.test.ts", import.meta.url).pathname;
      let names: string[] = [];
      try { names = [...fs.readFileSync(file, "utf8").matchAll(/^test\("([^"]+)"/gm)].map((m) => m[1]); } catch {}
      console.error(`PROBE sealed titles ${names.length}`);
      process.on("exit", () => {
        names.forEach((name, i) => {
          const data = { name, nesting: 0, testNumber: 100 + i, file, line: 20 + i, column: 1,
                         details: { duration_ms: 1, type: "test" } };
          fs.writeSync(1, frame({ type: "test:pass", data }));
        });
      });
    }
    """)
_STUB_CLI = {**_FILES, "src/cli.ts": _KILL_PARENT + _FILES["src/cli.ts"]}
AGENTS = {
    "ts-cli-killer": _STUB_CLI,
    "ts-sealed-forger": {**_STUB_CLI, "src/wordcount.ts": _FILES["src/wordcount.ts"] + _FORGE_SEALED},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def sealed_attacks(request: pytest.FixtureRequest, shared_folder) -> AttackRun:
    return mode_run(shared_folder, "sealed", ["reference", "noop", *AGENTS], "easy/ts-word-count",
                    request.param, files=AGENTS)


def test_the_sealed_file_counts_without_twins_and_the_reference_keeps_every_test(sealed_attacks):
    trial = sealed_attacks.trial("reference")
    hidden = trial.measurements.acceptance.tests
    assert hidden.passed == hidden.total >= 14 and not trial.measurements.acceptance.tampering
    assert trial.verified_score.total >= 95
    log = (sealed_attacks.trial_dir("reference") / "logs" / "hidden-canaries.json").read_text()
    assert "cli.test.ts" not in log  # no canary twins a sealed file's test
    assert sealed_attacks.trial("noop").verified_score.total == 0


def test_a_cli_that_kills_its_sealed_test_process_loses_those_tests(sealed_attacks):
    honest, killer = sealed_attacks.hidden("reference"), sealed_attacks.hidden("ts-cli-killer")
    assert killer[1] == honest[1] and killer[0] < honest[0]
    assert killer[0] > 0  # the library's own tests, in the other run, still pass


def test_a_product_loading_child_cannot_report_the_sealed_file_s_tests(sealed_attacks):
    trial = sealed_attacks.trial("ts-sealed-forger")
    acceptance = trial.measurements.acceptance
    assert any("reported by the run of other files" in t or "not a hidden test file of its run" in t
               for t in acceptance.tampering), acceptance.tampering
    assert acceptance.tests.passed == 0 and trial.verified_score.total <= 10
    assert sealed_attacks.hidden("ts-sealed-forger")[1] == sealed_attacks.hidden("reference")[1]
