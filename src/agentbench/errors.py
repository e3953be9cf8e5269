"""The AgentBench error tree: every error the tool raises on purpose.

    AgentBenchError                 base; .message, .hint; exit code 1 unless a subclass says otherwise
    ├── UsageError (exit 2)         the user can fix the input
    │   ├── ChallengeError          path, field, problem, hint
    │   ├── ConfigError             agents config file problems
    │   ├── ResultsFileError        corrupt / other schema version / different challenges
    │   └── UnknownAdapterError     name, available, hint
    └── RunError (exit 1)           the run itself could not proceed (e.g. results dir not writable)

Per-trial failures (an agent that crashes or times out) are data in the trial record, not exceptions.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


class AgentBenchError(Exception):
    """Base of every error AgentBench raises on purpose."""

    exit_code: int = 1

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class UsageError(AgentBenchError):
    """Bad input the user can fix (exit code 2)."""

    exit_code = 2


class ChallengeError(UsageError):
    """A challenge file is malformed: names the file, the field, the problem and how to fix it."""

    def __init__(
        self, path: Path | str, field: str | None, problem: str, hint: str | None = None
    ) -> None:
        self.path = Path(path)
        self.field = field
        self.problem = problem
        where = f"{path}: field '{field}'" if field else f"{path}"
        super().__init__(f"{where}: {problem}", hint)


class ConfigError(UsageError):
    """The agents configuration file is malformed."""


class ResultsFileError(UsageError):
    """A results file is corrupt, of another schema version, or does not match its peers."""

    def __init__(self, path: Path | str, reason: str, hint: str | None = None) -> None:
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"{path}: {reason}", hint)


class UnknownAdapterError(UsageError):
    """No adapter is registered under the requested name."""

    def __init__(self, name: str, available: Sequence[str], hint: str | None = None) -> None:
        self.name = name
        self.available = tuple(available)
        shown = ", ".join(self.available) or "none"
        super().__init__(
            f"unknown agent '{name}' (available: {shown})",
            hint or "run `agentbench agents` to list adapters, or register one (see README)",
        )


class RunError(AgentBenchError):
    """The run itself could not proceed (e.g. the results directory is not writable)."""


class RunInterruptedError(AgentBenchError):
    """The user interrupted a run (Ctrl-C); its hint is the exact command that resumes it."""

    exit_code = 130


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP reached AgentBench: handled exactly like Ctrl-C (everything the run started
    is killed, finished trials are kept), exiting with 128 + the signal's number (143, 129)."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"signal {signum}")
        self.signum = signum

    @property
    def exit_code(self) -> int:
        """The shell's convention for a process ended by this signal."""
        return 128 + self.signum


def interrupt_exit_code(exc: BaseException) -> int:
    """130 for Ctrl-C, 128 + the signal for SIGTERM and SIGHUP."""
    return exc.exit_code if isinstance(exc, Terminated) else 130


class Interrupted(Exception):
    """The run was interrupted (Ctrl-C): the current trial is abandoned, never recorded.

    Deliberately not an AgentBenchError: nothing may turn it into a trial status.
    """
