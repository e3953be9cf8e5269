"""Synthetic runs indexed straight into a results database (no agent runs to make them)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from agentbench.models import TrialRecord
from agentbench.store.database import locate
from agentbench.store.index import ResultsIndex, RunInfo
from agentbench.store.opening import connect
from tests.synthetic import AGENTS, CHALLENGES, example_runs


def info(run_id: str, agents: tuple[str, ...], challenges: tuple[str, ...], *, started: str,
         model: str | None = None, version: str | None = None, rubric: str = "seed",
         trials: int = 3) -> RunInfo:
    return RunInfo(run_id=run_id, results_dir="/nowhere", started_at=started, status="finished",
                   agents=agents, challenges=challenges, trials_per=trials, rubric=rubric,
                   model=model, options=(("sandbox", "none"),), agentbench_version="0.1.0",
                   isolation="process-group",
                   agent_models=tuple((a, model, version) for a in agents))


def synthetic_trials(agent_index: int = 0, challenges: tuple[str, ...] = CHALLENGES,
                     seed: int = 7) -> list[TrialRecord]:
    (run, _model), = example_runs(seed=seed, agents=(AGENTS[agent_index],), challenges=challenges)
    return list(run.trials)


def open_index(url: str) -> ResultsIndex:
    return ResultsIndex(connect(locate(url, Path("unused")), create=True))


def index_run(index: ResultsIndex, run: RunInfo, trials: list[TrialRecord],
              agent: str | None = None) -> list[TrialRecord]:
    """Index `trials` as run `run` (renamed to `agent` when given); the records indexed."""
    records = [replace(t, agent=agent) if agent else t for t in trials]
    index.sync_run(run, [(t, Path("/nowhere") / run.run_id / t.logs_dir) for t in records])
    return records
