"""The Markdown report (`agentbench report results/ --output comparison.md`), pure.

It opens with the seed's two tables (aggregate per agent, score per challenge), then the tables of
`report.views` (ranking with intervals, pairwise verdict matrices, breakdown, time and cost, trial
statuses, agents, tiers, spread), the verdicts in words and the notes. Text
that comes from results files (agent names, challenge IDs, notes) is escaped, so a name such as
`a|b<script>` can neither break a table nor inject HTML into a rendered page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from agentbench.comparison import CONDITIONAL, Comparison, Verdict
from agentbench.report import number, views
from agentbench.report.views import TableView

_INLINE = re.compile(r"([\\`*_\[\]<>&|~])")
_LINE_START = re.compile(r"^(\d+(?=[.)])|)([#+=.)-])(?!\d)")


def md_escape(value: object) -> str:
    """Untrusted text made inert in Markdown: no HTML, no table breaks, no formatting, one line.

    Every character CommonMark or GitHub tables could act on is backslash-escaped (`\\<`, `\\|`,
    `\\[`...), and so is a leading `#`, `-`, `+`, `=` or `1.` that could start a block (unless a
    digit follows it, as in `-6.6` or `58.2`).
    """
    return _LINE_START.sub(r"\1\\\2", md_cell(value))


def md_cell(value: object) -> str:
    """Untrusted text made inert inside a table cell (inline only: a cell cannot start a block)."""
    text = " ".join(str(value).split())
    text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)
    return _INLINE.sub(r"\\\1", text)


def _table(headers: Sequence[str], rows: Sequence[Sequence[str]], right_from: int = 1) -> str:
    align = ["---" if i < right_from else "--:" for i in range(len(headers))]
    lines = ["| " + " | ".join(headers) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _seed_tables(c: Comparison) -> list[str]:
    agents = [a.label for a in c.agents]
    aggregate = _table(
        ["Agent", "Aggregate Score", "Challenges"],
        [[md_escape(a.label), number(a.aggregate), str(a.challenges)] for a in c.agents])
    per_challenge = _table(
        ["Challenge", *(md_escape(a) for a in agents)],
        [[md_escape(cid), *(number(cell.summary.mean if (cell := c.cell(a, cid)) else None)
                            for a in agents)] for cid in c.challenges])
    return ["## Aggregate scores", aggregate, "## Per-challenge scores", per_challenge]


def _view(table: TableView) -> list[str]:
    """A table view as a heading, the table and its caption (every cell escaped)."""
    rows = [[md_cell(cell) for cell in row] for row in table.rows]
    parts = [f"## {md_escape(table.title)}",
             _table([md_cell(h) for h in table.headers], rows, right_from=table.left)]
    return parts + ([f"_{md_escape(table.caption)}_"] if table.caption else [])


def _verdict_lines(verdicts: Sequence[Verdict]) -> list[str]:
    lines = []
    for v in verdicts:
        lines.append(f"- **Score:** {md_escape(v.text)}")
        lines.append(f"  - Hidden tests: {md_escape(v.hidden_text)}")
        if v.power_text:
            lines.append(f"  - Power: {md_escape(v.power_text)}")
    return lines or ["- No pair of agents to compare."]


def _header(c: Comparison, links: Mapping[str, str]) -> list[str]:
    runs = []
    for a in c.agents:
        run = md_escape(a.run_id)
        if a.label in links:
            run = f"[{run}](<{_link(links[a.label], a.run_id)}>)"
        runs.append(f"- **{md_escape(a.label)}**: run {run}, written {md_escape(a.created_at)}")
    return [
        "# AgentBench comparison",
        f"{len(c.agents)} agent(s), {len(c.challenges)} challenge(s), rubric `{md_escape(c.rubric)}`. "
        f"{md_escape(_method(c))}",
        "\n".join(runs),
    ]


def _method(c: Comparison) -> str:
    if c.view == CONDITIONAL:
        return (f"Inference on these {len(c.challenges)} challenges only (--condition-on-"
                f"challenges): {c.confidence:.0%} Welch-Satterthwaite t intervals from the "
                f"trial-to-trial spread; verdicts by a within-challenge permutation test, "
                f"Holm-adjusted over the pairs at alpha={c.alpha:g}.")
    return (f"Inference over challenges like these: {c.confidence:.0%} Student t intervals over "
            f"challenges; verdicts by a sign-flip test on per-challenge differences, "
            f"Holm-adjusted over the pairs at alpha={c.alpha:g}.")


def _link(prefix: str, run_id: str) -> str:
    from urllib.parse import quote

    base = prefix.rstrip("/") + "/" if prefix else ""
    return base + quote(run_id, safe="") + "/"


def render_markdown(comparison: Comparison, *, links: Mapping[str, str] | None = None,
                    others: Sequence[tuple[str, Comparison]] = ()) -> str:
    """The Markdown report of a comparison.

    Args:
        comparison: What to report.
        links: Agent label -> URL prefix of its results folder; each listed agent's run ID
            becomes a link to its run folder.
        others: Extra ranking columns: (name, the same runs compared on another score).
    """
    c = comparison
    parts = [*_header(c, links or {}), *_seed_tables(c)]
    for table in (*views.after_seed(c, others), views.spread(c)):
        parts += _view(table)
    parts += ["## Paired verdicts in words", "\n".join(_verdict_lines(c.verdicts))]
    if c.notes:
        parts += ["## Notes", "\n".join(f"- {md_escape(n)}" for n in c.notes)]
    parts.append("How to read this report: see docs/reporting.md in the AgentBench repository.")
    return "\n\n".join(parts) + "\n"
