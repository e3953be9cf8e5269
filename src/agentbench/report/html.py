"""The HTML report: one self-contained file with inline SVG charts, pure.

The charts are computed here as geometry (frozen `Shape`s: rectangles, lines, circles, text) and
drawn by the jinja2 template `templates/report.html.j2`, which has autoescaping on. Nothing from a
results file is ever written into the page except through that template, so every agent name,
challenge ID or note is escaped; colours and coordinates come only from this module. The page needs
no network and no JavaScript: no fonts, scripts or images are fetched.

Charts: aggregate score with its confidence interval, the score breakdown per agent, a challenge x
agent heat map, score against time and against cost (with the Pareto frontier), and scores by tier.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any
from urllib.parse import quote

from agentbench.comparison import AgentSummary, Comparison, TrialRow, format_interval, format_p
from agentbench.report import (
    component_columns,
    count,
    money,
    number,
    pass_at_columns,
    seconds,
    status_summary,
)

AGENT_COLOURS: tuple[str, ...] = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#7F7F7F", "#000000",
)
"""Okabe-Ito palette (colour-blind safe), one colour per agent, cycling."""

COMPONENT_COLOURS: Mapping[str, str] = {
    "build": "#4E79A7", "tests": "#F28E2B", "coverage": "#59A14F", "quality": "#B07AA1",
    "completeness": "#EDC948", "efficiency": "#76B7B2", "acceptance": "#E15759",
}
"""One colour per score component."""

_LABEL_W = 150.0
_PLOT_W = 350.0
_ROW_H = 30.0
_TOP = 28.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Shape:
    """One SVG element of a chart; `kind` picks the element, unused fields stay at their defaults."""

    kind: str
    """`rect`, `line`, `circle`, `text` or `polyline`."""
    x: float = 0.0
    """x (rect, text), x1 (line) or cx (circle)."""
    y: float = 0.0
    """y (rect, text), y1 (line) or cy (circle)."""
    w: float = 0.0
    """Width (rect), x2 (line) or radius (circle)."""
    h: float = 0.0
    """Height (rect) or y2 (line)."""
    points: str = ""
    """`x,y x,y ...` of a polyline (numbers only)."""
    fill: str = "none"
    """Fill colour (from this module's palettes only)."""
    stroke: str = "none"
    """Stroke colour."""
    text: str = ""
    """Text content (escaped by the template)."""
    anchor: str = "start"
    """Text anchor: `start`, `middle` or `end`."""
    css: str = ""
    """CSS class."""
    tip: str = ""
    """Tooltip (an SVG `<title>`, escaped by the template)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Chart:
    """One SVG chart."""

    id: str
    """Element ID (`chart-aggregate`, ...)."""
    title: str
    """Heading shown above the chart."""
    description: str
    """What the chart shows, for screen readers and the caption."""
    width: float
    """viewBox width."""
    height: float
    """viewBox height."""
    shapes: tuple[Shape, ...]
    """Elements, drawn in order."""
    legend: tuple[tuple[str, str], ...] = ()
    """(label, colour) pairs shown under the chart."""


def agent_colour(index: int) -> str:
    """The colour of the agent at `index`."""
    return AGENT_COLOURS[index % len(AGENT_COLOURS)]


def _short(text: str, limit: int = 22) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _x(score: float) -> float:
    return _LABEL_W + _PLOT_W * min(100.0, max(0.0, score)) / 100.0


def _score_axis(height: float) -> list[Shape]:
    shapes = []
    for tick in range(0, 101, 20):
        x = _x(tick)
        shapes.append(Shape(kind="line", x=x, y=_TOP - 6, w=x, h=height - 22, stroke="#ddd"))
        shapes.append(Shape(kind="text", x=x, y=height - 8, text=str(tick), anchor="middle",
                            css="tick"))
    return shapes


def _row_label(y: float, label: str) -> Shape:
    return Shape(kind="text", x=_LABEL_W - 8, y=y + 4, text=_short(label), anchor="end",
                 css="label", tip=label)


def aggregate_chart(c: Comparison) -> Chart:
    """Horizontal bars of the aggregate score, with the confidence interval as a whisker."""
    height = _TOP + _ROW_H * len(c.agents) + 30
    shapes = _score_axis(height)
    for i, a in enumerate(c.agents):
        y = _TOP + i * _ROW_H
        shapes.append(_row_label(y + _ROW_H / 2 - 4, a.label))
        if a.aggregate is None:
            shapes.append(Shape(kind="text", x=_x(0) + 4, y=y + _ROW_H / 2, text="no score",
                                css="muted"))
            continue
        tip = f"{a.label}: {a.aggregate:.1f} ({format_interval(a.interval)})"
        shapes.append(Shape(kind="rect", x=_x(0), y=y + 5, w=_x(a.aggregate) - _x(0),
                            h=_ROW_H - 12, fill=agent_colour(i), css="bar", tip=tip))
        shapes.extend(_whisker(a, y + _ROW_H / 2 - 1))
        end = _x(a.interval.high if a.interval else a.aggregate)
        shapes.append(Shape(kind="text", x=min(end + 6, _x(100) + 2), y=y + _ROW_H / 2 + 3,
                            text=f"{a.aggregate:.1f}", css="value"))
    return Chart(id="chart-aggregate", title="Aggregate score",
                 description=f"Mean over challenges of the per-challenge mean score, with the "
                             f"{c.confidence:.0%} confidence interval as a black whisker.",
                 width=_LABEL_W + _PLOT_W + 60, height=height, shapes=tuple(shapes))


def _whisker(a: AgentSummary, y: float) -> list[Shape]:
    if a.interval is None:
        return []
    low, high = _x(a.interval.low), _x(a.interval.high)
    return [Shape(kind="line", x=low, y=y, w=high, h=y, stroke="#111", css="ci"),
            Shape(kind="line", x=low, y=y - 6, w=low, h=y + 6, stroke="#111", css="ci"),
            Shape(kind="line", x=high, y=y - 6, w=high, h=y + 6, stroke="#111", css="ci")]


def breakdown_chart(c: Comparison) -> Chart:
    """Stacked bars: the points each component contributes to each agent's aggregate."""
    columns = component_columns(c.rubric)
    height = _TOP + _ROW_H * len(c.agents) + 30
    shapes = _score_axis(height)
    for i, a in enumerate(c.agents):
        y = _TOP + i * _ROW_H
        shapes.append(_row_label(y + _ROW_H / 2 - 4, a.label))
        left = 0.0
        for name, weight in columns:
            points = dict(a.components)[name]
            shapes.append(Shape(kind="rect", x=_x(left), y=y + 5, w=_x(left + points) - _x(left),
                                h=_ROW_H - 12, fill=COMPONENT_COLOURS[name], css="segment",
                                tip=f"{a.label}: {name} {points:.1f} of {weight:g}"))
            left += points
    return Chart(id="chart-breakdown", title="Score breakdown",
                 description="Mean points per component (the segments add up to the aggregate).",
                 width=_LABEL_W + _PLOT_W + 60, height=height, shapes=tuple(shapes),
                 legend=tuple((f"{name} ({weight:g})", COMPONENT_COLOURS[name])
                              for name, weight in columns))


def heat_colour(score: float) -> str:
    """Red (0) through yellow (50) to green (100)."""
    stops = ((0.0, (215, 48, 39)), (50.0, (254, 224, 139)), (100.0, (26, 152, 80)))
    s = min(100.0, max(0.0, score))
    (s0, c0), (s1, c1) = (stops[0], stops[1]) if s <= 50 else (stops[1], stops[2])
    t = (s - s0) / (s1 - s0)
    r, g, b = (round(a + (b - a) * t) for a, b in zip(c0, c1, strict=True))
    return f"#{r:02x}{g:02x}{b:02x}"


def _heat_cell(c: Comparison, agent: str, cid: str, x: float, y: float) -> list[Shape]:
    w, h = 96.0, 22.0
    cell = c.cell(agent, cid)
    if cell is None:
        return [Shape(kind="rect", x=x, y=y, w=w - 2, h=h - 2, fill="#eee", css="cell",
                      tip=f"{agent} on {cid}: no scored trial"),
                Shape(kind="text", x=x + w / 2, y=y + 15, text="-", anchor="middle", css="muted")]
    s = cell.summary
    spread = "" if s.sd is None else f" ± {s.sd:.1f}"
    return [Shape(kind="rect", x=x, y=y, w=w - 2, h=h - 2, fill=heat_colour(s.mean), css="cell",
                  tip=f"{agent} on {cid}: {s.mean:.1f}{spread} over {s.n} trial(s)"),
            Shape(kind="text", x=x + w / 2, y=y + 15, text=f"{s.mean:.1f}", anchor="middle",
                  css="cellvalue")]


def heatmap_chart(c: Comparison) -> Chart:
    """Challenge x agent grid coloured by the mean score."""
    left, top, w, h = 200.0, 40.0, 96.0, 22.0
    shapes: list[Shape] = []
    for j, a in enumerate(c.agents):
        shapes.append(Shape(kind="text", x=left + j * w + w / 2, y=top - 10, text=_short(a.label, 12),
                            anchor="middle", css="label", tip=a.label))
    for i, cid in enumerate(c.challenges):
        y = top + i * h
        shapes.append(Shape(kind="text", x=left - 8, y=y + 15, text=_short(cid, 30), anchor="end",
                            css="label", tip=cid))
        for j, a in enumerate(c.agents):
            shapes.extend(_heat_cell(c, a.label, cid, left + j * w, y))
    return Chart(id="chart-heatmap", title="Challenge x agent",
                 description="Mean score of each agent on each challenge (hover for the spread).",
                 width=left + w * max(1, len(c.agents)) + 20, height=top + h * len(c.challenges) + 10,
                 shapes=tuple(shapes),
                 legend=(("0", heat_colour(0)), ("50", heat_colour(50)), ("100", heat_colour(100))))


def nice_ticks(maximum: float, count: int = 5) -> tuple[float, ...]:
    """Round tick values from 0 to at least `maximum` (1-2-5 steps)."""
    if maximum <= 0:
        return (0.0, 1.0)
    raw = maximum / count
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    return tuple(step * i for i in range(math.ceil(maximum / step - 1e-9) + 1))


def pareto_front(points: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """Points no other point beats on both axes (lower x, higher y), by increasing x."""
    front: list[tuple[float, float]] = []
    for x, y in sorted(points, key=lambda p: (p[0], -p[1])):
        if not front or y > front[-1][1]:
            front.append((x, y))
    return tuple(front)


@dataclass(frozen=True, slots=True, kw_only=True)
class _Scatter:
    id: str
    title: str
    axis: str
    fmt: str


def _scatter_axes(spec: _Scatter, ticks: Sequence[float], plot: tuple[float, ...]) -> list[Shape]:
    left, top, width, height = plot
    shapes = _score_rows(left, top, height, left + width)
    for tick in ticks:
        x = left + width * tick / ticks[-1]
        shapes.append(Shape(kind="line", x=x, y=top, w=x, h=top + height, stroke="#eee"))
        shapes.append(Shape(kind="text", x=x, y=top + height + 16, text=spec.fmt.format(tick),
                            anchor="middle", css="tick"))
    shapes.append(Shape(kind="text", x=left + width / 2, y=top + height + 34, text=spec.axis,
                        anchor="middle", css="axis"))
    return shapes


def _scatter(c: Comparison, spec: _Scatter, values: Sequence[float | None]) -> Chart:
    plot = (50.0, 20.0, 400.0, 240.0)
    left, top, width, height = plot
    known = [(v, a.aggregate, i) for i, (v, a) in enumerate(zip(values, c.agents, strict=True))
             if v is not None and a.aggregate is not None]
    if not known:
        return Chart(id=spec.id, title=spec.title,
                     description="Agents' CLIs report this only when they print usage figures.",
                     width=560, height=60, shapes=(Shape(
                         kind="text", x=20, y=35, css="muted",
                         text=f"No agent reported {spec.axis.split(' (')[0].lower()}."),))
    ticks = nice_ticks(max(v for v, _, _ in known))
    shapes = _scatter_axes(spec, ticks, plot)

    def at(v: float, score: float) -> tuple[float, float]:
        return left + width * v / ticks[-1], top + height * (1 - score / 100)

    front = pareto_front([(v, s) for v, s, _ in known])
    if len(front) > 1:
        shapes.append(Shape(kind="polyline", stroke="#555", css="frontier", points=" ".join(
            f"{x:.1f},{y:.1f}" for x, y in (at(v, s) for v, s in front))))
    for v, score, i in known:
        x, y = at(v, score)
        label = c.agents[i].label
        shapes.append(Shape(kind="circle", x=x, y=y, w=6, fill=agent_colour(i), stroke="#fff",
                            css="point", tip=f"{label}: {score:.1f} points, {spec.fmt.format(v)}"))
        right = x > left + width * 0.7
        shapes.append(Shape(kind="text", x=x - 9 if right else x + 9, y=y - 7, css="label",
                            text=_short(label, 18), anchor="end" if right else "start", tip=label))
    return Chart(id=spec.id, title=spec.title, width=560, height=310, shapes=tuple(shapes),
                 description="Aggregate score against the mean per trial; the dashed line joins "
                             "the Pareto frontier (agents no other agent beats on both axes).")


def time_chart(c: Comparison) -> Chart:
    """Aggregate score against mean agent time per trial."""
    spec = _Scatter(id="chart-time", title="Score against time", axis="Agent time per trial (s)",
                    fmt="{:.3g} s")
    return _scatter(c, spec, [a.mean_time_s for a in c.agents])


def cost_chart(c: Comparison) -> Chart:
    """Aggregate score against mean cost per trial."""
    spec = _Scatter(id="chart-cost", title="Score against cost", axis="Cost per trial (USD)",
                    fmt="${:.3g}")
    return _scatter(c, spec, [a.mean_cost_usd for a in c.agents])


def _score_rows(left: float, top: float, height: float, right: float) -> list[Shape]:
    """Horizontal gridlines and labels of a vertical 0-100 score axis."""
    shapes = []
    for tick in range(0, 101, 25):
        y = top + height * (1 - tick / 100)
        shapes.append(Shape(kind="line", x=left, y=y, w=right, h=y, stroke="#ddd"))
        shapes.append(Shape(kind="text", x=left - 6, y=y + 4, text=str(tick), anchor="end",
                            css="tick"))
    return shapes


def tier_chart(c: Comparison) -> Chart:
    """Grouped bars: each agent's mean score per tier."""
    left, top, height, bar = 50.0, 20.0, 200.0, 26.0
    group = bar * max(1, len(c.agents)) + 30
    shapes = _score_rows(left, top, height, left + group * len(c.tiers))
    for g, tier in enumerate(c.tiers):
        x0 = left + 15 + g * group
        shapes.append(Shape(kind="text", x=x0 + bar * len(c.agents) / 2, y=top + height + 18,
                            text=tier, anchor="middle", css="label"))
        for i, a in enumerate(c.agents):
            found = next((t for t in a.tiers if t.tier == tier), None)
            if found is None:
                continue
            h = height * found.score / 100
            shapes.append(Shape(kind="rect", x=x0 + i * bar, y=top + height - h, w=bar - 4, h=h,
                                fill=agent_colour(i), css="bar",
                                tip=f"{a.label}, {tier}: {found.score:.1f} over "
                                    f"{found.challenges} challenge(s)"))
    return Chart(id="chart-tiers", title="By tier", width=left + group * len(c.tiers) + 20,
                 height=top + height + 30, shapes=tuple(shapes),
                 description="Mean score over each tier's challenges.",
                 legend=tuple((a.label, agent_colour(i)) for i, a in enumerate(c.agents)))


def trial_href(prefix: str, row: TrialRow) -> str | None:
    """Relative link to a trial's folder, every path segment percent-encoded (None if unsafe)."""
    parts = [p for p in row.logs_dir.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        return None
    base = quote(prefix.rstrip("/"), safe="/") + "/" if prefix else ""
    return base + "/".join(quote(p, safe="") for p in [row.run_id, *parts]) + "/"


def _agent_rows(c: Comparison) -> list[dict[str, Any]]:
    ks = pass_at_columns(c)
    return [{
        "label": a.label, "colour": agent_colour(i), "aggregate": number(a.aggregate),
        "challenges": a.challenges, "interval": format_interval(a.interval).split(" CI ")[-1],
        "trials": a.trials_per_challenge, "solved": count(a.solved, a.attempts),
        "hidden_rate": number(a.hidden_rate, percent=True),
        "pass_at": [number(dict(a.pass_at).get(k), percent=True) for k in ks],
        "components": [number(dict(a.components)[name]) for name, _ in component_columns(c.rubric)],
        "time": seconds(a.mean_time_s), "cost": money(a.mean_cost_usd),
        "total_cost": money(a.total_cost_usd), "in_tokens": number(a.mean_input_tokens, digits=0),
        "out_tokens": number(a.mean_output_tokens, digits=0),
        "statuses": status_summary(a.statuses), "run_id": a.run_id, "created_at": a.created_at,
        "tiers": [number(next((t.score for t in a.tiers if t.tier == tier), None))
                  for tier in c.tiers],
    } for i, a in enumerate(c.agents)]


def _challenge_rows(c: Comparison) -> list[dict[str, Any]]:
    rows = []
    for cid in c.challenges:
        cells = [c.cell(a.label, cid) for a in c.agents]
        rows.append({"id": cid, "cells": [
            {"mean": "-", "spread": ""} if cell is None else {
                "mean": f"{cell.summary.mean:.1f}",
                "spread": "" if cell.summary.sd is None
                else f"± {cell.summary.sd:.1f}, n={cell.summary.n}"}
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


def _context(c: Comparison, links: Mapping[str, str]) -> dict[str, Any]:
    charts = (aggregate_chart(c), breakdown_chart(c), heatmap_chart(c), time_chart(c),
              cost_chart(c), tier_chart(c))
    return {
        "c": c, "charts": charts, "agents": _agent_rows(c), "challenges": _challenge_rows(c),
        "trials": _trial_rows(c, links), "pass_at": pass_at_columns(c),
        "components": component_columns(c.rubric), "verdicts": [{
            "text": v.text, "hidden": v.hidden_text, "power": v.power_text,
            "winner": v.winner, "p": format_p(v.p_adjusted)} for v in c.verdicts],
        "has_links": any(t.agent in links for t in c.trials),
        "confidence": f"{c.confidence:.0%}",
    }


def render_html(comparison: Comparison, *, links: Mapping[str, str] | None = None) -> str:
    """The HTML report of a comparison: one self-contained page.

    Args:
        comparison: What to report.
        links: Agent label -> URL prefix of its results folder (relative to the page); each
            listed agent's trials link to their folders (prompt, transcripts, logs).
    """
    import jinja2

    source = resources.files("agentbench.report").joinpath("templates/report.html.j2")
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True)
    template = env.from_string(source.read_text(encoding="utf-8"))
    return template.render(**_context(comparison, links or {}))
