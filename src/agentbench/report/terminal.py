"""Rich tables for the terminal: challenge lists and per-trial score breakdowns.

Every cell is a `rich.text.Text`, never markup, so text from challenges or agents cannot inject styles
or escape sequences into the terminal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from agentbench.models import Challenge, RunRecord, TrialRecord, TrialStatus, known_cost
from agentbench.scoring import aggregate_score

if TYPE_CHECKING:
    from rich.console import Group

_STATUS_STYLE = {
    TrialStatus.COMPLETED: "green",
    TrialStatus.AGENT_ERROR: "red",
    TrialStatus.TIMEOUT: "red",
    TrialStatus.INFRA_ERROR: "yellow",
    TrialStatus.VERIFIER_ERROR: "yellow",
}


def safe_text(value: object, style: str = "") -> Text:
    """Untrusted text as a Text cell, control characters (ANSI escapes included) made visible."""
    raw = str(value)
    cleaned = "".join(c if c.isprintable() or c in "\n\t" else f"\\x{ord(c):02x}" for c in raw)
    return Text(cleaned, style=style)


def id_column(table: Table, header: str, values: Sequence[str], floor: int = 0,
              **options: object) -> None:
    """Add a column of identifiers (run IDs, trial names, agents) that are never cut or wrapped:
    as wide as the longest (and at least `floor`); the other columns wrap to make room."""
    width = max([floor, len(header), *(len(value) for value in values)])
    table.add_column(header, no_wrap=True, min_width=width, **options)  # type: ignore[arg-type]


def challenge_table(challenges: Sequence[Challenge]) -> Table:
    """The `agentbench list` table."""
    table = Table(title=f"{len(challenges)} challenges")
    for column, justify in (("ID", "left"), ("Name", "left"), ("Tier", "left"),
                            ("Language", "left"), ("Time limit", "right"), ("Hidden tests", "center")):
        table.add_column(column, justify=justify, no_wrap=column == "ID")  # type: ignore[arg-type]
    for c in challenges:
        table.add_row(safe_text(c.id), safe_text(c.name), safe_text(c.tier), safe_text(c.language),
                      Text(f"{c.time_limit_minutes} min"), Text("yes" if c.acceptance else "-"))
    return table


def points_cell(value: float | None) -> Text:
    """Points with one decimal, a dash for none."""
    return Text("-" if value is None else f"{value:.1f}")


def acceptance_cell(trial: TrialRecord) -> Text:
    """`93% (14/15)` for the hidden tests, a dash when the challenge has none."""
    rate = trial.acceptance_rate
    if rate is None or trial.measurements is None or trial.measurements.acceptance is None:
        return Text("-")
    tests = trial.measurements.acceptance.tests
    return Text(f"{rate:.0%} ({tests.passed}/{tests.total})")


WIDE_LAYOUT_COLUMNS = 170
"""From this terminal width on, one table holds everything; below it, two narrower tables."""

_PARTS = ("build", "tests", "coverage", "quality", "completeness", "efficiency")
_PART_HEADS = ("Build", "Tests", "Cov.", "Qual.", "Compl.", "Eff.")


def run_table(run: RunRecord, width: int = WIDE_LAYOUT_COLUMNS) -> Group:
    """Per-trial scores of one agent's run, laid out to read at `width` columns (80 and up).

    Columns every trial leaves empty (tokens, cost) are left out. Wide terminals get one table;
    narrower ones get the scores first (seed, verified, hidden tests, status), then the breakdown
    and time, then tokens and cost.
    """
    from rich.console import Group

    columns = [c for c in _COLUMNS if c.name not in ("Tokens in/out", "Cost")
               or any(c.cell(t).plain != "-" for t in run.trials)]
    title = safe_text(f"{run.agent} — rubric: {run.rubric}")
    if width >= WIDE_LAYOUT_COLUMNS:
        return Group(_table(title, [c for c in columns if c.name != "Points"], run.trials))
    groups = (("Score", "Verified", "Hidden tests", "Status"), ("Points", "Time"), ("Tokens in/out", "Cost"))
    titles = (title, Text("points per component: " + " ".join(_PART_HEADS)), Text("usage"))
    tables = []
    for heading, names in zip(titles, groups, strict=True):
        picked = [c for c in columns if c.name in ("Challenge", "#", *names)]
        if len(picked) > 2:
            tables.append(_table(heading, picked, run.trials))
    return Group(*tables)


@dataclass(frozen=True, slots=True)
class _Column:
    name: str
    cell: Callable[[TrialRecord], Text]
    wraps: bool = False


def _table(title: Text, columns: Sequence[_Column], trials: Sequence[TrialRecord]) -> Table:
    table = Table(title=title, padding=(0, 1))
    for column in columns:
        table.add_column(column.name, justify="left" if column.name in ("Challenge", "Status", "Points")
                         else "right", no_wrap=not column.wraps, overflow="fold")
    for trial in trials:
        table.add_row(*(column.cell(trial) for column in columns))
    return table


def _score(trial: TrialRecord, field: str) -> Text:
    score = getattr(trial, field)
    return Text("-" if score is None else f"{score.total:.1f}", style="bold" if field == "score" else "")


def _points(trial: TrialRecord) -> Text:
    s = trial.score
    return Text("-" if s is None else " ".join(f"{getattr(s, part):4.1f}" for part in _PARTS))


def _part(part: str) -> Callable[[TrialRecord], Text]:
    return lambda t: points_cell(getattr(t.score, part) if t.score else None)


def _seconds(trial: TrialRecord) -> Text:
    seconds = trial.agent_seconds if trial.agent_seconds is not None else (
        trial.adapter.time_taken_seconds if trial.adapter else None)
    return Text("-" if seconds is None else f"{seconds:.1f}s")


def _cost(trial: TrialRecord) -> Text:
    """The trial's cost; `unknown` (never $0) when the agent used tokens but no cost is known."""
    a = trial.adapter
    cost = known_cost(a)
    if cost is None:
        return Text("unknown" if a and (a.input_tokens or a.output_tokens) else "-")
    return Text(f"${cost:.4f}")


_COLUMNS: tuple[_Column, ...] = (
    _Column("Challenge", lambda t: safe_text(t.challenge_id), wraps=True),
    _Column("#", lambda t: Text(str(t.trial))),
    _Column("Score", lambda t: _score(t, "score")),
    _Column("Verified", lambda t: _score(t, "verified_score")),
    *(_Column(head, _part(part)) for head, part in zip(_PART_HEADS, _PARTS, strict=True)),
    _Column("Points", _points),
    _Column("Hidden tests", acceptance_cell),
    _Column("Time", _seconds),
    _Column("Tokens in/out", lambda t: Text(_tokens(t))),
    _Column("Cost", _cost),
    _Column("Status", lambda t: safe_text(t.status.value, _STATUS_STYLE[t.status])),
)
"""Every column a run table can show, in order (`Points` only in the narrow layout)."""


def _tokens(trial: TrialRecord) -> str:
    adapter = trial.adapter
    if adapter is None or (adapter.input_tokens is None and adapter.output_tokens is None):
        return "-"
    return f"{adapter.input_tokens or 0}/{adapter.output_tokens or 0}"


def aggregate_line(run: RunRecord) -> Text:
    """`Aggregate score: 97.9 (mean over 6 challenges)`."""
    value = aggregate_score(run.trials)
    challenges = len({t.challenge_id for t in run.trials if t.scored})
    shown = "n/a" if value is None else f"{value:.1f}"
    return Text.assemble((f"{run.agent}: ", "bold"), "aggregate score ",
                         (shown, "bold"), f" (mean over {challenges} challenges)")



def trial_cells(trial: TrialRecord | None) -> tuple[Text, Text]:
    """Score and hidden-test cells of one trial (dashes when it is missing)."""
    if trial is None:
        return Text("-"), Text("-")
    return points_cell(trial.score.total if trial.score else None), acceptance_cell(trial)
