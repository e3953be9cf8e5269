"""The HTML report: one self-contained page with inline SVG charts and the report's tables, pure.

The page opens with the answer (the ranking with intervals, the pairwise verdict matrices and the
notes), then the charts (geometry from `report.charts`), the tables, the verdicts in words and
every trial. It is drawn by the jinja2 template `templates/report.html.j2`, which has autoescaping
on: nothing from a results file reaches the page except through it, so every agent name,
challenge ID or note is escaped; colours and coordinates come only from this package. The page
needs no network and no JavaScript: no fonts, scripts or images are fetched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from importlib import resources
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from agentbench.comparison import CONDITIONAL, Comparison, TrialRow
from agentbench.report import count, money, number, seconds, views
from agentbench.report.charts import (
    agent_colour,
    all_charts,
    colours,
    heat_colour,
    nice_ticks,
    pareto_front,
)

if TYPE_CHECKING:
    from agentbench.store.history import History

UPRIGHT_FROM = 5
"""With more agents than this, tables whose columns are agents set the names upright."""

__all__ = ["agent_colour", "heat_colour", "nice_ticks", "pareto_front", "render_html",
           "trial_href"]


def trial_href(prefix: str, row: TrialRow) -> str | None:
    """Relative link to a trial's folder, every path segment percent-encoded (None if unsafe)."""
    parts = [p for p in row.logs_dir.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    base = quote(prefix.rstrip("/"), safe="/") + "/" if prefix else ""
    return base + "/".join(quote(p, safe="") for p in [row.run_id, *parts]) + "/"


def _challenge_rows(c: Comparison) -> list[dict[str, Any]]:
    rows = []
    for cid in c.challenges:
        cells = [c.cell(a.label, cid) for a in c.agents]
        rows.append({"id": cid, "cells": [
            {"mean": "-", "spread": ""} if cell is None else {
                "mean": number(cell.summary.mean),
                "spread": "" if cell.summary.sd is None
                else f"± {number(cell.summary.sd)}, n={cell.summary.n}"}
            for cell in cells]})
    return rows


def _trial_rows(c: Comparison, links: Mapping[str, str]) -> list[dict[str, Any]]:
    return [{
        "agent": t.agent, "challenge": t.challenge_id, "trial": t.trial, "status": t.status,
        "score": number(t.score),
        "hidden": "-" if t.hidden_total is None else count(t.hidden_passed or 0, t.hidden_total),
        "time": seconds(t.time_s), "cost": money(t.cost_usd),
        "href": trial_href(links[t.agent], t) if t.agent in links else None,
        "note": printable(t.note),
    } for t in c.trials]


def printable(text: str) -> str:
    """Control characters (ANSI escapes included) shown as \\xNN; HTML escaping is jinja2's job."""
    return "".join(ch if ch.isprintable() or ch == " " else f"\\x{ord(ch):02x}" for ch in text)


def _method(c: Comparison) -> str:
    if c.view == CONDITIONAL:
        return (f"on these {len(c.challenges)} challenges only (--condition-on-challenges): "
                f"{c.confidence:.0%} Welch-Satterthwaite intervals from the trial-to-trial "
                f"spread, within-challenge permutation tests")
    return (f"over challenges like these: {c.confidence:.0%} Student t intervals over challenges, "
            f"sign-flip tests on per-challenge differences")


def _trial_counts(c: Comparison) -> str:
    """`3`, or `1-3` when cells hold different numbers of scored trials."""
    counts = [n for a in c.agents for n in (a.trials_per_challenge, a.trials_most) if n]
    if not counts:
        return "0"
    low, high = min(counts), max(counts)
    return str(low) if low == high else f"{low}-{high}"


def _context(c: Comparison, links: Mapping[str, str], others: Sequence[tuple[str, Comparison]],
             histories: Sequence[History] = ()) -> dict[str, Any]:
    from agentbench.report.history import history_chart

    hidden = views.hidden_matrix(c)
    return {
        "c": c, "charts": (*all_charts(c), *(history_chart(h, i) for i, h in enumerate(histories))),
        "colours": colours(c),
        "summary": [views.ranking(c, others), views.score_matrix(c),
                    *((hidden,) if hidden else ())],
        "tables": [views.breakdown(c), views.usage(c), views.failures(c),
                   *(v for v in (views.behaviour(c), views.expectations(c)) if v is not None),
                   views.agents(c), views.tiers(c), *filter(None, [views.languages(c)])],
        "challenges": _challenge_rows(c), "trials": _trial_rows(c, links),
        "verdicts": [{"text": v.text, "hidden": v.hidden_text, "power": v.power_text,
                      "winner": v.winner} for v in c.verdicts],
        "has_links": any(t.agent in links for t in c.trials),
        "method": _method(c), "trial_counts": _trial_counts(c),
        "upright": len(c.agents) > UPRIGHT_FROM,
    }


def render_html(comparison: Comparison, *, links: Mapping[str, str] | None = None,
                others: Sequence[tuple[str, Comparison]] = (), histories: Sequence[History] = ()) -> str:
    """The HTML report of a comparison: one self-contained page.

    Args:
        comparison: What to report.
        links: Agent label -> URL prefix of its results folder (relative to the page); each
            listed agent's trials link to their folders (prompt, transcripts, logs).
        others: Extra ranking columns: (name, the same runs compared on another score).
        histories: Agents' scores over runs (from the results database), one chart each.
    """
    import jinja2

    source = resources.files("agentbench.report").joinpath("templates/report.html.j2")
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["number"] = number
    template = env.from_string(source.read_text(encoding="utf-8"))
    return template.render(**_context(comparison, links or {}, others, histories))
