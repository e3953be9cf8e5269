"""The local executor: a thread pool (trials mostly wait on subprocesses, so threads scale)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from typing import TypeVar

T = TypeVar("T")


def run_local(tasks: Sequence[T], fn: Callable[[T], None], *, jobs: int,
              on_interrupt: Callable[[], None]) -> None:
    """Run `fn` on every task, `jobs` at once, in order; on any exception or Ctrl-C, call
    `on_interrupt` (which must make running tasks end quickly), wait for them, and re-raise."""
    pending = list(reversed(tasks))
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="trial") as pool:
        running: set[Future[None]] = set()
        try:
            while pending or running:
                while pending and len(running) < jobs:
                    running.add(pool.submit(fn, pending.pop()))
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for future in finished:
                    future.result()
        except BaseException:
            on_interrupt()
            raise
