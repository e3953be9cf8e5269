"""The Markdown report (`agentbench report results/ --output comparison.md`), pure.

It opens with the seed's two tables (aggregate per agent, score per challenge), then the intervals,
the component breakdown, hidden tests, time and cost, tiers, the paired verdicts and the notes. Text
that comes from results files (agent names, challenge IDs, notes) is escaped, so a name such as
`a|b<script>` can neither break a table nor inject HTML into a rendered page.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from agentbench.comparison import Comparison, Verdict, format_interval
from agentbench.report import (
    component_columns,
    count,
    money,
    number,
    pass_at_columns,
    seconds,
    status_summary,
)

_INLINE = re.compile(r"([\\`*_\[\]<>&|~])")
_LINE_START = re.compile(r"^(\d+(?=[.)])|)([#+=.)-])")


def md_escape(value: object) -> str:
    """Untrusted text made inert in Markdown: no HTML, no table breaks, no formatting, one line.

    Every character CommonMark or GitHub tables could act on is backslash-escaped (`\\<`, `\\|`,
    `\\[`...), and so is a leading `#`, `-`, `+`, `=` or `1.` that could start a block.
    """
    text = " ".join(str(value).split())
    text = "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in text)
    text = _INLINE.sub(r"\\\1", text)
    return _LINE_START.sub(r"\1\\\2", text)


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


def _spread_table(c: Comparison) -> str:
    def cell_text(agent: str, cid: str) -> str:
        cell = c.cell(agent, cid)
        if cell is None:
            return "-"
        sd = "" if cell.summary.sd is None else f" ± {cell.summary.sd:.1f}"
        return f"{cell.summary.mean:.1f}{sd} (n={cell.summary.n})"

    agents = [a.label for a in c.agents]
    return _table(["Challenge", *(md_escape(a) for a in agents)],
                  [[md_escape(cid), *(cell_text(a, cid) for a in agents)] for cid in c.challenges])


def _stats_table(c: Comparison) -> str:
    ks = pass_at_columns(c)
    rows = [[md_escape(a.label), number(a.aggregate), format_interval(a.interval).split(" CI ")[-1],
             str(a.trials_per_challenge), count(a.solved, a.attempts),
             *(number(dict(a.pass_at).get(k), percent=True) for k in ks)] for a in c.agents]
    return _table(["Agent", "Aggregate", f"{c.confidence:.0%} CI", "Trials per challenge",
                   "Solved hidden tests", *(f"pass@{k}" for k in ks)], rows)


def _components_table(c: Comparison) -> str:
    columns = component_columns(c.rubric)
    rows = [[md_escape(a.label), *(number(dict(a.components)[name]) for name, _ in columns),
             number(a.aggregate)] for a in c.agents]
    return _table(["Agent", *(f"{name.capitalize()} ({weight:g})" for name, weight in columns),
                   "Total"], rows)


def _usage_table(c: Comparison) -> str:
    rows = [[md_escape(a.label), seconds(a.mean_time_s), number(a.mean_input_tokens, digits=0),
             number(a.mean_output_tokens, digits=0), money(a.mean_cost_usd),
             money(a.total_cost_usd), md_escape(status_summary(a.statuses))] for a in c.agents]
    return _table(["Agent", "Time per trial", "Input tokens per trial", "Output tokens per trial",
                   "Cost per trial", "Total cost", "Trials"], rows)


def _tier_table(c: Comparison) -> str:
    rows = [[md_escape(tier), *(number(next((t.score for t in a.tiers if t.tier == tier), None))
                                for a in c.agents)] for tier in c.tiers]
    return _table(["Tier", *(md_escape(a.label) for a in c.agents)], rows)


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
        f"Intervals: {c.confidence:.0%} Student t (Welch-Satterthwaite); verdicts: stratified "
        f"permutation test and McNemar's exact test at alpha={c.alpha:g}.",
        "\n".join(runs),
    ]


def _link(prefix: str, run_id: str) -> str:
    from urllib.parse import quote

    base = prefix.rstrip("/") + "/" if prefix else ""
    return base + quote(run_id, safe="") + "/"


def render_markdown(comparison: Comparison, *, links: Mapping[str, str] | None = None) -> str:
    """The Markdown report of a comparison.

    Args:
        comparison: What to report.
        links: Agent label -> URL prefix of its results folder; each listed agent's run ID
            becomes a link to its run folder.
    """
    c = comparison
    parts = [
        *_header(c, links or {}),
        *_seed_tables(c),
        "## Confidence intervals and hidden tests", _stats_table(c),
        "## Score breakdown (mean points per challenge)", _components_table(c),
        "## Spread over trials (mean ± standard deviation)", _spread_table(c),
        "## Time, tokens and cost", _usage_table(c),
        "## By tier", _tier_table(c),
        "## Paired verdicts", "\n".join(_verdict_lines(c.verdicts)),
    ]
    if c.notes:
        parts += ["## Notes", "\n".join(f"- {md_escape(n)}" for n in c.notes)]
    parts.append("How to read this report: see docs/reporting.md in the AgentBench repository.")
    return "\n\n".join(parts) + "\n"
