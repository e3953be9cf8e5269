"""What a run is asked to do: its validated configuration and the trials it plans.

`RunConfig` is built from CLI options (or by Python callers) and validated here, once, so every
entry point gets the same checks. `plan_trials` orders the trials challenge-major so agents interleave.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from agentbench.errors import AgentBenchError, UsageError
from agentbench.executors import EXECUTORS
from agentbench.models import AgentConfig, Challenge
from agentbench.sandbox import SANDBOXES, Limits, NoSandbox, Sandbox, sandbox_named
from agentbench.scoring import RUBRICS
from agentbench.store import RunDir


@dataclass(frozen=True, slots=True, kw_only=True)
class TrialSpec:
    """One trial to run."""

    agent: str
    """The agent's name."""
    challenge: Challenge
    """The challenge."""
    trial: int
    """1-based trial number."""


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
    attempts: int = 1
    """1, or 2: a second attempt with the visible tests' output when the first fails them."""
    rubric: str = "seed"
    model: str | None = None
    challenge_dirs: tuple[str, ...] = ()
    agents_config: str | None = None
    agent_configs: tuple[tuple[str, AgentConfig], ...] = ()
    meter: bool = False
    """`--meter`: every agent's tokens counted by the harness's metering proxy (its agents config
    entries in `agent_configs` carry `meter` too)."""
    command_timeout_s: float = 600.0
    sandbox: Sandbox = field(default_factory=NoSandbox)
    """How every command of the run is confined (`sandbox_named`; its name is accepted too)."""
    limits: Limits = field(default_factory=Limits)
    agent_timeout_s: float | None = None
    executor: str = "local"
    executor_address: str | None = None
    trial_users_off: str | None = None
    """Why trials do not run as their own user although AgentBench is root (None: they do, where
    the machine allows it). Set by the runner's checks, not by users."""

    def __post_init__(self) -> None:
        if not self.agents:
            raise UsageError("no agent given", "pass --agent NAME")
        if not self.challenges:
            raise UsageError("no challenge selected", "pass --challenge ID, --tier T or --all")
        for name, value in (("trials", self.trials), ("jobs", self.jobs)):
            if value < 1:
                raise UsageError(f"--{name} must be at least 1, got {value}")
        if self.attempts not in (1, 2):
            raise UsageError(f"--attempts must be 1 or 2, got {self.attempts}")
        self._choose_sandbox()
        if self.executor not in EXECUTORS:
            raise UsageError(f"unknown executor '{self.executor}'", f"use one of: {', '.join(EXECUTORS)}")
        self._check_rubric()

    def _choose_sandbox(self) -> None:
        if isinstance(self.sandbox, str):  # NOTE: a name, from the CLI, a plan or a Python caller
            try:
                object.__setattr__(self, "sandbox", sandbox_named(self.sandbox))
            except ValueError:
                raise UsageError(f"unknown sandbox '{self.sandbox}'",
                                 f"use one of: {', '.join(SANDBOXES)}") from None
        problem = self.sandbox.problem()
        if problem:
            raise AgentBenchError(f"--sandbox {self.sandbox.name}: {problem}",
                                  "install it, or use --sandbox none")

    def _check_rubric(self) -> None:
        if self.rubric not in RUBRICS:
            raise UsageError(f"unknown rubric '{self.rubric}'", f"use one of: {', '.join(RUBRICS)}")
        unverifiable = [c.id for c in self.challenges if c.acceptance is None]
        if RUBRICS[self.rubric].scaled_by_hidden_tests and unverifiable:
            raise UsageError(
                f"--rubric {self.rubric} needs hidden tests; these challenges have none: "
                f"{', '.join(unverifiable)}",
                "leave them out, add an acceptance/ folder beside their YAML, or use --rubric seed")

    def hidden_paths(self, db: str | None = None) -> tuple[Path, ...]:
        """What no trial may see (`Confinement.hidden`): every challenge folder (the built-in ones,
        `--challenges`, each selected challenge's own root) with the git folder holding it, the
        repositories brownfield challenges start from (their later commits are the answers), the
        results folder and the database (`db`: as given to `agentbench run`), the cache."""
        from agentbench.loader import builtin_challenges_dir
        from agentbench.store.database import locate
        from agentbench.workspace import SHARED_CACHE, cache_dir, home_cache

        roots = [builtin_challenges_dir(), *map(Path, self.challenge_dirs),
                 *(c.source_path.parents[1] for c in self.challenges),
                 *(c.workspace.repo for c in self.challenges if c.workspace and c.workspace.repo)]
        found = [*roots, *(g for root in roots for g in _git_dirs(Path(root).absolute())),
                 *(c for root in roots for c in _worktree_copies(Path(root).absolute())),
                 self.results_dir, cache_dir(), home_cache(), SHARED_CACHE]
        location = locate(db, self.results_dir)
        if location.kind == "sqlite":
            found += [Path(location.target + suffix) for suffix in ("", "-wal", "-shm", "-journal")]
        return tuple(dict.fromkeys(Path(os.path.realpath(p)) for p in found))

    @property
    def run_dir(self) -> RunDir:
        """This run's folder."""
        return RunDir(self.results_dir / self.run_id)


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


def trial_keys(config: RunConfig) -> tuple[tuple[str, str, int], ...]:
    """(agent, challenge ID, trial) of every planned trial."""
    return tuple((s.agent, s.challenge.id, s.trial) for s in plan_trials(config))


def _git_dirs(folder: Path) -> list[Path]:
    """The git folders of the repository holding `folder` (its `.git`, or for a linked worktree
    its own git folder and the common one): their history holds the challenges too."""
    for parent in (folder, *folder.parents):
        dotgit = parent / ".git"
        try:
            if dotgit.is_dir():
                return [dotgit]
            if not dotgit.is_file():
                continue
            text = dotgit.read_text(encoding="utf-8", errors="replace")[:4096]
        except OSError:
            return []
        if not text.startswith("gitdir:"):
            return [dotgit]
        own = parent / text.removeprefix("gitdir:").strip()
        common = own / "commondir"
        try:
            return [own, own / common.read_text(encoding="utf-8").strip()] if common.is_file() else [own]
        except OSError:
            return [own]
    return []


def _worktree_copies(folder: Path) -> list[Path]:
    """`folder`'s counterpart in every other worktree of the git repository holding it (the main
    one and each linked one, from the common git folder's `worktrees/*/gitdir`): each holds its
    own copy of the challenges."""
    top = next((p for p in (folder, *folder.parents) if (p / ".git").exists()), None)
    gits = _git_dirs(folder)
    if top is None or not gits:
        return []
    common = Path(os.path.realpath(gits[-1]))
    tops = [common.parent] if common.name == ".git" else []
    try:
        links = sorted((common / "worktrees").glob("*/gitdir"))
        tops += [Path(link.read_text(encoding="utf-8", errors="replace")[:4096].strip()).parent
                 for link in links]
    except OSError:
        pass
    rel = folder.relative_to(top)
    own = os.path.realpath(top)
    return [t / rel for t in tops if os.path.realpath(t) != own and (t / rel).exists()]


def now_iso() -> str:
    """The current UTC time, ISO-8601 to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")
