"""One trial: fresh folders -> the agent (timed by the harness) -> archive -> measure -> score -> record.

Everything a trial can do wrong becomes data in its record, never the end of the run:
- the agent's failures are the agent's (`agent_error`, `timeout`: scored);
- the infrastructure's failures (an adapter saying so, a harness `OSError`) are `infra_error`:
  retried, left out of the scores;
- a step of measuring that raises counts zero (`metrics.steps`); the trial is the agent's result
  when the harness measures the challenge's reference cleanly in this run, and `verifier_error`
  (retried, left out) only when that fails too (`agentbench.blame`).
When the agent stops, the harness takes one snapshot of the workspace (`agentbench.snapshot`: regular
files only, bounded, in a folder the trial cannot write; what it skipped goes into the record's `cut`).
Every measurement reads that snapshot or a fresh copy of it, and the `workspace/` archive is made from
it *before* measuring, so `regrade` measures exactly what was measured.
Only the harness excuses a trial: the snapshot holds nothing but bounded regular files, a measuring
step that raises anyway is blamed on the harness only on the harness's own evidence, and an adapter
calls a run the infrastructure's only on its own evidence.
A cancelled run (Ctrl-C) raises `Cancelled` out of the trial: nothing half-measured is recorded.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import threading
import time
import traceback
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from agentbench import diskroom
from agentbench.adapters.base import AdapterContext, AgentAdapter, accepts_context
from agentbench.adapters.cli_base import CommandAdapter
from agentbench.adapters.registry import get_adapter
from agentbench.adapters.trajectory import FILE_NAME as TRAJECTORY_FILE
from agentbench.adapters.trajectory import dumps as dump_trajectory
from agentbench.adapters.transcripts import build_trajectory, parser_name
from agentbench.attempts import combine, feedback_prompt, visible_passed
from agentbench.attempts import summary as attempt_summary
from agentbench.blame import reference_verdict
from agentbench.errors import AgentBenchError, Interrupted
from agentbench.metrics import failed_measurements, measure
from agentbench.metrics.steps import INFRA_ERRNOS, Steps, summary  # noqa: F401 (re-exported)
from agentbench.models import (
    AdapterResult,
    AttemptSummary,
    Challenge,
    ChangeSummary,
    Measurements,
    TrialRecord,
    TrialStatus,
)
from agentbench.plan import RunConfig, TrialSpec, now_iso
from agentbench.records import dumps_trial, loads_trial
from agentbench.redaction import Secret, redact_text, redact_tree
from agentbench.sandbox import Confinement
from agentbench.scoring import RUBRICS, score_trial
from agentbench.snapshot import Snapshot, take_snapshot
from agentbench.starting import close_workspace, restore_protected, seed_workspace, template
from agentbench.store import write_atomic
from agentbench.toolchains import MeasureContext, get_toolchain
from agentbench.toolchains.canaries import HiddenCatalog, expected_tests
from agentbench.trash import trial_folder
from agentbench.users import give, trial_user
from agentbench.workspace import TrialDirs, archive_workspace, cache_dir, copy_tree, make_trial_dirs

Cancelled = Interrupted
"""The run was interrupted; the current trial is abandoned, not recorded."""


@dataclass(frozen=True, slots=True)
class Cancel:
    """The run's cancellation flag and process marker."""

    event: threading.Event = field(default_factory=threading.Event)
    marker: str = ""

    def check(self) -> None:
        """Raise Cancelled once the run was interrupted."""
        if self.event.is_set():
            raise Cancelled


@dataclass(frozen=True, slots=True, kw_only=True)
class RunShared:
    """What every trial of a run shares."""

    assets: dict[str, Path]
    """Per language: what its toolchain prepared once for the run."""
    hidden: dict[str, HiddenCatalog | None]
    """Per challenge: its hidden tests and verified canaries, from the reference solution."""
    isolation: str
    """The isolation label of the run's commands."""
    secrets: tuple[Secret, ...] = ()
    """Values redacted from every trial folder and record."""
    versions: dict[str, str | None] = field(default_factory=dict)
    """Per agent: its CLI's version, asked once per run."""
    hidden_paths: tuple[Path, ...] = ()
    """What no command of a trial may see (see `RunConfig.hidden_paths`)."""


def attempts(spec: TrialSpec, config: RunConfig, shared: RunShared, cancel: Cancel) -> TrialRecord:
    """Run a trial, again up to `retries` times while it ends excused (infrastructure or verifier
    error)."""
    for _ in range(config.retries):
        record = run_trial(spec, config, shared, cancel)
        if record.status not in (TrialStatus.INFRA_ERROR, TrialStatus.VERIFIER_ERROR):
            return record
    return run_trial(spec, config, shared, cancel)


def run_trial(spec: TrialSpec, config: RunConfig, shared: RunShared, cancel: Cancel) -> TrialRecord:
    """Run one trial in fresh temporary folders and build its record (not yet written)."""
    trial_dir = config.run_dir.trial_dir(spec.agent, spec.challenge.id, spec.trial)
    base = _Record(spec=spec, started_at=now_iso(), clock=time.monotonic(),
                   logs_dir=config.run_dir.relative(trial_dir), isolation=shared.isolation)
    try:
        adapter = get_adapter(spec.agent, dict(config.agent_configs))
        base = replace(base, isolation=_isolation_label(adapter, shared))
        users = (trial_user(required=True) if config.trial_users_off is None
                 else contextlib.nullcontext(None))
        with users as user, trial_folder("agentbench-trial-") as tmp:
            dirs = make_trial_dirs(Path(tmp), user)
            pristine = seed_workspace(spec.challenge, dirs.workspace, cache_dir())
            give(dirs.user, (dirs.workspace,))
            trial_dir.mkdir(parents=True, exist_ok=True)
            (trial_dir / "prompt.md").write_text(spec.challenge.prompt, encoding="utf-8")
            agent, seconds = _timed_agent(adapter, spec, config, (dirs, shared.hidden_paths), trial_dir, cancel)
            if config.attempts > 1:
                agent, seconds, first = _second_attempt(adapter, spec, (config, shared, cancel), dirs,
                                                        trial_dir, (agent, seconds, pristine))
                base = replace(base, attempts=(first,))
            keep_trajectory(parser_name(adapter), spec, trial_dir, dirs)
            # NOTE: a run that ended on a machine out of disk even without the trials' files: infra_error
            diskroom.raise_if_short((dirs.workspace, dirs.home, dirs.tmp), own_uid=dirs.user is None,
                                    during="the agent's run ended")
            agent = replace(agent, version=agent.version or shared.versions.get(spec.agent))
            cancel.check()
            base, measured = _after_agent(base, _context(spec, config, shared, dirs, trial_dir, cancel),
                                          spec.challenge, pristine)
            cancel.check()
    except (AgentBenchError, OSError) as exc:
        cancel.check()
        return base.build(TrialStatus.INFRA_ERROR, None, None, config, f"{type(exc).__name__}: {exc}")
    return _judged(base, (spec, config, shared, cancel), agent, measured, seconds)


def _after_agent(base: _Record, ctx: MeasureContext, challenge: Challenge,
                 pristine: Path | None) -> tuple[_Record, Measurements]:
    """Snapshot, archive, changes and measuring, each step guarded (`metrics.steps`): a step that
    raises counts zero and is recorded; `_judged` decides whose fault it was."""
    steps = Steps(ctx.logs, own_uid=ctx.user is None)
    snapshot = steps.run("snapshot", lambda: take_snapshot(
        ctx.dirs.workspace, ctx.dirs.base / f"snapshot-{secrets.token_hex(8)}"), lambda: None)
    if snapshot is None:
        return base, failed_measurements(challenge, ctx, tuple(steps.failures))
    archived: tuple[str, ...] = tuple(steps.run(
        "archive", lambda: archive_workspace(snapshot.root, ctx.trial_dir / "workspace"), list))
    base = replace(base, cut=(*snapshot.notes(), *archived))
    changes = steps.run("changes", lambda: close_workspace(
        challenge, ctx.trial_dir, pristine, live=ctx.dirs.workspace, measured=snapshot.root), lambda: None)
    if changes is None:  # NOTE: protected files may not be restored: nothing is measured
        return base, failed_measurements(challenge, ctx, tuple(steps.failures))
    base = replace(base, changes=changes)
    return base, _measure(challenge, ctx, snapshot, steps)


def _judged(base: _Record, run: tuple[TrialSpec, RunConfig, RunShared, Cancel | None],
            agent: AdapterResult, measured: Measurements, seconds: float | None) -> TrialRecord:
    """The record of a measured trial. A step of measuring that raised is the agent's result
    (scored, the step's components zero) unless the harness's measuring fails on the challenge's
    reference in this run too: then `verifier_error` (see `agentbench.blame`)."""
    spec, config, _, _ = run
    if not measured.failures:
        return base.build(_status(agent), agent, measured, config, agent.error, seconds)
    verdict = reference_verdict(str(config.run_dir.root), spec.challenge.id,
                                lambda: _measure_reference(*run))
    what = f"measuring failed ({summary(measured.failures)})"
    if not verdict.works:
        return base.build(TrialStatus.VERIFIER_ERROR, agent, None, config,
                          f"{what}; {verdict.evidence}", seconds)
    error = f"{what}; {verdict.evidence}: those components count zero"
    return base.build(_status(agent), agent, measured, config,
                      f"{agent.error}; {error}" if agent.error else error, seconds)


def _measure_reference(spec: TrialSpec, config: RunConfig, shared: RunShared,
                       cancel: Cancel | None) -> Measurements:
    """Measure the challenge's reference solution (its starting workspace when it has none) as a
    trial's workspace is measured in this run: its logs in the run's `logs/reference-check/`."""
    challenge = spec.challenge
    logs = config.run_dir.root / "logs" / "reference-check" / challenge.id
    users = (trial_user(required=True) if config.trial_users_off is None
             else contextlib.nullcontext(None))
    with users as user, trial_folder("agentbench-reference-check-") as tmp:
        dirs = make_trial_dirs(Path(tmp), user)
        seed_workspace(challenge, dirs.workspace, cache_dir())
        if challenge.reference_dir is not None:
            copy_tree(challenge.reference_dir, dirs.workspace)
        give(dirs.user, (dirs.workspace,))
        return _measure(challenge, _context(spec, config, shared, dirs, logs, cancel))


def _second_attempt(adapter: AgentAdapter, spec: TrialSpec, run: tuple[RunConfig, RunShared, Cancel],
                    dirs: TrialDirs, trial_dir: Path,
                    done: tuple[AdapterResult, float, Path | None]) -> tuple[AdapterResult, float, AttemptSummary]:
    """Measure the first attempt (logs in `attempt-1/`); when its visible tests fail, prompt the
    agent again in the same workspace with their output (logs in `attempt-2/`)."""
    config, shared, cancel = run
    agent, seconds, pristine = done
    folder = trial_dir / "attempt-1"
    snapshot = take_snapshot(dirs.workspace, dirs.base / f"snapshot-{secrets.token_hex(8)}")
    restore_protected(spec.challenge, snapshot.root, pristine)
    measured = _measure(spec.challenge, _context(spec, config, shared, dirs, folder, cancel), snapshot)
    cancel.check()
    failed = bool(measured.failures)  # NOTE: measuring the first attempt failed: no feedback to give
    stop = failed or visible_passed(measured) or agent.timed_out or agent.infra_error
    first = attempt_summary(None if failed else measured, seconds, retried=not stop)
    if stop:
        return agent, seconds, first
    output = "\n".join((folder / c.log).read_text(encoding="utf-8", errors="replace")
                       for c in measured.tests.commands if (folder / c.log).is_file())
    prompt = feedback_prompt(spec.challenge, output)
    (trial_dir / "prompt-2.md").write_text(prompt, encoding="utf-8")
    again = replace(spec, challenge=replace(spec.challenge, prompt=prompt))
    second, more = _timed_agent(adapter, again, config, (dirs, shared.hidden_paths),
                                trial_dir / "attempt-2", cancel)
    return combine(agent, second), round(seconds + more, 3), first


def keep_trajectory(parser: str | None, spec: TrialSpec, trial_dir: Path,
                    dirs: TrialDirs | None = None) -> None:
    """Write `trajectory.jsonl` from the agent's transcript (see `agentbench.adapters.trajectory`).

    A transcript that cannot be parsed gives the prompt and a note; nothing here fails the trial.
    """
    trajectory = build_trajectory(agent=spec.agent, adapter=parser, prompt=spec.challenge.prompt,
                                  trial_dir=trial_dir, workspace=dirs.workspace if dirs else None,
                                  home=dirs.home if dirs else None)
    with contextlib.suppress(AgentBenchError):
        write_atomic(trial_dir / TRAJECTORY_FILE, dump_trajectory(trajectory))


def _context(spec: TrialSpec, config: RunConfig, shared: RunShared, dirs: TrialDirs,
             trial_dir: Path, cancel: Cancel | None) -> MeasureContext:
    language = get_toolchain(spec.challenge.language).name
    return MeasureContext(dirs=dirs, trial_dir=trial_dir, assets=shared.assets[language],
                          command_timeout_s=config.command_timeout_s,
                          expected_acceptance_tests=expected_tests(shared.hidden.get(spec.challenge.id)),
                          hidden_catalog=shared.hidden.get(spec.challenge.id),
                          sandbox=config.sandbox, limits=config.limits, hidden=shared.hidden_paths,
                          run_marker=cancel.marker if cancel else None,
                          interrupted=cancel.event if cancel else None,
                          side_by_side=config.executor == "local" and config.jobs < usable_cores())


def usable_cores() -> int:
    """Processors this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _timed_agent(adapter: AgentAdapter, spec: TrialSpec, config: RunConfig,
                 where: tuple[TrialDirs, tuple[Path, ...]], trial_dir: Path,
                 cancel: Cancel) -> tuple[AdapterResult, float]:
    """Run the agent (in the trial's folders, `where[1]` hidden from it); the harness's own wall
    clock around the call is what efficiency scores."""
    dirs, hidden = where
    context = AdapterContext(challenge=spec.challenge, logs_dir=trial_dir / "agent", home=dirs.home,
                             tmp=dirs.tmp, model=config.model,
                             confinement=Confinement(sandbox=config.sandbox, limits=config.limits,
                                                     run_marker=cancel.marker, user=dirs.user,
                                                     hidden=hidden))
    start = time.monotonic()
    try:
        result = _overrun(_call_adapter(adapter, spec.challenge, dirs.workspace, context,
                                        config.agent_timeout_s), start, spec.challenge, config)
    except (AgentBenchError, OSError):
        raise  # NOTE: the harness's or machine's failure (e.g. a full disk): infra_error, retried
    except Exception as exc:
        cancel.check()
        context.logs_dir.mkdir(parents=True, exist_ok=True)
        (context.logs_dir / "exception.log").write_text(traceback.format_exc(), encoding="utf-8")
        result = AdapterResult(time_taken_seconds=0.0, prompts_used=0, success=False,
                               error=f"adapter raised {type(exc).__name__}: {exc}")
    return result, round(time.monotonic() - start, 3)


OVERRUN_GRACE_SECONDS = 1.0
"""An agent still running this long after its time limit timed out, whatever its adapter says."""


def _overrun(result: AdapterResult, start: float, challenge: Challenge, config: RunConfig) -> AdapterResult:
    """The harness's clock decides timeouts too: an adapter that overran its limit timed out."""
    limit = config.agent_timeout_s or challenge.time_limit_minutes * 60.0
    seconds = time.monotonic() - start
    if result.timed_out or seconds <= limit + OVERRUN_GRACE_SECONDS:
        return result
    return replace(result, timed_out=True, success=False,
                   error=f"ran {seconds:.1f} s, over its {limit:g} s limit (timed by the harness)")


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


def _measure(challenge: Challenge, ctx: MeasureContext, snapshot: Snapshot | None = None,
             steps: Steps | None = None) -> Measurements:
    """Measure `snapshot` (default: one taken now of `ctx`'s workspace). A step that raises counts
    zero and is recorded in `failures` (traceback in the logs); so does an exception outside any
    step (then nothing is measured). The machine's own failures (INFRA_ERRNOS) are re-raised."""
    steps = steps or Steps(ctx.logs, own_uid=ctx.user is None)
    return steps.run("measuring", lambda: measure(challenge, ctx, snapshot=snapshot, steps=steps),
                     lambda: failed_measurements(challenge, ctx, tuple(steps.failures)))


def _status(result: AdapterResult) -> TrialStatus:
    if result.infra_error:  # NOTE: before the timeout: a silent endpoint also times the CLI out
        return TrialStatus.INFRA_ERROR
    if result.timed_out:
        return TrialStatus.TIMEOUT
    return TrialStatus.COMPLETED if result.success else TrialStatus.AGENT_ERROR


def _isolation_label(adapter: AgentAdapter, shared: RunShared) -> str:
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
    cut: tuple[str, ...] = ()
    changes: ChangeSummary | None = None
    attempts: tuple[AttemptSummary, ...] = ()

    def build(self, status: TrialStatus, adapter: AdapterResult | None,
              measurements: Measurements | None, config: RunConfig, error: str | None,
              agent_seconds: float | None = None) -> TrialRecord:
        seed = score = verified = None
        if measurements is not None and adapter is not None and status != TrialStatus.INFRA_ERROR:
            seconds = adapter.time_taken_seconds if agent_seconds is None else agent_seconds
            seed, score, verified = (self._score(measurements, seconds, adapter.timed_out, rubric)
                                     for rubric in ("seed", config.rubric, "verified"))
        return TrialRecord(
            agent=self.spec.agent, challenge_id=self.spec.challenge.id, trial=self.spec.trial,
            status=status, adapter=adapter, measurements=measurements, seed_score=seed, score=score,
            verified_score=verified, agent_seconds=agent_seconds, started_at=self.started_at,
            language=self.spec.challenge.language,
            duration_s=round(time.monotonic() - self.clock, 3), logs_dir=self.logs_dir,
            isolation=self.isolation, error=error, cut=self.cut, changes=self.changes,
            attempts=self.attempts,
        )

    def _score(self, measurements: Measurements, seconds: float, timed_out: bool, rubric: str) -> Any:
        if RUBRICS[rubric].scaled_by_hidden_tests and measurements.acceptance is None:
            return None
        baseline = self.spec.challenge.scoring_rubric.max_time_minutes * 60.0
        return score_trial(measurements, time_seconds=seconds, baseline_seconds=baseline,
                           rubric=rubric, timed_out=timed_out)


def scrub(record: TrialRecord, run_root: Path, secrets: tuple[Secret, ...]) -> TrialRecord:
    """Redact secrets from a finished trial's folder and record (see `agentbench.redaction`); every
    text of the record is made valid UTF-8 (undecodable file names escaped, see `records.valid_text`)."""
    if not secrets:
        return loads_trial(dumps_trial(record))
    redact_tree(run_root / record.logs_dir, secrets)
    return loads_trial(redact_text(dumps_trial(record), secrets))


def regrade_trial(record: TrialRecord, spec: TrialSpec, config: RunConfig, shared: RunShared) -> TrialRecord:
    """Re-measure and re-score the kept workspace of a trial (the agent is not run again)."""
    trial_dir = config.run_dir.root / record.logs_dir
    if record.adapter is None:
        return record
    original = trial_dir / "record.orig.json"
    if not original.exists():
        shutil.copyfile(trial_dir / "record.json", original)
    if not (trial_dir / TRAJECTORY_FILE).exists():  # NOTE: a run from before trajectories
        with contextlib.suppress(AgentBenchError):
            keep_trajectory(parser_name(get_adapter(spec.agent, dict(config.agent_configs))), spec,
                            trial_dir)
    users = (trial_user(required=True) if config.trial_users_off is None
             else contextlib.nullcontext(None))
    with users as user, trial_folder("agentbench-regrade-") as tmp:
        dirs = make_trial_dirs(Path(tmp), user)  # NOTE: the agent's code runs again: as its trial user
        if (trial_dir / "workspace").is_dir():
            copy_tree(trial_dir / "workspace", dirs.workspace)
        if spec.challenge.workspace is not None:
            restore_protected(spec.challenge, dirs.workspace, template(spec.challenge.workspace,
                                                                       cache_dir()))
        give(dirs.user, (dirs.workspace,))
        measured = _measure(spec.challenge, _context(spec, config, shared, dirs, trial_dir, None))
    base = _Record(spec=spec, started_at=record.started_at, clock=time.monotonic() - record.duration_s,
                   logs_dir=record.logs_dir, isolation=record.isolation, cut=record.cut,
                   changes=record.changes, attempts=record.attempts)
    if measured.failures:
        return _judged(base, (spec, config, shared, None), record.adapter, measured, record.agent_seconds)
    status = record.status if record.status != TrialStatus.VERIFIER_ERROR else _status(record.adapter)
    return base.build(status, record.adapter, measured, config, record.error, record.agent_seconds)
