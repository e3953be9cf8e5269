"""Running trials: one trial = workspace -> adapter -> measure -> score -> record; a run = many trials.

The runner composes the layers below it and never prints: it reports to a `Progress` observer. Trials
run on a thread pool (`jobs`), each in its own temporary folders; finished trials are written as soon
as they end, so an interrupted run loses nothing and `resume` runs only what is missing. On Ctrl-C
every process the run started is killed and unfinished trials are left unrecorded.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
import traceback
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from agentbench import __version__, process
from agentbench.adapters.base import AdapterContext, AgentAdapter, accepts_context
from agentbench.adapters.cli_base import CommandAdapter
from agentbench.adapters.registry import get_adapter
from agentbench.errors import AgentBenchError
from agentbench.executors import EXECUTORS
from agentbench.executors.local import run_local
from agentbench.metrics import MeasureContext, measure
from agentbench.metrics.acceptance import count_hidden_tests
from agentbench.models import (
    AdapterResult,
    AgentConfig,
    Challenge,
    Measurements,
    RunRecord,
    TrialRecord,
    TrialStatus,
)
from agentbench.process import cgroups_available
from agentbench.records import dumps_trial, loads_trial
from agentbench.redaction import Secret, environment_secrets, redact_text, redact_tree
from agentbench.sandbox import SANDBOXES, Confinement, Limits, bwrap_path, describe
from agentbench.scoring import RUBRICS, score_trial
from agentbench.store import RunDir, RunPlan, write_atomic, write_results
from agentbench.workspace import (
    TrialDirs,
    archive_workspace,
    cache_dir,
    copy_tree,
    make_trial_dirs,
    pack_tree,
    template_site_packages,
    tree_digest,
    unpack_tree,
)


class Cancelled(Exception):
    """The run was interrupted; the current trial is abandoned, not recorded."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TrialSpec:
    """One trial to run."""

    agent: str
    challenge: Challenge
    trial: int


class Progress(Protocol):
    """Observer of a run (the CLI shows it; the default does nothing)."""

    def run_started(self, total: int, skipped: int) -> None:
        """`total` trials planned, `skipped` of them already finished."""

    def trial_started(self, spec: TrialSpec) -> None:
        """A trial began."""

    def trial_finished(self, record: TrialRecord) -> None:
        """A trial ended and its record was written."""


class NullProgress:
    """A Progress that ignores everything."""

    def run_started(self, total: int, skipped: int) -> None:
        """Ignore."""

    def trial_started(self, spec: TrialSpec) -> None:
        """Ignore."""

    def trial_finished(self, record: TrialRecord) -> None:
        """Ignore."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunConfig:
    """Everything a run needs; built and validated from CLI options or by Python callers."""

    agents: tuple[str, ...]
    challenges: tuple[Challenge, ...]
    results_dir: Path
    run_id: str
    trials: int = 1
    jobs: int = 1
    retries: int = 0
    rubric: str = "seed"
    model: str | None = None
    challenge_dirs: tuple[str, ...] = ()
    agents_config: str | None = None
    agent_configs: tuple[tuple[str, AgentConfig], ...] = ()
    command_timeout_s: float = 600.0
    sandbox: str = "none"
    limits: Limits = field(default_factory=Limits)
    agent_timeout_s: float | None = None
    executor: str = "local"
    executor_address: str | None = None

    def __post_init__(self) -> None:
        if not self.agents:
            raise AgentBenchError("no agent given", "pass --agent NAME")
        if not self.challenges:
            raise AgentBenchError("no challenge selected", "pass --challenge ID, --tier T or --all")
        for name, value in (("trials", self.trials), ("jobs", self.jobs)):
            if value < 1:
                raise AgentBenchError(f"--{name} must be at least 1, got {value}")
        if self.sandbox not in SANDBOXES:
            raise AgentBenchError(f"unknown sandbox '{self.sandbox}'", f"use one of: {', '.join(SANDBOXES)}")
        if self.sandbox == "bwrap" and bwrap_path() is None:
            raise AgentBenchError("--sandbox bwrap: bubblewrap is not installed",
                                  "install it (Debian/Ubuntu: apt-get install bubblewrap) or use --sandbox none")
        if self.executor not in EXECUTORS:
            raise AgentBenchError(f"unknown executor '{self.executor}'", f"use one of: {', '.join(EXECUTORS)}")
        if self.rubric not in RUBRICS:
            raise AgentBenchError(f"unknown rubric '{self.rubric}'", f"use one of: {', '.join(RUBRICS)}")

    @property
    def run_dir(self) -> RunDir:
        """This run's folder."""
        return RunDir(self.results_dir / self.run_id)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunOutcome:
    """What a run produced."""

    run_dir: Path
    records: dict[str, RunRecord]
    results_files: dict[str, Path] = field(default_factory=dict)


def new_run_id(agents: Sequence[str]) -> str:
    """A readable, unique run ID: UTC time plus the agents."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{'-'.join(agents)[:40]}-{uuid.uuid4().hex[:4]}"


def plan_trials(config: RunConfig) -> tuple[TrialSpec, ...]:
    """Every (agent, challenge, trial) of the run, challenge-major so agents interleave."""
    return tuple(
        TrialSpec(agent=agent, challenge=challenge, trial=n)
        for challenge in config.challenges
        for n in range(1, config.trials + 1)
        for agent in config.agents
    )


def save_plan(config: RunConfig) -> None:
    """Write the run plan so the run can be resumed."""
    config.run_dir.write_plan(RunPlan(
        run_id=config.run_id, agents=config.agents,
        challenge_ids=tuple(c.id for c in config.challenges),
        challenge_dirs=config.challenge_dirs, trials=config.trials, rubric=config.rubric,
        model=config.model, agents_config=config.agents_config, sandbox=config.sandbox,
        agent_timeout_s=config.agent_timeout_s, created_at=_now(),
    ))


def execute(config: RunConfig, progress: Progress | None = None,
            results_paths: dict[str, Path] | None = None) -> RunOutcome:
    """Run every unfinished trial of the plan, then write the per-agent results files."""
    progress = progress or NullProgress()
    versions = agent_versions(config)  # fails fast on an unknown agent or a missing CLI
    save_plan(config)
    done = config.run_dir.finished()
    todo = [s for s in plan_trials(config) if (s.agent, s.challenge.id, s.trial) not in done]
    progress.run_started(total=len(plan_trials(config)), skipped=len(done))
    if todo:
        template = template_site_packages(cache_dir(), config.run_dir.root / "logs")
        counts = hidden_test_counts({s.challenge for s in todo}, template, config.run_dir.root / "logs")
        isolation = describe(Confinement(sandbox=config.sandbox), cgroups_available())
        if config.executor == "dask":
            _run_dask(todo, config, progress)
        else:
            shared = _Shared(template, counts, isolation, _run_secrets(config), versions)
            _run_pool(todo, config, shared, progress)
    return _write_results(config, results_paths or {})


@dataclass(frozen=True, slots=True)
class _Shared:
    """What every trial of a run shares: the template environment and the hidden-test counts."""

    template: Path
    hidden_counts: dict[str, int | None]
    isolation: str
    secrets: tuple[Secret, ...] = ()
    versions: dict[str, str | None] = field(default_factory=dict)


def hidden_test_counts(challenges: Iterable[Challenge], template: Path, log_dir: Path) -> dict[str, int | None]:
    """Hidden tests per challenge, collected once on its reference solution (cached by content)."""
    counts: dict[str, int | None] = {}
    for challenge in challenges:
        if challenge.acceptance is None or challenge.reference_dir is None:
            counts[challenge.id] = None
            continue
        key = tree_digest(challenge.acceptance.files_dir, challenge.reference_dir)
        cached = cache_dir() / "hidden-test-counts" / f"{key}.txt"
        if not cached.is_file():
            value = _collect_count(challenge, template, log_dir)
            if value is None:
                counts[challenge.id] = None
                continue
            write_atomic(cached, f"{value}\n")
        counts[challenge.id] = int(cached.read_text())
    return counts


def _collect_count(challenge: Challenge, template: Path, log_dir: Path) -> int | None:
    assert challenge.acceptance is not None and challenge.reference_dir is not None
    with tempfile.TemporaryDirectory(prefix="agentbench-collect-") as tmp:
        ctx = MeasureContext(dirs=make_trial_dirs(Path(tmp)), template_site=template,
                             trial_dir=log_dir / "collect" / challenge.id)
        return count_hidden_tests(challenge.acceptance, challenge.reference_dir, ctx)


def agent_versions(config: RunConfig) -> dict[str, str | None]:
    """Each agent's version, asked once per run (a missing CLI raises AgentUnavailableError)."""
    versions = {}
    for agent in config.agents:
        adapter = get_adapter(agent, dict(config.agent_configs))
        if isinstance(adapter, CommandAdapter):
            adapter.preflight()
        versions[agent] = adapter.version()
    return versions


def _run_secrets(config: RunConfig) -> tuple[Secret, ...]:
    return environment_secrets(pair for _, agent in config.agent_configs for pair in agent.env)


def _run_pool(todo: Sequence[TrialSpec], config: RunConfig, shared: _Shared, progress: Progress) -> None:
    cancel = threading.Event()
    marker = uuid.uuid4().hex

    def interrupt() -> None:
        cancel.set()
        process.kill_marked(process.RUN_MARKER_VARIABLE, marker)

    run_local(todo, lambda spec: _trial_job(spec, config, shared, progress, _Cancel(cancel, marker)),
              jobs=config.jobs, on_interrupt=interrupt)


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoteTask:
    """One trial shipped to a worker: its spec, the run's config and the challenge's files."""

    spec: TrialSpec
    config: RunConfig
    bundle: bytes


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoteResult:
    """A trial's record and its trial folder (an archive) coming back from a worker."""

    record: TrialRecord
    archive: bytes


def _run_dask(todo: Sequence[TrialSpec], config: RunConfig, progress: Progress) -> None:
    from agentbench.executors.dask import run_dask

    bundles = {c.id: pack_tree(c.source_path.parent / c.source_path.stem, extra=(c.source_path,))
               for c in {s.challenge for s in todo}}
    tasks = [RemoteTask(spec=s, config=config, bundle=bundles[s.challenge.id]) for s in todo]
    for spec in todo:
        progress.trial_started(spec)

    def collect(result: RemoteResult) -> None:
        record = result.record
        unpack_tree(result.archive, config.run_dir.trial_dir(record.agent, record.challenge_id, record.trial))
        config.run_dir.write_trial(record)
        progress.trial_finished(record)

    run_dask(tasks, remote_trial, collect, config.executor_address)


def remote_trial(task: RemoteTask) -> RemoteResult:
    """Run one trial on a (possibly remote) worker, in a private folder; return record and folder."""
    from agentbench.loader import load_challenge

    spec = task.spec
    with tempfile.TemporaryDirectory(prefix="agentbench-remote-") as tmp:
        root = Path(tmp)
        tier_dir = root / "challenges" / spec.challenge.tier
        name = spec.challenge.source_path.stem
        unpack_tree(task.bundle, tier_dir / name)
        (tier_dir / name / spec.challenge.source_path.name).rename(tier_dir / spec.challenge.source_path.name)
        challenge = load_challenge(tier_dir / spec.challenge.source_path.name)
        config = replace(task.config, results_dir=root / "results", challenges=(challenge,))
        spec = replace(spec, challenge=challenge)
        template = template_site_packages(cache_dir(), root / "logs")
        shared = _Shared(template, hidden_test_counts([challenge], template, root / "logs"),
                         describe(Confinement(sandbox=config.sandbox), cgroups_available()),
                         versions=agent_versions(replace(config, agents=(spec.agent,))))
        record = _attempts(spec, config, shared, _Cancel(threading.Event(), uuid.uuid4().hex))
        record = scrub(record, config, _run_secrets(config))
        trial_dir = config.run_dir.trial_dir(spec.agent, challenge.id, spec.trial)
        return RemoteResult(record=record, archive=pack_tree(trial_dir))


@dataclass(frozen=True, slots=True)
class _Cancel:
    event: threading.Event
    marker: str

    def check(self) -> None:
        if self.event.is_set():
            raise Cancelled


def _trial_job(spec: TrialSpec, config: RunConfig, shared: _Shared, progress: Progress,
               cancel: _Cancel) -> None:
    progress.trial_started(spec)
    try:
        record = _attempts(spec, config, shared, cancel)
    except Cancelled:
        return
    record = scrub(record, config, shared.secrets)
    config.run_dir.write_trial(record)
    progress.trial_finished(record)


def scrub(record: TrialRecord, config: RunConfig, secrets: tuple[Secret, ...]) -> TrialRecord:
    """Redact secrets from a finished trial's folder and record (see `agentbench.redaction`)."""
    if not secrets:
        return record
    redact_tree(config.run_dir.root / record.logs_dir, secrets)
    return loads_trial(redact_text(dumps_trial(record), secrets))


def _attempts(spec: TrialSpec, config: RunConfig, shared: _Shared, cancel: _Cancel) -> TrialRecord:
    """Run a trial, again up to `retries` times while it ends in an infrastructure error."""
    for _ in range(config.retries):
        record = run_trial(spec, config, shared, cancel)
        if record.status != TrialStatus.INFRA_ERROR:
            return record
    return run_trial(spec, config, shared, cancel)


def run_trial(spec: TrialSpec, config: RunConfig, shared: _Shared, cancel: _Cancel) -> TrialRecord:
    """Run one trial in fresh temporary folders and build its record (not yet written)."""
    run_dir = config.run_dir
    trial_dir = run_dir.trial_dir(spec.agent, spec.challenge.id, spec.trial)
    started, clock = _now(), time.monotonic()
    adapter = get_adapter(spec.agent, dict(config.agent_configs))
    base = _Record(spec=spec, started_at=started, clock=clock, logs_dir=run_dir.relative(trial_dir),
                   isolation=_isolation_label(adapter, shared))
    try:
        with tempfile.TemporaryDirectory(prefix="agentbench-trial-") as tmp:
            dirs = make_trial_dirs(Path(tmp))
            trial_dir.mkdir(parents=True, exist_ok=True)
            (trial_dir / "prompt.md").write_text(spec.challenge.prompt, encoding="utf-8")
            adapter_result = _run_agent(adapter, spec, config, dirs, trial_dir, cancel)
            adapter_result = replace(adapter_result,
                                     version=adapter_result.version or shared.versions.get(spec.agent))
            cancel.check()
            ctx = _measure_context(spec, config, shared, dirs, trial_dir, cancel.marker)
            measurements = _measure(spec.challenge, ctx, cancel)
            if isinstance(measurements, str):
                return base.build(TrialStatus.VERIFIER_ERROR, adapter_result, None, config, measurements)
            archive_workspace(dirs.workspace, trial_dir / "workspace")
    except (AgentBenchError, OSError) as exc:
        cancel.check()
        return base.build(TrialStatus.INFRA_ERROR, None, None, config, f"{type(exc).__name__}: {exc}")
    return base.build(_status(adapter_result), adapter_result, measurements, config, adapter_result.error)


def _measure_context(spec: TrialSpec, config: RunConfig, shared: _Shared,
                     dirs: TrialDirs, trial_dir: Path, run_marker: str | None) -> MeasureContext:
    return MeasureContext(dirs=dirs, trial_dir=trial_dir, template_site=shared.template,
                          command_timeout_s=config.command_timeout_s,
                          expected_acceptance_tests=shared.hidden_counts.get(spec.challenge.id),
                          sandbox=config.sandbox, limits=config.limits, run_marker=run_marker)


def _run_agent(adapter: AgentAdapter, spec: TrialSpec, config: RunConfig, dirs: TrialDirs,
               trial_dir: Path, cancel: _Cancel) -> AdapterResult:
    context = AdapterContext(challenge=spec.challenge, logs_dir=trial_dir / "agent", home=dirs.home,
                             tmp=dirs.tmp, model=config.model,
                             confinement=Confinement(sandbox=config.sandbox, limits=config.limits,
                                                     run_marker=cancel.marker))
    try:
        return _call_adapter(adapter, spec.challenge, dirs.workspace, context, config.agent_timeout_s)
    except AgentBenchError:
        raise
    except Exception as exc:
        cancel.check()
        context.logs_dir.mkdir(parents=True, exist_ok=True)
        (context.logs_dir / "exception.log").write_text(traceback.format_exc(), encoding="utf-8")
        return AdapterResult(time_taken_seconds=0.0, prompts_used=0, success=False,
                             error=f"adapter raised {type(exc).__name__}: {exc}")


def _call_adapter(adapter: AgentAdapter, challenge: Challenge, workspace: Path,
                  context: AdapterContext, timeout_s: float | None) -> AdapterResult:
    # NOTE: the seed's interface takes minutes; an override in seconds passes a fraction of a minute.
    minutes: Any = timeout_s / 60.0 if timeout_s else challenge.time_limit_minutes
    if accepts_context(adapter):
        result = adapter.run_challenge(challenge.prompt, workspace, minutes,
                                       context=context)  # type: ignore[call-arg]
    else:
        result = adapter.run_challenge(challenge.prompt, workspace, minutes)
    if not isinstance(result, AdapterResult):
        raise TypeError(f"{type(adapter).__name__}.run_challenge returned {type(result).__name__}, "
                        "not AdapterResult")
    return result


def _measure(challenge: Challenge, ctx: MeasureContext, cancel: _Cancel) -> Measurements | str:
    try:
        return measure(challenge, ctx)
    except Exception as exc:
        cancel.check()
        (ctx.trial_dir / "logs").mkdir(parents=True, exist_ok=True)
        (ctx.trial_dir / "logs" / "verifier-exception.log").write_text(traceback.format_exc(),
                                                                      encoding="utf-8")
        return f"measuring failed: {type(exc).__name__}: {exc}"


def _status(result: AdapterResult) -> TrialStatus:
    if result.timed_out:
        return TrialStatus.TIMEOUT
    return TrialStatus.INFRA_ERROR if result.infra_error else TrialStatus.COMPLETED if result.success else TrialStatus.AGENT_ERROR


def _isolation_label(adapter: AgentAdapter, shared: _Shared) -> str:
    if isinstance(adapter, CommandAdapter):
        return shared.isolation
    return f"agent in-process; commands {shared.isolation}"


@dataclass(frozen=True, slots=True, kw_only=True)
class _Record:
    spec: TrialSpec
    started_at: str
    clock: float
    logs_dir: str
    isolation: str

    def build(self, status: TrialStatus, adapter: AdapterResult | None,
              measurements: Measurements | None, config: RunConfig, error: str | None) -> TrialRecord:
        seed = score = None
        if measurements is not None and adapter is not None:
            baseline = self.spec.challenge.scoring_rubric.max_time_minutes * 60.0
            seed, score = (score_trial(measurements, time_seconds=adapter.time_taken_seconds,
                                       baseline_seconds=baseline, rubric=r)
                           for r in ("seed", config.rubric))
        return TrialRecord(
            agent=self.spec.agent, challenge_id=self.spec.challenge.id, trial=self.spec.trial,
            status=status, adapter=adapter, measurements=measurements, seed_score=seed, score=score,
            started_at=self.started_at, duration_s=round(time.monotonic() - self.clock, 3),
            logs_dir=self.logs_dir, isolation=self.isolation, error=error,
        )


def _write_results(config: RunConfig, paths: dict[str, Path]) -> RunOutcome:
    order = {c.id: i for i, c in enumerate(config.challenges)}
    finished = sorted((r for r in config.run_dir.finished().values() if r.challenge_id in order),
                      key=lambda r: (order[r.challenge_id], r.trial))
    records, files = {}, {}
    for agent in config.agents:
        trials = tuple(r for r in finished if r.agent == agent)
        records[agent] = RunRecord(agent=agent, run_id=config.run_id, rubric=config.rubric,
                                   created_at=_now(), agentbench_version=__version__, trials=trials)
        files[agent] = paths.get(agent, config.results_dir / f"{agent}.json")
        write_results(files[agent], records[agent])
    return RunOutcome(run_dir=config.run_dir.root, records=records, results_files=files)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def regrade(config: RunConfig, progress: Progress | None = None) -> RunOutcome:
    """Re-measure and re-score every kept workspace of a run, keeping the agent's transcript and time.

    For a scorer fix or a new rubric: the agents are not run again. Each trial's previous record is
    kept once as `record.orig.json`.
    """
    progress = progress or NullProgress()
    finished = [r for r in config.run_dir.finished().values() if r.adapter is not None]
    progress.run_started(total=len(finished), skipped=0)
    template = template_site_packages(cache_dir(), config.run_dir.root / "logs")
    by_id = {c.id: c for c in config.challenges}
    counts = hidden_test_counts(by_id.values(), template, config.run_dir.root / "logs")
    shared = _Shared(template, counts, describe(Confinement(sandbox=config.sandbox), cgroups_available()))
    for record in finished:
        if record.challenge_id not in by_id:
            continue
        spec = TrialSpec(agent=record.agent, challenge=by_id[record.challenge_id], trial=record.trial)
        progress.trial_started(spec)
        new = scrub(_regrade_trial(record, spec, config, shared), config, _run_secrets(config))
        config.run_dir.write_trial(new)
        progress.trial_finished(new)
    return _write_results(config, {})


def _regrade_trial(record: TrialRecord, spec: TrialSpec, config: RunConfig, shared: _Shared) -> TrialRecord:
    trial_dir = config.run_dir.root / record.logs_dir
    original = trial_dir / "record.orig.json"
    if not original.exists():
        shutil.copyfile(trial_dir / "record.json", original)
    assert record.adapter is not None
    with tempfile.TemporaryDirectory(prefix="agentbench-regrade-") as tmp:
        dirs = make_trial_dirs(Path(tmp))
        if (trial_dir / "workspace").is_dir():
            copy_tree(trial_dir / "workspace", dirs.workspace)
        ctx = _measure_context(spec, config, shared, dirs, trial_dir, None)
        measurements = _measure(spec.challenge, ctx, _Cancel(threading.Event(), ""))
    if isinstance(measurements, str):
        return replace(record, status=TrialStatus.VERIFIER_ERROR, error=measurements,
                                   seed_score=None, score=None)
    base = _Record(spec=spec, started_at=record.started_at, clock=time.monotonic() - record.duration_s,
                   logs_dir=record.logs_dir, isolation=record.isolation)
    status = record.status if record.status != TrialStatus.VERIFIER_ERROR else _status(record.adapter)
    return base.build(status, record.adapter, measurements, config, record.error)
