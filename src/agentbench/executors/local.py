"""The local executor: a thread pool on this machine (trials mostly wait on subprocesses, so threads
scale). Trials write their folders in place; `cancel` sets the run's flag and kills every process
carrying the run's marker."""

from __future__ import annotations

import threading
from collections.abc import Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait

from agentbench import process
from agentbench.executors.base import RunContext, prepare_shared
from agentbench.models import TrialRecord
from agentbench.plan import TrialSpec
from agentbench.trial import Cancel, Cancelled, RunShared, attempts


class LocalExecutor:
    """Runs `config.jobs` trials at once in threads of this process."""

    def __init__(self, context: RunContext) -> None:
        self.context = context
        self.cancelled = Cancel(threading.Event(), context.marker)

    def submit(self, specs: Sequence[TrialSpec]) -> Generator[TrialRecord, None, None]:
        """Run `specs` in order, `jobs` at once; yield records as trials end."""
        if not specs:
            return
        context = self.context
        shared = prepare_shared(context.config, {s.challenge for s in specs}, context.versions,
                                context.announce, db=context.db)
        pending, jobs = list(reversed(specs)), context.config.jobs
        with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="trial") as pool:
            running: set[Future[TrialRecord | None]] = set()
            try:
                while pending or running:
                    while pending and len(running) < jobs:
                        running.add(pool.submit(self._trial, pending.pop(), shared))
                    finished, running = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        if (record := future.result()) is not None:
                            yield record
            except BaseException:
                self.cancel()
                raise

    def _trial(self, spec: TrialSpec, shared: RunShared) -> TrialRecord | None:
        self.context.started(spec)
        try:
            return attempts(spec, self.context.config, shared, self.cancelled)
        except Cancelled:
            return None

    def cancel(self) -> None:
        """Stop the trials: the flag makes them abandon their next step, the kill ends their processes."""
        self.cancelled.event.set()
        process.kill_marked(process.RUN_MARKER_VARIABLE, self.context.marker)
