"""The folder store: run-directory layout, atomic writes, resume, and reading results files.

    results/
      <agent>.json                      the latest export: the agent's newest trials per challenge
      agentbench.db                     the results database (see `store.database`)
      <run-id>/
        run.json                        the run plan: agents, challenges, trials, rubric
        <agent>.json                    the run's own results file, one per agent
        trials/<agent>/<tier>/<name>/trial-<n>/
          prompt.md  agent/  logs/  coverage.json  workspace/  record.json

A trial is finished when its `record.json` exists at its exact path and reads back as that trial's
record (nothing else in a trial folder is ever read as a record); every file is written to a temporary name and
renamed into place, so a crash never leaves a half-written record and a resumed run skips exactly the
finished trials.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from agentbench.errors import ResultsFileError, RunError, UsageError
from agentbench.models import RunRecord, TrialRecord
from agentbench.records import (
    MAX_RECORD_CHARS,
    dumps_run,
    dumps_trial,
    from_jsonable,
    loads_run,
    loads_trial,
    parse_json,
    to_jsonable,
)

RECORD_NAME = "record.json"
MAX_RECORD_BYTES = 64 * 1024 * 1024
"""A trial record larger than this is not read (it was not written by the harness)."""
PLAN_NAME = "run.json"


@dataclass(frozen=True, slots=True, kw_only=True)
class RunPlan:
    """What a run was asked to do, saved so it can be resumed."""

    run_id: str
    """The run's ID (its folder name)."""
    agents: tuple[str, ...]
    """Adapter names."""
    challenge_ids: tuple[str, ...]
    """Challenge IDs, in order."""
    challenge_dirs: tuple[str, ...]
    """Extra challenge folders the IDs were found in."""
    trials: int
    """Trials per (agent, challenge)."""
    rubric: str
    """Rubric for `score`."""
    model: str | None
    """Model passed to the agents, if any."""
    agents_config: str | None
    """Path of the agents config file (its values, which may hold secrets, are not copied)."""
    sandbox: str
    """Sandbox of the run (`none` or `bwrap`)."""
    agent_timeout_s: float | None
    """Agent time limit override in seconds (None: each challenge's own)."""
    created_at: str
    """ISO-8601 UTC creation time."""
    attempts: int = 1
    """Attempts per trial (`--attempts`: 2 gives a failing first attempt its tests' output)."""
    meter: bool = False
    """`--meter`: every agent's tokens counted by the harness's metering proxy."""
    agent_models: tuple[tuple[str, str], ...] = ()
    """(agent, model) for each agent whose model was set (`--model`, else its agents config
    entry); agents absent use the CLI's own default."""

    def model_of(self, agent: str) -> str | None:
        """The model `agent` was asked to use (None: the CLI's default)."""
        return dict(self.agent_models).get(agent, self.model)


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` through a temporary file and a rename (never half-written)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            # NOTE: names from an agent's workspace may hold undecodable bytes (surrogates): they are
            # written escaped rather than crash the run.
            with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, 0o666 & ~_umask())  # NOTE: mkstemp makes 0600; results are ordinary files
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise RunError(f"cannot write {path}: {exc.strerror or exc}",
                       "check that the results folder is writable and the disk is not full") from exc


def _umask() -> int:
    """The process's umask, read without changing it (Linux); 022 where it cannot be read."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022


@dataclass(frozen=True, slots=True)
class RunDir:
    """One run's folder."""

    root: Path

    def trial_dir(self, agent: str, challenge_id: str, trial: int) -> Path:
        """Folder of one trial."""
        return self.root / "trials" / agent / challenge_id / f"trial-{trial}"

    def results_file(self, agent: str) -> Path:
        """The run's own results file of `agent` (`<run-id>/<agent>.json`)."""
        if f"{agent}.json" == PLAN_NAME:
            raise UsageError(f"an agent may not be named {agent!r}: its results file would be the "
                             "run plan", "give the agent another name in the agents config file")
        return self.root / f"{agent}.json"

    def relative(self, path: Path) -> str:
        """`path` relative to the run folder."""
        return str(path.relative_to(self.root))

    def make(self) -> None:
        """Create the run folder (and the results folder holding it), readable by its owner only:
        it will hold every trial's archived workspace, which no other user (no trial) may read."""
        try:
            if not self.root.parent.exists():
                self.root.parent.mkdir(mode=0o700, parents=True)
            self.root.mkdir(mode=0o700, exist_ok=True)
            os.chmod(self.root, 0o700)
        except OSError as exc:
            raise RunError(f"cannot create {self.root}: {exc.strerror or exc}",
                           "check that the results folder is writable") from exc

    def write_plan(self, plan: RunPlan) -> None:
        """Save the run plan."""
        write_atomic(self.root / PLAN_NAME, json.dumps(to_jsonable(plan), indent=2) + "\n")

    def read_plan(self) -> RunPlan:
        """Load the run plan (for `--resume`)."""
        path = self.root / PLAN_NAME
        try:
            return from_jsonable(RunPlan, parse_json(path.read_text(encoding="utf-8"), str(path)))
        except FileNotFoundError:
            raise UsageError(f"{self.root} is not a run folder (no {PLAN_NAME})",
                             "pass the ID of a run under the results folder (see its subfolders)") from None
        except (ValueError, OSError) as exc:
            raise ResultsFileError(path, f"unreadable run plan: {exc}") from None

    def write_trial(self, record: TrialRecord) -> None:
        """Save a finished trial's record (this marks it finished)."""
        path = self.trial_dir(record.agent, record.challenge_id, record.trial) / RECORD_NAME
        write_atomic(path, dumps_trial(record))

    def finished(self, keys: Iterable[tuple[str, str, int]]) -> dict[tuple[str, str, int], TrialRecord]:
        """The finished trials among `keys` (agent, challenge ID, trial number).

        Only the record the harness writes for each planned trial is read, at its exact path (never a
        search through trial folders, whose archived workspaces hold anything an agent wrote). A
        record that is unreadable, malformed or about another trial counts as unfinished: the trial
        runs again and its record is replaced.
        """
        found = {}
        for key in keys:
            record = self._read_record(self.trial_dir(*key) / RECORD_NAME)
            if record is not None and (record.agent, record.challenge_id, record.trial) == key:
                found[key] = record
        return found

    @staticmethod
    def _read_record(path: Path) -> TrialRecord | None:
        try:
            if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_RECORD_BYTES:
                return None
            return loads_trial(path.read_text(encoding="utf-8"), str(path))
        except (OSError, UnicodeDecodeError, ResultsFileError, RecursionError):
            return None


def write_results(path: Path, run: RunRecord) -> None:
    """Write a per-agent results file atomically."""
    write_atomic(path, dumps_run(run))


def read_results(path: Path) -> RunRecord:
    """Read a results file, with a clear error when it is missing, corrupt or of another schema."""
    try:
        if path.stat().st_size > MAX_RECORD_CHARS:
            raise ResultsFileError(path, f"too large ({path.stat().st_size:,} bytes; at most "
                                   f"{MAX_RECORD_CHARS:,} are read)", "pass a results file written by "
                                   "`agentbench run` (results/<agent>.json)")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ResultsFileError(path, "no such file", "run `agentbench run` first") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ResultsFileError(path, f"cannot read: {exc}") from None
    return loads_run(text, str(path))
