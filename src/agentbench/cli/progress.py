"""The rich implementation of `runner.Progress`: a live bar with done / running / failed and an ETA."""

from __future__ import annotations

import textwrap
import threading
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text

from agentbench.models import TrialRecord, TrialStatus
from agentbench.runner import TrialSpec


class RichProgress:
    """Shows run progress on stderr; prints one line per finished trial."""

    def __init__(self) -> None:
        self._console = Console(stderr=True)
        self._bar = Progress(
            TextColumn("[bold]trials"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[status]}"), TimeRemainingColumn(),
            console=self._console, transient=True,
        )
        self._task = self._bar.add_task("trials", total=None, status="")
        self._lock = threading.Lock()
        self._running = self._failed = 0

    def __enter__(self) -> RichProgress:
        self._bar.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._bar.stop()

    def run_started(self, total: int, skipped: int) -> None:
        """Set the bar's size; already-finished trials count as done."""
        self._bar.update(self._task, total=total, completed=skipped)
        if skipped:
            self._bar.console.print(Text(f"resuming: {skipped} of {total} trials already done"))

    def note(self, message: str) -> None:
        """Print a line about what the run is doing (e.g. building the scoring environment),
        wrapped to the terminal with a hanging indent so each note reads as one block."""
        indent = " " * (len(message) - len(message.lstrip(" ")) + 2)
        wrapped = textwrap.fill(message, width=max(self._console.width, 40), subsequent_indent=indent,
                                break_long_words=False, break_on_hyphens=False)
        self._bar.console.print(Text(wrapped, style="dim"))

    def trial_started(self, spec: TrialSpec) -> None:
        """Count a running trial."""
        with self._lock:
            self._running += 1
            self._refresh()

    def trial_finished(self, record: TrialRecord) -> None:
        """Advance the bar and print the trial's one-line outcome."""
        with self._lock:
            self._running -= 1
            self._failed += record.status != TrialStatus.COMPLETED
            self._bar.advance(self._task)
            self._refresh()
        score = f"{record.score.total:5.1f}" if record.score else "  n/a"
        line = Text.assemble(f"{record.agent} {record.challenge_id} #{record.trial}: ",
                             (score, "bold"), f"  {record.status.value}")
        self._bar.console.print(line)

    def _refresh(self) -> None:
        status = f"running {self._running}  failed {self._failed}"
        self._bar.update(self._task, status=status)
