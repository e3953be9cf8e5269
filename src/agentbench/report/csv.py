"""The per-trial table as CSV (`report --output trials.csv`), pure.

One row per trial, scored or not, with the agent's label, model, CLI version, rank and the
like-for-like score it is ranked by beside it, so a
spreadsheet or a script can redo any figure of the report. Text from results files (labels, notes,
errors) that a spreadsheet would read as a formula (a cell starting with `=`, `+`, `-`, `@`, a tab
or a carriage return) is prefixed with `'`, so opening the file runs nothing.
"""

from __future__ import annotations

import csv
import io

from agentbench.comparison import Comparison

COLUMNS: tuple[str, ...] = (
    "agent", "adapter", "model", "cli_version", "rank", "rank_score", "run_id", "challenge_id",
    "trial", "status",
    "score", "hidden_passed", "hidden_total", "time_s", "cost_usd", "cost_source", "input_tokens",
    "output_tokens", "logs_dir", "note", "tokens_source",
)
"""Header of the CSV file, in order."""

_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def inert(text: str) -> str:
    """Text a spreadsheet will not evaluate: a leading formula character gets a `'` before it."""
    return "'" + text if text.startswith(_FORMULA) else text


def _value(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    return str(value) if isinstance(value, int) else inert(str(value))


def render_csv(comparison: Comparison) -> str:
    """Every trial of the comparison, one CSV row each, with a header row."""
    agents = {a.label: a for a in comparison.agents}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for t in comparison.trials:
        a = agents[t.agent]
        writer.writerow([_value(v) for v in (
            t.agent, a.agent, a.model, a.cli_version, a.rank, a.rank_score, t.run_id,
            t.challenge_id, t.trial, t.status,
            t.score, t.hidden_passed, t.hidden_total, t.time_s, t.cost_usd, t.cost_source,
            t.input_tokens,
            t.output_tokens, t.logs_dir, t.note, t.tokens_source)])
    return out.getvalue()
