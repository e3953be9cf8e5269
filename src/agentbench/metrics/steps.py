"""Measuring step by step: a step that raises counts zero, and says why.

Every step of measuring (`metrics.measure`) runs through `Steps.run`. An exception in a step does not
end the measuring of the trial: the step's components take their zero value (a failed build, no test
passed, nothing covered, no function analysed, no checklist item met, every hidden test failed), the
exception and its traceback go into the record (`Measurements.failures`) and into
`logs/verifier-exception.log`, and the next step runs.

Whether such a trial counts is not this module's decision: `agentbench.blame` asks whether the
harness's own measuring works on the challenge's reference in this run. If it does, the failure arose
from the agent's files and the trial is scored as measured here (the failing components zero); only
when it does not is the trial `verifier_error`. Two kinds of exception are never a step's failure:
`Interrupted` (the run is being cancelled) and the machine's own `OSError`s (`INFRA_ERRNOS`: disk full,
out of descriptors...), which remain `infra_error`; a full disk only when the disk is full without the
trials' files (`agentbench.diskroom`): an agent that fills it to make a copy of the harness's fail is
scored.
"""

from __future__ import annotations

import errno
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from agentbench import diskroom
from agentbench.errors import Interrupted
from agentbench.models import StepFailure

T = TypeVar("T")

INFRA_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EMFILE, errno.ENFILE,
                          errno.ENOMEM, errno.EIO})
"""OSErrors that are the machine's (disk full, read-only, out of descriptors...): infra_error."""

TRACEBACK_CHARS = 4000
"""How much of a failure's traceback the record keeps (the end of it; the log keeps it whole)."""

LOG_NAME = "verifier-exception.log"
"""Where each failed step's whole traceback goes, in the trial's `logs/`."""


class Steps:
    """The failures of one measuring (see the module docstring); `log_dir` gets the tracebacks."""

    def __init__(self, log_dir: Callable[[], Path], *, own_uid: bool = True) -> None:
        self._log_dir = log_dir
        self.own_uid = own_uid
        """The trial ran as AgentBench's own user (no trial user): its files are counted as the
        trial's when a full disk is checked (`diskroom.confirmed`)."""
        self.failures: list[StepFailure] = []

    def run(self, step: str, action: Callable[[], T], fallback: Callable[[], T]) -> T:
        """`action()`, or, when it raises, `fallback()` with the failure recorded."""
        try:
            return action()
        except Interrupted:
            raise
        except OSError as exc:
            if exc.errno in INFRA_ERRNOS and diskroom.confirmed(exc, own_uid=self.own_uid):
                raise
            self.record(step, exc)
        except Exception as exc:  # NOTE: any exception: the blame check decides whose it is
            self.record(step, exc)
        return fallback()

    def record(self, step: str, exc: BaseException) -> StepFailure:
        """Record `exc` (being handled) as `step`'s failure."""
        text = traceback.format_exc()
        failure = StepFailure(step=step, error=f"{type(exc).__name__}: {exc}"[:2000],
                              traceback=text[-TRACEBACK_CHARS:])
        self.failures.append(failure)
        try:
            with (self._log_dir() / LOG_NAME).open("a", encoding="utf-8", errors="backslashreplace") as log:
                log.write(f"--- measuring step '{step}' raised\n{text}\n")
        except OSError:
            pass
        return failure


def summary(failures: tuple[StepFailure, ...] | list[StepFailure]) -> str:
    """One line naming each failed step and its exception."""
    return "; ".join(f"{f.step}: {f.error}" for f in failures)
