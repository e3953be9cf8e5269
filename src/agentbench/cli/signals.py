"""SIGTERM and SIGHUP handled like Ctrl-C, for as long as a command runs.

`kill`, `timeout`, a closed terminal or a stopping service end AgentBench through the same path as
Ctrl-C: a `Terminated` (a `KeyboardInterrupt`) is raised in the main thread, the runner kills every
process of the run, finished trials stay recorded, and the command exits 128 + the signal (143 for
SIGTERM, 129 for SIGHUP). Once one arrived, further ones are ignored so the clean-up can finish.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from types import FrameType

from agentbench.errors import Terminated

HANDLED = (signal.SIGTERM, signal.SIGHUP)
"""Signals turned into an interrupt."""


def _interrupt(signum: int, _frame: FrameType | None) -> None:
    for sig in HANDLED:
        signal.signal(sig, signal.SIG_IGN)
    raise Terminated(signum)


@contextlib.contextmanager
def signals_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM and SIGHUP raise `Terminated`; the previous handlers come back after.

    A no-op outside the main thread (only it may set handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # NOTE: a signal already ignored (`nohup` ignores SIGHUP) stays ignored.
    previous = {sig: signal.signal(sig, _interrupt) for sig in HANDLED
                if signal.getsignal(sig) is not signal.SIG_IGN}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
