"""The Dask executor: trials fanned out over a Dask `distributed` cluster (an optional extra).

`address` is a scheduler such as tls://10.0.0.5:8786 (its TLS settings come from Dask's own
configuration); None starts a local cluster on this machine that only this process can use: the
scheduler, nannies and workers listen on loopback and speak TLS with mutual authentication, under a
certificate made for the run and kept in memory (`Security.temporary()`), so a trial that finds
their ports in /proc/net/tcp cannot connect, let alone run code on a worker. Install with
`pip install "agentbench[dask]"` on the client and on every worker.

The wire types live here: a `RemoteTask` carries one trial's spec, the run's config and its
challenge's files (workers need no shared disk, only the agent CLIs installed); a `RemoteResult`
brings the record and the trial folder back as an archive, unpacked into the run folder here.
"""

from __future__ import annotations

import functools
import tempfile
import threading
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from agentbench import process, users
from agentbench.errors import RunError
from agentbench.executors.base import RunContext, agent_version, prepare_shared
from agentbench.models import AgentConfig, TrialRecord
from agentbench.plan import RunConfig, TrialSpec
from agentbench.sandbox import sandbox_named
from agentbench.trial import Cancel, attempts, scrub
from agentbench.workspace import pack_tree, unpack_tree

R = TypeVar("R")


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoteTask:
    """One trial shipped to a worker: its spec, the run's config and marker, the challenge's files."""

    spec: TrialSpec
    config: RunConfig
    bundle: bytes
    marker: str


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoteResult:
    """A trial's record and its trial folder (an archive) coming back from a worker."""

    record: TrialRecord
    archive: bytes


class DaskExecutor:
    """Runs trials as Dask tasks, on a scheduler at `config.executor_address` or a local cluster."""

    def __init__(self, context: RunContext) -> None:
        self.context = context
        self._client: Any = None
        self._futures: list[Any] = []

    def submit(self, specs: Sequence[TrialSpec]) -> Generator[TrialRecord, None, None]:
        """Ship every trial at once; unpack each trial folder and yield its record as it comes back."""
        if not specs:
            return
        config, marker = self.context.config, self.context.marker
        bundles = {c.id: pack_tree(c.source_path.parent / c.source_path.stem, extra=(c.source_path,))
                   for c in {s.challenge for s in specs}}
        tasks = [RemoteTask(spec=s, config=config, bundle=bundles[s.challenge.id], marker=marker)
                 for s in specs]
        with open_client(config.executor_address) as client:
            self._client = client
            self._futures = client.map(remote_trial, tasks, pure=False)
            for spec in specs:
                self.context.started(spec)
            try:
                for future in _as_completed(self._futures):
                    result: RemoteResult = future.result()
                    record = result.record
                    unpack_tree(result.archive,
                                config.run_dir.trial_dir(record.agent, record.challenge_id, record.trial))
                    yield record
            except BaseException:
                self.cancel()
                raise

    def cancel(self) -> None:
        """Cancel the tasks and, on every worker, end the run's trials and kill their processes."""
        if self._client is None:
            return
        self._client.cancel(self._futures)
        self._client.run(cancel_on_worker, self.context.marker)


_CANCELLED: dict[str, threading.Event] = {}
"""On a worker: the cancellation flag of each run it has trials of (by run marker)."""


def _flag(marker: str) -> threading.Event:
    return _CANCELLED.setdefault(marker, threading.Event())


def cancel_on_worker(marker: str) -> int:
    """Runs on each worker: flag the run cancelled and kill its processes there."""
    _flag(marker).set()
    return process.kill_marked(process.RUN_MARKER_VARIABLE, marker)


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
        version, isolation = _worker_facts(spec.agent, config.agent_configs, config.sandbox.name,
                                           config.trial_users_off)
        shared = prepare_shared(config, [challenge], {spec.agent: version}, isolation=isolation)
        shared = replace(shared, hidden_paths=(*shared.hidden_paths, *task.config.hidden_paths()))
        record = scrub(attempts(spec, config, shared, Cancel(_flag(task.marker), task.marker)),
                       config.run_dir.root, shared.secrets)
        trial_dir = config.run_dir.trial_dir(spec.agent, challenge.id, spec.trial)
        return RemoteResult(record=record, archive=pack_tree(trial_dir))


@functools.cache
def _worker_facts(agent: str, configs: tuple[tuple[str, AgentConfig], ...], sandbox_name: str,
                  users_off: str | None) -> tuple[str | None, str]:
    """(agent version, isolation label), found once per worker process and reused by its tasks.

    NOTE: a memo of what this machine is, not run state: a Dask worker runs many trials, and asking
    each time cost 9% of a trial."""
    sandbox = sandbox_named(sandbox_name)
    return agent_version(agent, configs, sandbox), users.isolation(sandbox, without_users=users_off).label


class open_client:
    """A Dask client: of the scheduler at `address`, or of a private local cluster (see the module)."""

    def __init__(self, address: str | None) -> None:
        self.address = address
        self._cluster: Any = None
        self._client: Any = None

    def __enter__(self) -> Any:
        try:
            from distributed import Client, LocalCluster
        except ImportError:
            raise RunError("--executor dask needs Dask distributed",
                           'install it with: pip install "agentbench[dask]"') from None
        try:
            if not self.address:
                self._cluster = LocalCluster(  # type: ignore[no-untyped-call]
                    processes=True, dashboard_address=None, host="127.0.0.1",
                    security=_private_security())
                self._client = Client(self._cluster)  # type: ignore[no-untyped-call]
            else:
                _probe(self.address)
                self._client = Client(self.address, timeout=30)  # type: ignore[no-untyped-call]
        except OSError as exc:
            self.__exit__()
            raise RunError(f"cannot reach the Dask scheduler at {self.address}: {exc}",
                           "check --address (e.g. tcp://HOST:8786) and that the scheduler runs") from None
        return self._client

    def __exit__(self, *_: object) -> None:
        for part in (self._client, self._cluster):
            if part is not None:
                part.close()


def _private_security() -> Any:
    """TLS with mutual authentication under a certificate made now and kept in memory."""
    try:
        from distributed.security import Security
    except ImportError:  # pragma: no cover - distributed always has it
        raise RunError("--executor dask: this Dask has no TLS support", "upgrade distributed") from None
    try:
        return Security.temporary()  # type: ignore[no-untyped-call]
    except ImportError:
        raise RunError("--executor dask without --address needs the cryptography package (for the "
                       "local cluster's private TLS certificate)",
                       'install it with: pip install "agentbench[dask]"') from None


def _as_completed(futures: Any) -> Any:
    from distributed import as_completed

    return as_completed(futures)  # type: ignore[no-untyped-call]


def _probe(address: str) -> None:
    """Fail in milliseconds, not after Dask's 30 s connect timeout, when nothing listens there."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.hostname and parts.port:
        socket.create_connection((parts.hostname, parts.port), timeout=5).close()


def run_on_workers(fn: Callable[..., R], address: str | None, *args: Any) -> dict[str, R]:
    """Run `fn(*args)` once on every worker; results by worker address."""
    with open_client(address) as client:
        return dict(client.run(fn, *args))
