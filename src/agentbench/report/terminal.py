"""Rich tables for the terminal: challenge lists and per-trial score breakdowns.

Every cell is a `rich.text.Text`, never markup, so text from challenges or agents cannot inject styles
or escape sequences into the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from agentbench.models import Challenge, RunRecord, TrialRecord, TrialStatus
from agentbench.scoring import aggregate_score

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


def run_table(run: RunRecord) -> Table:
    """Per-trial score breakdown of one agent's run."""
    table = Table(title=safe_text(f"{run.agent} — rubric: {run.rubric}"))
    for column in ("Challenge", "#", "Score", "Build", "Tests", "Cov.", "Qual.",
                   "Compl.", "Eff.", "Hidden tests", "Time", "Tokens in/out", "Cost", "Status"):
        table.add_column(column, justify="left" if column in ("Challenge", "Status") else "right",
                         no_wrap=True)
    for t in run.trials:
        s = t.score
        table.add_row(
            safe_text(t.challenge_id), Text(str(t.trial)),
            Text("-" if s is None else f"{s.total:.1f}", style="bold"),
            *(points_cell(getattr(s, part) if s else None)
              for part in ("build", "tests", "coverage", "quality", "completeness", "efficiency")),
            acceptance_cell(t),
            Text(f"{t.adapter.time_taken_seconds:.1f}s" if t.adapter else "-"),
            Text(_tokens(t)),
            Text(f"${t.adapter.cost_usd:.4f}" if t.adapter and t.adapter.cost_usd is not None else "-"),
            safe_text(t.status.value, _STATUS_STYLE[t.status]),
        )
    return table


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
