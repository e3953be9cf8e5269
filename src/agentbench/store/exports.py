"""The latest export `results/<agent>.json`: the agent's newest trials per challenge, and what it replaced.

Each run writes its own results file (`<run-id>/<agent>.json`, never replaced by another run); the
latest export beside the run folders is rewritten from the database after every run, so the seed's
workflow (`compare results/a.json results/b.json`, `report results/`) sees every challenge an agent
has run, each from its newest run. What the file held before is summarised in words, for `run` to
print.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from agentbench.errors import AgentBenchError
from agentbench.models import RunRecord
from agentbench.store.database import Connection
from agentbench.store.folders import read_results, write_results
from agentbench.store.views import latest


def sources(record: RunRecord) -> dict[str, str]:
    """Challenge ID -> the run its trials come from (a merged record's `../<run>/` prefixes)."""
    found: dict[str, str] = {}
    for t in record.trials:
        parts = t.logs_dir.split("/")
        found[t.challenge_id] = parts[1] if parts[0] == ".." and len(parts) > 1 else record.run_id
    return found


@dataclass(frozen=True, slots=True, kw_only=True)
class ExportChange:
    """What writing an agent's latest export changed."""

    path: Path
    """The file written."""
    agent: str
    """Whose results."""
    before: dict[str, str] | None
    """Challenge -> run of the file it replaced (None: there was no readable file)."""
    after: dict[str, str]
    """Challenge -> run of the file written."""
    existed: bool
    """Whether a file was there before (readable or not)."""

    def describe(self) -> str:
        """One sentence: what the file holds now, and what it held."""
        now = f"{self.agent}@latest: {_spread(self.after)}"
        if not self.existed:
            return f"wrote {self.path} ({now})"
        if self.before is None:
            return f"replaced {self.path}, which was not a readable results file; now {now}"
        newer = sorted(c for c, run in self.after.items() if c in self.before and self.before[c] != run)
        added = sorted(set(self.after) - set(self.before))
        changes = [f"newer trials for {_few(newer)}"] if newer else []
        changes += [f"added {_few(added)}"] if added else []
        return (f"replaced {self.path}: it held {_spread(self.before)}; now {now}"
                + (f" ({'; '.join(changes)})" if changes else ""))


def _spread(by_challenge: dict[str, str]) -> str:
    runs = Counter(by_challenge.values())
    if len(runs) == 1:
        return f"{len(by_challenge)} challenge(s) from run {next(iter(runs))}"
    listed = ", ".join(f"{run} ({n})" for run, n in runs.most_common())
    return f"{len(by_challenge)} challenge(s) from runs {listed}"


def _few(items: list[str]) -> str:
    shown = ", ".join(items[:4])
    return f"{len(items)} challenge(s): {shown}" + (", ..." if len(items) > 4 else "")


def write_latest(connection: Connection, results_dir: Path, agent: str) -> ExportChange:
    """Rewrite `results_dir/<agent>.json` from the database's latest view of `agent`."""
    path = results_dir / f"{agent}.json"
    existed = path.exists()
    try:
        before = sources(read_results(path)) if existed else None
    except AgentBenchError:
        before = None
    view = latest(connection, agent)
    write_results(path, view.record)
    return ExportChange(path=path, agent=agent, before=before, after=sources(view.record),
                        existed=existed)
