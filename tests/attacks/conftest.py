"""Attack runs: every attack agent through `agentbench run` (a real subprocess), once per sandbox mode.

One run per mode holds every agent, so the suite costs one harness start-up per mode. bubblewrap is
installed by `.ci/run`; without it (and outside CI) the bwrap mode is skipped.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from agentbench import users
from agentbench.models import TrialRecord
from agentbench.records import loads_run
from tests.attacks.agents import AGENTS, CHALLENGES, agent_config, defined
from tests.requirements import require

collect_ignore_glob = ["challenges/*"]

ROOT = Path(__file__).resolve().parents[2]
MODES = ("none", "bwrap")


@dataclass(frozen=True)
class AttackRun:
    results: Path
    records: dict[str, TrialRecord]

    def trial(self, agent: str) -> TrialRecord:
        return self.records[agent]

    def hidden(self, agent: str) -> tuple[int, int]:
        """(passed, total) of the agent's hidden tests."""
        tests = self.records[agent].measurements.acceptance.tests
        return tests.passed, tests.total

    def trial_dir(self, agent: str) -> Path:
        record = self.records[agent]
        return self.results / self.run_id / record.logs_dir

    @property
    def run_id(self) -> str:
        return next(iter(self.runs))

    @property
    def runs(self) -> set[str]:
        return {p.parent.name for p in self.results.glob("*/run.json")}


def needs_sandbox(mode: str) -> None:
    """The bwrap mode needs bubblewrap; the none mode relies on per-trial users (root) to keep the
    attack agents of one run apart. Missing: skipped with the fix, failed under CI."""
    require("bwrap" if mode == "bwrap" else "trial_users")


def agentbench_run(folder: Path, agents: list[str], challenge: str, mode: str, *extra: str,
                   files: Mapping[str, dict[str, str]] | None = None,
                   challenges: Path = CHALLENGES) -> AttackRun:
    """One `agentbench run` of `agents` (attack agents from AGENTS, plus `files`: more of them, name
    -> files, known for this run only; built-in agents by name) on `challenges`."""
    with defined(files or {}):
        config = agent_config(folder, [a for a in agents if a in AGENTS])
    results = folder / "results"
    args = [sys.executable, "-m", "agentbench", "run", "--challenge", challenge,
            "--challenges", str(challenges), "--results", str(results), "--agents-config", str(config),
            "--sandbox", mode, "--jobs", "2" if users.isolation(mode).separated else "1", *extra]
    for agent in agents:
        args += ["--agent", agent]
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    records = {}
    for agent in agents:
        (trial,) = loads_run((results / f"{agent}.json").read_text()).trials
        records[agent] = trial
    return AttackRun(results=results, records=records)


def mode_run(shared_folder: Path, name: str, agents: list[str], challenge: str, mode: str,
             *extra: str, files: Mapping[str, dict[str, str]] | None = None) -> AttackRun:
    """`agentbench_run` in a fresh folder `<name>-<mode>` of the session's shared folder, once the
    mode's needs are met (`needs_sandbox`)."""
    needs_sandbox(mode)
    folder = shared_folder / f"{name}-{mode}"
    folder.mkdir()
    return agentbench_run(folder, agents, challenge, mode, *extra, files=files)


@pytest.fixture(scope="module", params=MODES)
def scoring_attacks(request: pytest.FixtureRequest, shared_folder: Path) -> AttackRun:
    """Every scoring attack, the reference, noop and the liar on easy/calc, in one run."""
    return mode_run(shared_folder, "attacks", ["reference", "noop", "liar", *AGENTS], "easy/calc",
                    request.param)


def outcomes(run: AttackRun, agent: str, name: str) -> dict:
    return json.loads((run.trial_dir(agent) / "logs" / name).read_text())
