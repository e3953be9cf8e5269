"""Running a run: many trials (see `trial`) on an executor, then the per-agent results files.

The runner never prints: it reports to a `Progress` observer. Trials run on a thread pool (`jobs`)
or on Dask workers, each in its own temporary folders; finished trials are written as soon as they
end, so an interrupted run loses nothing and `resume` runs only what is missing. On Ctrl-C every
process the run started is killed and unfinished trials are left unrecorded.
"""

from __future__ import annotations

import contextlib
import functools
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from agentbench import __version__, process, users
from agentbench.adapters.cli_base import CommandAdapter
from agentbench.adapters.instructions import instruction_files_above
from agentbench.adapters.registry import get_adapter
from agentbench.errors import AgentBenchError, RunError, UsageError
from agentbench.executors.local import run_local
from agentbench.models import AgentConfig, Challenge, RunRecord, TrialRecord
from agentbench.plan import RunConfig, TrialSpec, new_run_id, now_iso, plan_trials, trial_keys
from agentbench.redaction import Secret, environment_secrets, url_secrets
from agentbench.sandbox import Confinement, TrialUser
from agentbench.store import RunPlan, write_atomic, write_results
from agentbench.store.exports import ExportChange
from agentbench.store.index import ResultsIndex, RunInfo
from agentbench.toolchains import MeasureContext, get_toolchain
from agentbench.toolchains.canaries import GENERATOR_VERSION, HiddenCatalog
from agentbench.toolchains.python.interpreter import base_python
from agentbench.trial import Cancel, Cancelled, RunShared, attempts, regrade_trial, scrub
from agentbench.workspace import (
    cache_dir,
    home_cache,
    make_trial_dirs,
    pack_tree,
    tree_digest,
    unpack_tree,
)

__all__ = ["Cancelled", "NullProgress", "Progress", "RunConfig", "RunOutcome", "TrialSpec",
           "execute", "new_run_id", "plan_trials", "regrade"]


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
        model=config.model, agents_config=config.agents_config, sandbox=config.sandbox,
        agent_timeout_s=config.agent_timeout_s, created_at=now_iso(),
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
            if todo and config.executor == "dask":
                _run_dask(todo, config, progress, (index, info))
            elif todo:
                shared = _with_db_secret(prepare_shared(config, {s.challenge for s in todo}, versions,
                                                        progress.note, db=db), index)
                _run_pool(todo, config, shared, progress, (index, info), marker)
            return _write_results(config, results_paths or {}, (index, info))
    finally:
        index.close()


def _with_db_secret(shared: RunShared, index: ResultsIndex) -> RunShared:
    """The database URL's password (`--db`, `$AGENTBENCH_DB`) is redacted like any other secret."""
    found = url_secrets("database URL", index.connection.location.target)
    return replace(shared, secrets=(*shared.secrets, *found))


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
    extra = (("jobs", config.jobs), ("retries", config.retries), ("executor", config.executor))
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


def prepare_shared(config: RunConfig, challenges: Iterable[Challenge],
                   versions: dict[str, str | None] | None = None,
                   announce: Callable[[str], None] | None = None, *,
                   isolation: str | None = None, db: str | None = None) -> RunShared:
    """What the run's trials share: toolchain assets, hidden-test counts, isolation, secrets, and
    what no trial may see (`db`: the results database, as given)."""
    challenges = list(challenges)
    log_dir = config.run_dir.root / "logs"
    assets = {}
    for language in sorted({get_toolchain(c.language).name for c in challenges}):
        assets[language] = get_toolchain(language).prepare_run(cache_dir(), log_dir,
                                                               announce or (lambda _: None))
    return RunShared(assets=assets, hidden=hidden_catalogs(challenges, assets, log_dir),
                     isolation=isolation or users.isolation(config.sandbox, config.limits,
                                                            without_users=config.trial_users_off).label,
                     secrets=_run_secrets(config), versions=versions or {},
                     hidden_paths=config.hidden_paths(db))


def hidden_catalogs(challenges: Iterable[Challenge], assets: dict[str, Path],
                    log_dir: Path) -> dict[str, HiddenCatalog | None]:
    """Per challenge: its hidden tests and verified canaries, from one run on its reference
    solution (cached by content, in the harness's own cache)."""
    found: dict[str, HiddenCatalog | None] = {}
    for challenge in challenges:
        found[challenge.id] = None
        if challenge.acceptance is None or challenge.reference_dir is None:
            continue
        key = tree_digest(challenge.acceptance.files_dir, challenge.reference_dir)
        cached = cache_dir() / "hidden-catalogs" / f"{key}-{GENERATOR_VERSION}.json"
        if cached.is_file():
            found[challenge.id] = HiddenCatalog.from_json(cached.read_text(encoding="utf-8"))
        if found[challenge.id] is None:
            found[challenge.id] = _survey(challenge, assets, log_dir)
            if (catalog := found[challenge.id]) is not None:
                write_atomic(cached, catalog.to_json())
    return found


def _survey(challenge: Challenge, assets: dict[str, Path], log_dir: Path) -> HiddenCatalog | None:
    if challenge.acceptance is None or challenge.reference_dir is None:
        return None
    toolchain = get_toolchain(challenge.language)
    with tempfile.TemporaryDirectory(prefix="agentbench-survey-") as tmp:
        ctx = MeasureContext(dirs=make_trial_dirs(Path(tmp)), assets=assets[toolchain.name],
                             trial_dir=log_dir / "survey" / challenge.id)
        return toolchain.survey_hidden(challenge.acceptance, challenge.reference_dir, ctx)


def agent_versions(config: RunConfig) -> dict[str, str | None]:
    """Each agent's version, asked once per run (a missing CLI raises AgentUnavailableError)."""
    return {agent: agent_version(agent, config.agent_configs, config.sandbox) for agent in config.agents}


def agent_version(agent: str, configs: tuple[tuple[str, AgentConfig], ...], sandbox: str) -> str | None:
    """One agent's version (its CLI checked first; a probe that must run it is confined like it)."""
    adapter = get_adapter(agent, dict(configs))
    if isinstance(adapter, CommandAdapter):
        adapter.preflight()
        return adapter.version(confinement=Confinement(sandbox=sandbox))
    return adapter.version()


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
        progress.note(f"warning: trials run as root, not as their own user: {unreachable}; make it "
                      "enterable (e.g. `chmod o+x` on that folder) or install it outside root's home")
    else:
        for note in reach_notes():
            progress.note(note)
    isolation = users.isolation(config.sandbox, config.limits, without_users=config.trial_users_off)
    problem = isolation.jobs_problem(config.jobs)
    if problem:
        raise UsageError(problem, isolation.hint or "use --jobs 1")
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


@functools.cache
def _worker_facts(agent: str, configs: tuple[tuple[str, AgentConfig], ...], sandbox: str,
                  users_off: str | None) -> tuple[str | None, str]:
    """(agent version, isolation label), found once per worker process and reused by its tasks.

    NOTE: a memo of what this machine is, not run state: a Dask worker runs many trials, and asking
    each time cost 9% of a trial."""
    return agent_version(agent, configs, sandbox), users.isolation(sandbox, without_users=users_off).label


def _run_secrets(config: RunConfig) -> tuple[Secret, ...]:
    return environment_secrets(pair for _, agent in config.agent_configs for pair in agent.env)


def _run_pool(todo: Sequence[TrialSpec], config: RunConfig, shared: RunShared, progress: Progress,
              indexing: Indexing, marker: str) -> None:
    cancel = Cancel(threading.Event(), marker)

    def interrupt() -> None:
        cancel.event.set()
        process.kill_marked(process.RUN_MARKER_VARIABLE, cancel.marker)

    run_local(todo, lambda spec: _trial_job(spec, config, shared, progress, cancel, indexing),
              jobs=config.jobs, on_interrupt=interrupt)


def _trial_job(spec: TrialSpec, config: RunConfig, shared: RunShared, progress: Progress,
               cancel: Cancel, indexing: Indexing) -> None:
    progress.trial_started(spec)
    try:
        record = attempts(spec, config, shared, cancel)
    except Cancelled:
        return
    record = scrub(record, config.run_dir.root, shared.secrets)
    _save_trial(config, record, indexing)
    progress.trial_finished(record)


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


def _run_dask(todo: Sequence[TrialSpec], config: RunConfig, progress: Progress,
              indexing: Indexing) -> None:
    from agentbench.executors.dask import run_dask

    bundles = {c.id: pack_tree(c.source_path.parent / c.source_path.stem, extra=(c.source_path,))
               for c in {s.challenge for s in todo}}
    tasks = [RemoteTask(spec=s, config=config, bundle=bundles[s.challenge.id]) for s in todo]
    for spec in todo:
        progress.trial_started(spec)

    def collect(result: RemoteResult) -> None:
        record = result.record
        unpack_tree(result.archive, config.run_dir.trial_dir(record.agent, record.challenge_id, record.trial))
        _save_trial(config, record, indexing)
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
        if (problem := users.trial_users_problem()) is not None:  # this worker's own machine
            config = replace(config, trial_users_off=problem)
        spec = replace(spec, challenge=challenge)
        version, isolation = _worker_facts(spec.agent, config.agent_configs, config.sandbox,
                                           config.trial_users_off)
        shared = prepare_shared(config, [challenge], {spec.agent: version}, isolation=isolation)
        shared = replace(shared, hidden_paths=(*shared.hidden_paths, *task.config.hidden_paths()))
        record = scrub(attempts(spec, config, shared, Cancel(threading.Event(), uuid.uuid4().hex)),
                       config.run_dir.root, shared.secrets)
        trial_dir = config.run_dir.trial_dir(spec.agent, challenge.id, spec.trial)
        return RemoteResult(record=record, archive=pack_tree(trial_dir))


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
