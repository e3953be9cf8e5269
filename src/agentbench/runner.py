"""Running a run: many trials (see `trial`) on an executor, then the per-agent results files.

The runner never prints: it reports to a `Progress` observer. Trials run on an executor (see
`agentbench.executors`: a thread pool, or Dask workers), each in its own temporary folders; finished trials are written as soon as they
end, so an interrupted run loses nothing and `resume` runs only what is missing. On Ctrl-C every
process the run started is killed and unfinished trials are left unrecorded; a watchdog
(`process.RunGuard`) does the same if the harness itself is killed.
"""

from __future__ import annotations

import contextlib
import tempfile
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from agentbench import __version__, process, users
from agentbench.adapters.cli_base import CommandAdapter
from agentbench.adapters.instructions import instruction_files_above
from agentbench.adapters.registry import get_adapter
from agentbench.errors import AgentBenchError, RunError, UsageError
from agentbench.executors.base import (
    Executor,
    RunContext,
    agent_version,
    hidden_catalogs,
    make_executor,
    prepare_shared,
    run_secrets,
)
from agentbench.models import RunRecord, TrialRecord
from agentbench.plan import RunConfig, TrialSpec, new_run_id, now_iso, plan_trials, trial_keys
from agentbench.redaction import Secret, url_secrets
from agentbench.sandbox import TrialUser
from agentbench.store import RunPlan, write_results
from agentbench.store.exports import ExportChange
from agentbench.store.index import ResultsIndex, RunInfo
from agentbench.toolchains.python.interpreter import base_python
from agentbench.trial import Cancelled, regrade_trial, scrub
from agentbench.workspace import cache_dir, home_cache

__all__ = ["Cancelled", "NullProgress", "Progress", "RunConfig", "RunOutcome", "TrialSpec",
           "agent_version", "execute", "hidden_catalogs", "new_run_id", "plan_trials",
           "prepare_shared", "regrade"]


class Progress(Protocol):
    """Observer of a run (the CLI shows it; the default does nothing)."""

    def run_started(self, total: int, skipped: int) -> None:
        """`total` trials planned, `skipped` of them already finished."""

    def note(self, message: str) -> None:
        """Something worth saying about the run (e.g. a one-off build of a scoring environment)."""

    def trial_started(self, spec: TrialSpec) -> None:
        """A trial began."""

    def trial_finished(self, record: TrialRecord) -> None:
        """A trial ended and its record was written."""


class NullProgress:
    """A Progress that ignores everything."""

    def run_started(self, total: int, skipped: int) -> None:
        """Ignore."""

    def note(self, message: str) -> None:
        """Ignore."""

    def trial_started(self, spec: TrialSpec) -> None:
        """Ignore."""

    def trial_finished(self, record: TrialRecord) -> None:
        """Ignore."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunOutcome:
    """What a run produced."""

    run_dir: Path
    records: dict[str, RunRecord]
    results_files: dict[str, Path] = field(default_factory=dict)
    """Each agent's results file of this run (`<run-id>/<agent>.json`)."""
    exports: dict[str, ExportChange] = field(default_factory=dict)
    """Each agent's latest export (`<results>/<agent>.json`) and what it replaced."""
    database: str = ""
    """The results database the run was indexed in (printable)."""


def save_plan(config: RunConfig) -> RunPlan:
    """Write the run plan so the run can be resumed."""
    configs = dict(config.agent_configs)
    chosen = {a: config.model or (configs[a].model if a in configs else None) for a in config.agents}
    plan = RunPlan(
        agent_models=tuple((a, m) for a, m in chosen.items() if m),
        run_id=config.run_id, agents=config.agents,
        challenge_ids=tuple(c.id for c in config.challenges),
        challenge_dirs=config.challenge_dirs, trials=config.trials, rubric=config.rubric,
        model=config.model, agents_config=config.agents_config, sandbox=config.sandbox.name,
        agent_timeout_s=config.agent_timeout_s, created_at=now_iso(), attempts=config.attempts,
        meter=config.meter,
    )
    config.run_dir.make()
    config.run_dir.write_plan(plan)
    return plan


def execute(config: RunConfig, progress: Progress | None = None,
            results_paths: dict[str, Path] | None = None, db: str | None = None) -> RunOutcome:
    """Run every unfinished trial of the plan, then write the per-agent results files.

    `db`: the results database (default: `$AGENTBENCH_DB`, else `<results>/agentbench.db`); it is
    opened before any trial, and each trial is indexed right after its record is written.
    """
    progress = progress or NullProgress()
    versions = agent_versions(config)  # fails fast on an unknown agent or a missing CLI
    check_instruction_files(config)
    config = check_isolation(config, progress)
    isolation = users.isolation(config.sandbox, config.limits,
                                without_users=config.trial_users_off).label
    for agent in config.agents:
        config.run_dir.results_file(agent)  # refuses a name that would overwrite the plan
    index = open_index(config.results_dir, db)
    try:
        info = _run_info(save_plan(config), config, versions, isolation)
        done = config.run_dir.finished(trial_keys(config))
        index.sync_run(info, [(r, config.run_dir.trial_dir(*k)) for k, r in done.items()])
        todo = [s for s in plan_trials(config) if (s.agent, s.challenge.id, s.trial) not in done]
        progress.run_started(total=len(plan_trials(config)), skipped=len(done))
        marker = uuid.uuid4().hex
        with _ending(index, info), process.guarded(marker):
            context = RunContext(config=config, marker=marker, versions=versions, db=db,
                                 announce=progress.note, started=progress.trial_started)
            secrets = (*run_secrets(config), *url_secrets("database URL", index.connection.location.target))
            _run_trials(make_executor(config.executor, context), todo, config, progress, (index, info),
                        secrets)
            return _write_results(config, results_paths or {}, (index, info))
    finally:
        index.close()


Indexing = tuple[ResultsIndex, RunInfo]
"""The open results database and the run it indexes."""


def open_index(results_dir: Path, db: str | None) -> ResultsIndex:
    """The results database of `results_dir` (or `db`), opened for writing, schema up to date."""
    from agentbench.store.database import DB_NAME, REMEMBERED_NAME, locate, to_remember
    from agentbench.store.folders import write_atomic
    from agentbench.store.opening import connect

    location = locate(db, results_dir)
    index = ResultsIndex(connect(location, create=True))
    remember = to_remember(location)
    if remember != str((results_dir / DB_NAME).absolute()):  # later commands find it without --db
        write_atomic(results_dir / REMEMBERED_NAME, remember + "\n")
    elif (results_dir / REMEMBERED_NAME).exists():
        (results_dir / REMEMBERED_NAME).unlink()
    return index


def _run_info(plan: RunPlan, config: RunConfig, versions: dict[str, str | None],
              isolation: str) -> RunInfo:
    from agentbench.store.rebuild import info_from_plan

    configs = dict(config.agent_configs)
    models = tuple((a, config.model or (configs[a].model if a in configs else None), versions.get(a))
                   for a in config.agents)
    extra = (("jobs", config.jobs), ("retries", config.retries), ("executor", config.executor),
             *((("attempts", config.attempts),) if config.attempts > 1 else ()),
             *((("meter", True),) if config.meter else ()))
    return replace(info_from_plan(plan, config.results_dir, status="running", extra=extra),
                   agent_models=models, isolation=isolation, agentbench_version=__version__)


@contextlib.contextmanager
def _ending(index: ResultsIndex, info: RunInfo) -> Iterator[None]:
    """Record in the database how the run ended: interrupted or failed if it raised."""
    try:
        yield
    except BaseException as exc:
        status = "interrupted" if isinstance(exc, KeyboardInterrupt | Cancelled) else "failed"
        with contextlib.suppress(AgentBenchError):
            index.set_status(info.run_id, status, now_iso())
        raise


def _save_trial(config: RunConfig, record: TrialRecord, indexing: Indexing) -> None:
    """The record first (the trial is then finished), then its row in the database."""
    config.run_dir.write_trial(record)
    index, info = indexing
    index.add_trial(info.run_id, record, config.run_dir.trial_dir(record.agent, record.challenge_id,
                                                                  record.trial),
                    info.model_of(record.agent))


def agent_versions(config: RunConfig) -> dict[str, str | None]:
    """Each agent's version, asked once per run (a missing CLI raises AgentUnavailableError)."""
    return {agent: agent_version(agent, config.agent_configs, config.sandbox) for agent in config.agents}


def check_instruction_files(config: RunConfig) -> None:
    """Refuse to run agents AgentBench cannot configure where instruction files sit above the trials.

    The six built-in CLIs are told to ignore such files; the generic `command` agent and third-party
    adapters cannot be, so a CLAUDE.md or AGENTS.md above the trial folders would reach their prompt.
    """
    unconfigurable = [a for a in config.agents if _reads_ancestors(get_adapter(a, dict(config.agent_configs)))]
    if not unconfigurable:
        return
    found = instruction_files_above(Path(tempfile.gettempdir()) / "agentbench-trial")
    if found:
        raise RunError(
            f"instruction files above the trial folders would reach {', '.join(unconfigurable)}: "
            + ", ".join(map(str, found[:5])),
            "remove them, or point TMPDIR at a folder with none of them (and no .git) above it")


def check_isolation(config: RunConfig, progress: Progress) -> RunConfig:
    """Say what isolation each trial gets; refuse what would let trials reach each other.

    As root, trials run as their own user only if that user can reach everything it must run (the
    Python of the trial environments, the scoring cache, each agent's executable); otherwise they
    run as root, with a warning that names what to fix. `--jobs > 1` is refused where trials would
    then share a user and no sandbox separates them.
    """
    problem = users.trial_users_problem()
    if problem is not None:  # NOTE: recorded, so a trial never falls back to root mid-run (`trial_user`)
        config = replace(config, trial_users_off=problem)
    unreachable = _unreachable(config) if problem is None else None
    if unreachable:
        config = replace(config, trial_users_off=f"the trial user cannot reach {unreachable}")
    isolation = users.isolation(config.sandbox, config.limits, without_users=config.trial_users_off)
    refused = isolation.jobs_problem(config.jobs)
    if refused:  # before anything else is printed
        raise UsageError(refused, isolation.hint or "use --jobs 1")
    if unreachable:
        progress.note(f"warning: trials run as root, not as their own user: {unreachable}; make it "
                      "enterable (e.g. `chmod o+x` on that folder) or install it outside root's home")
    elif problem is None:
        for note in reach_notes():
            progress.note(note)
    progress.note(f"isolation per trial: {isolation.label}: {isolation.summary}")
    for note in isolation.notes:
        progress.note(f"  {note}")
    return config


def _unreachable(config: RunConfig) -> str | None:
    """What a trial user could not reach, in words; None when it can reach everything."""
    probe = TrialUser(users.TRIAL_UID_BASE, users.TRIAL_UID_BASE)
    needed = [(base_python().executable, True), (cache_dir(), False)]
    for agent in config.agents:
        adapter = get_adapter(agent, dict(config.agent_configs))
        if isinstance(adapter, CommandAdapter):
            needed += [(Path(path), run) for path, run in adapter.needed_paths()]
    for path, execute in needed:
        problem = users.reachable(probe, path, execute=execute)
        if problem:
            return f"{path} ({problem})"
    return None


def reach_notes() -> list[str]:
    """What was chosen so the trial users can reach the Python and the cache (nothing when
    AgentBench's own were reachable)."""
    notes = [base_python().note] if base_python().note else []
    if users.trial_users_problem() is None and cache_dir() != home_cache():
        notes.append(f"{home_cache()} is out of the trial users' reach: the shared cache is {cache_dir()}")
    return notes


def _reads_ancestors(adapter: object) -> bool:
    from agentbench.adapters.command import CommandTemplateAdapter

    module = type(adapter).__module__
    return isinstance(adapter, CommandTemplateAdapter) or not module.startswith("agentbench.adapters.")


def _run_trials(executor: Executor, todo: Sequence[TrialSpec], config: RunConfig, progress: Progress,
                indexing: Indexing, secrets: tuple[Secret, ...]) -> None:
    """Each record the executor yields: redacted here too (wherever it ran), written, indexed, shown."""
    records = executor.submit(todo)
    try:
        for record in records:
            clean = scrub(record, config.run_dir.root, secrets)
            _save_trial(config, clean, indexing)
            progress.trial_finished(clean)
    finally:
        records.close()  # NOTE: closing it early cancels what still runs


def _write_results(config: RunConfig, paths: dict[str, Path], indexing: Indexing) -> RunOutcome:
    """Each agent's results file of this run (and `--output`), then its latest export."""
    from agentbench.store.exports import write_latest

    order = {c.id: i for i, c in enumerate(config.challenges)}
    done = config.run_dir.finished(trial_keys(config))
    finished = sorted(done.values(), key=lambda r: (order[r.challenge_id], r.trial))
    index, info = indexing
    status = "finished" if len(done) == len(trial_keys(config)) else "incomplete"
    ended = now_iso()  # NOTE: also each results file's created_at: `db rebuild` reads the end there
    index.sync_run(replace(info, status=status, finished_at=ended),
                   [(r, config.run_dir.trial_dir(*k)) for k, r in done.items()])
    records, files, exports = {}, {}, {}
    for agent in config.agents:
        trials = tuple(r for r in finished if r.agent == agent)
        records[agent] = RunRecord(agent=agent, run_id=config.run_id, rubric=config.rubric,
                                   created_at=ended, agentbench_version=__version__, trials=trials)
        files[agent] = config.run_dir.results_file(agent)
        write_results(files[agent], records[agent])
        if agent in paths:
            write_results(paths[agent], records[agent])
        if trials:
            exports[agent] = write_latest(index.connection, config.results_dir, agent)
    return RunOutcome(run_dir=config.run_dir.root, records=records, results_files=files,
                      exports=exports, database=index.shown)


def regrade(config: RunConfig, progress: Progress | None = None, db: str | None = None) -> RunOutcome:
    """Re-measure and re-score every kept workspace of a run, keeping the agent's transcript and time.

    For a scorer fix or a new rubric: the agents are not run again. Each trial's previous record is
    kept once as `record.orig.json`.
    """
    from agentbench.store.rebuild import folder_run

    progress = progress or NullProgress()
    config = check_isolation(config, progress)  # NOTE: the kept workspaces' code runs again
    by_id = {c.id: c for c in config.challenges}
    finished = [r for r in config.run_dir.finished(trial_keys(config)).values() if r.adapter is not None]
    progress.run_started(total=len(finished), skipped=0)
    shared = prepare_shared(config, by_id.values(), db=db)
    index = open_index(config.results_dir, db)
    try:
        info, on_disk = folder_run(config.results_dir, config.run_id)
        info = replace(info, rubric=config.rubric, agentbench_version=__version__)
        index.sync_run(info, on_disk)
        for record in finished:
            spec = TrialSpec(agent=record.agent, challenge=by_id[record.challenge_id], trial=record.trial)
            progress.trial_started(spec)
            new = scrub(regrade_trial(record, spec, config, shared), config.run_dir.root, shared.secrets)
            _save_trial(config, new, (index, info))
            progress.trial_finished(new)
        return _write_results(config, {}, (index, info))
    finally:
        index.close()
