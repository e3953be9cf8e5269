"""The Dask executor: fans tasks out over a Dask `distributed` cluster (an optional extra).

`address` is a scheduler such as tcp://10.0.0.5:8786; None starts a local cluster. Install with
`pip install "agentbench[dask]"` on the client and on every worker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from agentbench.errors import RunError

T = TypeVar("T")
R = TypeVar("R")


def run_dask(tasks: Sequence[T], fn: Callable[[T], R], on_result: Callable[[R], None],
             address: str | None) -> None:
    """Submit every task to the cluster and hand each result to `on_result` as it completes."""
    client = _client(address)
    try:
        futures = client.map(fn, list(tasks), pure=False)
        try:
            for future in _as_completed(futures):
                on_result(future.result())
        except BaseException:
            client.cancel(futures)
            raise
    finally:
        client.close()


def _client(address: str | None) -> Any:
    try:
        from distributed import Client
    except ImportError:
        raise RunError("--executor dask needs Dask distributed",
                       'install it with: pip install "agentbench[dask]"') from None
    try:
        if not address:
            return Client(processes=True, dashboard_address=None)  # type: ignore[no-untyped-call]
        _probe(address)
        return Client(address, timeout=30)  # type: ignore[no-untyped-call]
    except OSError as exc:
        raise RunError(f"cannot reach the Dask scheduler at {address}: {exc}",
                       "check --address (e.g. tcp://HOST:8786) and that the scheduler runs") from None


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
    client = _client(address)
    try:
        return dict(client.run(fn, *args))
    finally:
        client.close()
