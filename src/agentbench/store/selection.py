"""What `compare` and `report` are given: results files, run IDs, `agent@run-id` and `agent@latest`.

An argument naming an existing file is a results file (as in the seed); otherwise it is looked up
in the results database: `AGENT@latest` (the agent's newest trials of every challenge it ran),
`AGENT@RUN_ID` (one agent of one run) or `RUN_ID` (every agent of that run). Each selection carries
the model it was run with and the results folder holding its run folder, for the report's links.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agentbench.errors import AgentBenchError, ResultsFileError, UsageError
from agentbench.models import RunRecord
from agentbench.store.database import Connection, locate
from agentbench.store.folders import PLAN_NAME, RunDir, read_results
from agentbench.store.opening import connect
from agentbench.store.views import latest, run_record, run_row


@dataclass(frozen=True, slots=True, kw_only=True)
class Selected:
    """One agent's results, as named on the command line."""

    record: RunRecord
    source: str
    """The argument it came from (or the file read)."""
    model: str | None
    """The model its run asked for (None: the CLI's default, or unknown)."""
    results_dir: Path | None
    """The folder holding its run folder (None: unknown)."""


def select(specs: Sequence[str], results_dir: Path, db: str | None) -> list[Selected]:
    """Resolve every argument, in order; the database is opened only if one needs it."""
    connection: Connection | None = None
    out: list[Selected] = []
    try:
        for spec in specs:
            if looks_like_file(spec):
                out.append(from_file(Path(spec)))
                continue
            if connection is None:
                connection = connect(locate(db, results_dir), create=False)
            out.extend(from_database(connection, spec))
    finally:
        if connection is not None:
            connection.close()
    return out


def looks_like_file(spec: str) -> bool:
    """An existing file, or a path (run IDs and agent names hold no `/` and do not end `.json`)."""
    return Path(spec).is_file() or "/" in spec or spec.endswith(".json")


def from_file(path: Path) -> Selected:
    """A results file, with the model and folder of its run when its run folder is beside it
    (`results/<agent>.json` beside `results/<run-id>/`, or the run's own `<run-id>/<agent>.json`)."""
    record = read_results(path)
    model, folder = None, None
    for parent in (path.parent, path.parent.parent):
        run_dir = RunDir(parent / record.run_id)
        if not run_dir.root.is_dir():
            continue
        folder = parent if (run_dir.root / "trials").is_dir() else None
        if (run_dir.root / PLAN_NAME).is_file():
            with contextlib.suppress(AgentBenchError):
                model = run_dir.read_plan().model_of(record.agent)
        break
    return Selected(record=record, source=str(path), model=model, results_dir=folder)


def from_database(connection: Connection, spec: str) -> list[Selected]:
    """`AGENT@latest`, `AGENT@RUN_ID` or `RUN_ID`, from the results database."""
    agent, at, ref = spec.rpartition("@")
    if at and not agent:
        raise UsageError(f"{spec!r}: no agent before '@'", "write AGENT@RUN_ID or AGENT@latest")
    if at and ref == "latest":
        view = latest(connection, agent)
        head = run_row(connection, view.record.run_id)
        return [Selected(record=view.record, source=spec, model=view.model,
                         results_dir=Path(head.results_dir))]
    try:
        run = run_row(connection, ref)
    except UsageError as exc:
        if "starts" in exc.message:  # a prefix of several run IDs
            raise
        raise UsageError(f"{spec!r} is not a results file, and {connection.location.shown} has no "
                         f"run {ref!r}", "pass a results file, a run ID (or a unique prefix of "
                         "one, or `latest`), AGENT@RUN_ID or AGENT@latest (see `agentbench runs`)"
                         ) from None
    models = {a: m for a, m, _ in run.agent_models}
    return [Selected(record=run_record(connection, run, a), source=f"{a}@{run.run_id}",
                     model=models.get(a, run.model), results_dir=Path(run.results_dir))
            for a in ([agent] if at else run.agents)]


def check_shared(selected: Sequence[Selected]) -> None:
    """Refuse results that share no scored challenge, saying which challenges each one holds."""
    sets = [(s.source, {t.challenge_id for t in s.record.trials if t.scored}) for s in selected]
    sets = [(source, held) for source, held in sets if held]
    if len(sets) < 2 or any(a & b for i, (_, a) in enumerate(sets) for _, b in sets[i + 1:]):
        return
    held = "; ".join(f"{source} holds {_listed(cids)}" for source, cids in sets)
    raise ResultsFileError(", ".join(s for s, _ in sets),
                           f"these results share no challenge, so they cannot be compared: {held}",
                           "compare AGENT@latest (each agent's newest trials of every challenge it "
                           "ran), or run the agents on the same challenges")


def _listed(cids: set[str]) -> str:
    shown = sorted(cids)
    return f"{len(shown)} challenge(s): {', '.join(shown[:6])}" + (", ..." if len(shown) > 6 else "")
