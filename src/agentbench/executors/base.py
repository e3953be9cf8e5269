"""The executor seam: one `Executor` protocol that every backend (local, dask) implements.

An executor is made for one run with a `RunContext` (the run's configuration, its process marker,
the agents' versions and two callbacks) and does two things: `submit(specs)` runs those trials and
yields each one's record as it finishes, its trial folder already in place under the run folder; and
`cancel()` ends every running trial at once (every process killed; unfinished trials yield nothing).
The runner writes, indexes and reports the records; it never knows where the trials ran.

Also here: what a run's trials share (`prepare_shared`), prepared on whatever machine runs them.
"""

from __future__ import annotations

import importlib
import tempfile
from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from agentbench import users
from agentbench.adapters.cli_base import CommandAdapter
from agentbench.adapters.registry import get_adapter
from agentbench.errors import UsageError
from agentbench.executors import BUILTIN
from agentbench.models import AgentConfig, Challenge, TrialRecord
from agentbench.plan import RunConfig, TrialSpec
from agentbench.redaction import Secret, environment_secrets
from agentbench.sandbox import Confinement, Sandbox
from agentbench.store import write_atomic
from agentbench.toolchains import MeasureContext, get_toolchain
from agentbench.toolchains.canaries import GENERATOR_VERSION, HiddenCatalog
from agentbench.trial import RunShared
from agentbench.workspace import cache_dir, make_trial_dirs, tree_digest


def _ignore(_: object) -> None:
    """A callback that does nothing."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RunContext:
    """What an executor is given for one run."""

    config: RunConfig
    """The run."""
    marker: str
    """The run's process marker: every process of its trials carries it (see `process.RunGuard`)."""
    versions: dict[str, str | None] = field(default_factory=dict)
    """Per agent: its CLI's version, asked once by the harness."""
    db: str | None = None
    """The results database as given (hidden from the trials)."""
    announce: Callable[[str], None] = _ignore
    """Something worth telling the user (e.g. a one-off build of a scoring environment)."""
    started: Callable[[TrialSpec], None] = _ignore
    """A trial was handed to a worker."""


class Executor(Protocol):
    """Where a run's trials run."""

    def submit(self, specs: Sequence[TrialSpec]) -> Generator[TrialRecord, None, None]:
        """Run `specs`; yield each record as its trial ends (its folder under the run folder).

        Closing the iterator early, or an exception while it runs, cancels what is still running."""
        ...

    def cancel(self) -> None:
        """End every running trial now: each process killed, nothing more yielded."""
        ...


def make_executor(name: str, context: RunContext) -> Executor:
    """The executor called `name` (see `agentbench.executors.BUILTIN`), made for one run."""
    if name not in BUILTIN:
        raise UsageError(f"unknown executor '{name}'", f"use one of: {', '.join(BUILTIN)}")
    module, _, cls = BUILTIN[name].partition(":")
    executor: Executor = getattr(importlib.import_module(module), cls)(context)
    return executor


def prepare_shared(config: RunConfig, challenges: Iterable[Challenge],
                   versions: dict[str, str | None] | None = None,
                   announce: Callable[[str], None] | None = None, *,
                   isolation: str | None = None, db: str | None = None) -> RunShared:
    """What the run's trials share: toolchain assets, hidden-test catalogs, isolation, secrets, and
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
                     secrets=run_secrets(config), versions=versions or {},
                     hidden_paths=config.hidden_paths(db))


def run_secrets(config: RunConfig) -> tuple[Secret, ...]:
    """Secrets of the harness's environment and of the agents' configured `env`."""
    return environment_secrets(pair for _, agent in config.agent_configs for pair in agent.env)


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


def agent_version(agent: str, configs: tuple[tuple[str, AgentConfig], ...],
                  sandbox: Sandbox) -> str | None:
    """One agent's version (its CLI checked first; a probe that must run it is confined like it)."""
    adapter = get_adapter(agent, dict(configs))
    if isinstance(adapter, CommandAdapter):
        adapter.preflight()
        return adapter.version(confinement=Confinement(sandbox=sandbox))
    return adapter.version()
