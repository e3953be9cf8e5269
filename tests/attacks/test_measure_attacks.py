"""Issue 21, items 4 and 5: coverage the product cannot write, quality that cannot be diluted or
skipped, and a channel secret that /proc does not keep. Each attack end to end through `agentbench run`
on `easy/calc`, in both sandbox modes (one run per mode), against an honest twin: each inflated
component gains at most 0.5 points."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.attacks.agents import CHALLENGES, REF, d
from tests.attacks.conftest import AttackRun, agentbench_run, needs_sandbox
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
    needs_sandbox(request.param)
    folder = shared_folder / f"measure-attacks-{request.param}"
    folder.mkdir()
    return agentbench_run(folder, ["reference", "noop", *AGENTS], "easy/calc", request.param,
                          files=AGENTS)


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
    needs_sandbox(request.param)
    folder = shared_folder / f"measure-attacks-ts-{request.param}"
    folder.mkdir()
    return agentbench_run(folder, ["reference", *TS_AGENTS], "easy/ts-calc", request.param, files=TS_AGENTS)


def test_typescript_coverage_planted_or_compiled_from_other_text_earns_nothing(ts_run):
    honest = ts_run.trial("ts-honest").measurements.coverage
    assert 0 < honest.covered_lines < honest.total_lines  # there was something to forge
    reference = ts_run.trial("reference").measurements.coverage
    assert reference.covered_lines == reference.total_lines  # the second collector confirms honest lines
    for attack, twin in (("ts-plant", "ts-honest"), ("ts-vm", "ts-vm-honest")):
        for rubric in ("seed", "verified"):
            assert gain(ts_run, attack, twin, "coverage", rubric) <= 0.5, attack
