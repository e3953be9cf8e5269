"""Chart geometry for the HTML report: frozen `Shape`s computed from a `Comparison`, pure.

Every chart is sized so that it is drawn at its natural size (no scaling down) in a 1400-pixel
window for up to 8 agents and 50 challenges: half-width charts are at most `HALF_WIDTH` pixels
wide, and the heat map takes the full width with rotated column labels. Agent labels are shortened
in the middle (`short_labels`), so two runs of one agent never shorten to the same text, and the
full label is always in the tooltip. Scatter-plot labels sit in a column beside the plot, joined
to their points by leader lines, so they cannot overlap. Colours come only from this module.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from agentbench.comparison import AgentSummary, Comparison, format_interval
from agentbench.report import component_columns

AGENT_COLOURS: tuple[str, ...] = (
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#7F7F7F", "#000000",
)
"""Okabe-Ito palette (colour-blind safe), one colour per agent, cycling."""

COMPONENT_COLOURS: Mapping[str, str] = {
    "build": "#4E79A7", "tests": "#F28E2B", "coverage": "#59A14F", "quality": "#B07AA1",
    "completeness": "#EDC948", "efficiency": "#76B7B2", "acceptance": "#E15759",
}
"""One colour per score component."""

HALF_WIDTH = 580.0
"""Width of a half-width chart: two fit side by side in the report's 1,320-pixel column."""

_LABEL_W = 190.0
_PLOT_W = HALF_WIDTH - _LABEL_W - 50.0
_ROW_H = 28.0
_TOP = 24.0
_CHAR_W = 7.0  # NOTE: average advance of a 12-px sans-serif character, for layout estimates


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
    rotate: float = 0.0
    """Rotation of a text about its anchor point, in degrees."""


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
    """viewBox width (and drawn width)."""
    height: float
    """viewBox height."""
    shapes: tuple[Shape, ...]
    """Elements, drawn in order."""
    legend: tuple[tuple[str, str], ...] = ()
    """(label, colour) pairs shown under the chart."""
    wide: bool = False
    """Takes the full width of the page instead of half."""


def agent_colour(index: int) -> str:
    """The colour of the agent at `index`."""
    return AGENT_COLOURS[index % len(AGENT_COLOURS)]


def colours(c: Comparison) -> dict[str, str]:
    """Agent label -> colour, by the order the agents were given (stable across charts)."""
    return {a.label: agent_colour(i) for i, a in enumerate(c.agents)}


def middle_ellipsis(text: str, limit: int) -> str:
    """`text` cut to `limit` characters by dropping its middle (`claude-c…(run-2)`)."""
    if len(text) <= limit:
        return text
    head = limit // 2
    tail = limit - 1 - head
    return text[:head] + "…" + (text[-tail:] if tail else "")


def short_labels(labels: Sequence[str], limit: int) -> dict[str, str]:
    """Each label cut to `limit` characters in the middle, lengthened where two would coincide."""
    for width in range(limit, max((len(x) for x in labels), default=0) + 1):
        short = {label: middle_ellipsis(label, width) for label in labels}
        if len(set(short.values())) == len(short):
            return short
    return {label: label for label in labels}


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


def _row_label(y: float, label: str, short: Mapping[str, str]) -> Shape:
    return Shape(kind="text", x=_LABEL_W - 8, y=y + 4, text=short[label], anchor="end",
                 css="label", tip=label)


def aggregate_chart(c: Comparison) -> Chart:
    """Horizontal bars of the aggregate score, best first, with the interval as a whisker."""
    agents, colour = c.ranked, colours(c)
    short, height, shapes = _bar_frame(agents)
    for i, a in enumerate(agents):
        y = _TOP + i * _ROW_H
        shapes.append(_row_label(y + _ROW_H / 2 - 4, a.label, short))
        if a.aggregate is None:
            shapes.append(Shape(kind="text", x=_x(0) + 4, y=y + _ROW_H / 2, text="no score",
                                css="muted"))
            continue
        tip = f"{a.label}: {a.aggregate:.1f} ({format_interval(a.interval)})"
        shapes.append(Shape(kind="rect", x=_x(0), y=y + 5, w=_x(a.aggregate) - _x(0),
                            h=_ROW_H - 12, fill=colour[a.label], css="bar", tip=tip))
        shapes.extend(_whisker(a, y + _ROW_H / 2 - 1))
        end = _x(max(a.interval.high, a.aggregate) if a.interval else a.aggregate)
        shapes.append(Shape(kind="text", x=min(end + 6, _x(100) + 2), y=y + _ROW_H / 2 + 3,
                            text=f"{a.aggregate:.1f}", css="value"))
    return Chart(id="chart-aggregate", title="Aggregate score",
                 description=f"Mean over challenges of the per-challenge mean score, best first, "
                             f"with the {c.confidence:.0%} confidence interval "
                             f"({c.population}) as a black whisker.",
                 width=HALF_WIDTH, height=height, shapes=tuple(shapes))


def _whisker(a: AgentSummary, y: float) -> list[Shape]:
    if a.interval is None:
        return []
    low, high = _x(a.interval.low), _x(a.interval.high)
    return [Shape(kind="line", x=low, y=y, w=high, h=y, stroke="#111", css="ci"),
            Shape(kind="line", x=low, y=y - 6, w=low, h=y + 6, stroke="#111", css="ci"),
            Shape(kind="line", x=high, y=y - 6, w=high, h=y + 6, stroke="#111", css="ci")]


def _bar_frame(agents: Sequence[AgentSummary]) -> tuple[dict[str, str], float, list[Shape]]:
    """A chart of one bar row per agent: the short row labels, its height and its score axis."""
    height = _TOP + _ROW_H * len(agents) + 30
    return short_labels([a.label for a in agents], 26), height, _score_axis(height)


def breakdown_chart(c: Comparison) -> Chart:
    """Stacked bars: the points each component contributes to each agent's aggregate."""
    columns, agents = component_columns(c.rubric), c.ranked
    short, height, shapes = _bar_frame(agents)
    for i, a in enumerate(agents):
        y = _TOP + i * _ROW_H
        shapes.append(_row_label(y + _ROW_H / 2 - 4, a.label, short))
        left = 0.0
        for name, weight in columns:
            points = dict(a.components)[name]
            shapes.append(Shape(kind="rect", x=_x(left), y=y + 5, w=_x(left + points) - _x(left),
                                h=_ROW_H - 12, fill=COMPONENT_COLOURS[name], css="segment",
                                tip=f"{a.label}: {name} {points:.1f} of {weight:g}"))
            left += points
    return Chart(id="chart-breakdown", title="Score breakdown",
                 description="Mean points per component (the segments add up to the aggregate).",
                 width=HALF_WIDTH, height=height, shapes=tuple(shapes),
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


def _ink(score: float) -> str:
    """Text class for a heat-map cell: light on the dark ends of the scale, dark in the middle."""
    return "cellvalue light" if score < 12 or score > 82 else "cellvalue"


_CELL_W, _CELL_H, _SLANT = 92.0, 24.0, 40.0


def _heat_cell(c: Comparison, agent: str, cid: str, x: float, y: float) -> list[Shape]:
    cell = c.cell(agent, cid)
    if cell is None:
        return [Shape(kind="rect", x=x, y=y, w=_CELL_W - 2, h=_CELL_H - 2, fill="#eee", css="cell",
                      tip=f"{agent} on {cid}: no scored trial"),
                Shape(kind="text", x=x + _CELL_W / 2, y=y + 16, text="-", anchor="middle",
                      css="muted")]
    s = cell.summary
    spread = "" if s.sd is None else f" ± {s.sd:.1f}"
    return [Shape(kind="rect", x=x, y=y, w=_CELL_W - 2, h=_CELL_H - 2, fill=heat_colour(s.mean),
                  css="cell", tip=f"{agent} on {cid}: {s.mean:.1f}{spread} over {s.n} trial(s)"),
            Shape(kind="text", x=x + _CELL_W / 2, y=y + 16, text=f"{s.mean:.1f}", anchor="middle",
                  css=_ink(s.mean))]


def heatmap_chart(c: Comparison) -> Chart:
    """Challenge x agent grid coloured by the mean score, agents best first, full width."""
    agents = [a.label for a in c.ranked]
    short = short_labels(agents, 28)
    longest_id = max((len(cid) for cid in c.challenges), default=4)
    left = min(36, longest_id) * _CHAR_W + 16
    rise = math.sin(math.radians(_SLANT)) * _CHAR_W * max(len(s) for s in short.values())
    top = 24 + rise
    shapes: list[Shape] = []
    for j, label in enumerate(agents):
        x = left + j * _CELL_W + _CELL_W / 2
        shapes.append(Shape(kind="text", x=x, y=top - 10, text=short[label], css="label collabel",
                            tip=label, rotate=-_SLANT))
    ids = short_labels(list(c.challenges), 36)
    for i, cid in enumerate(c.challenges):
        y = top + i * _CELL_H
        shapes.append(Shape(kind="text", x=left - 8, y=y + 16, text=ids[cid], anchor="end",
                            css="label", tip=cid))
        for j, label in enumerate(agents):
            shapes.extend(_heat_cell(c, label, cid, left + j * _CELL_W, y))
    overhang = math.cos(math.radians(_SLANT)) * _CHAR_W * max(len(s) for s in short.values())
    return Chart(id="chart-heatmap", title="Challenge x agent",
                 description="Mean score of each agent (best first) on each challenge; hover a "
                             "cell for the spread and the number of trials.",
                 width=left + _CELL_W * max(1, len(agents)) + overhang,
                 height=top + _CELL_H * len(c.challenges) + 10, shapes=tuple(shapes), wide=True,
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


def spread_out(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as close to `wanted` (ascending) as possible, at least `gap` apart, in [low, high]."""
    placed: list[float] = []
    for y in wanted:
        placed.append(max(y, low, placed[-1] + gap) if placed else max(y, low))
    for i in range(len(placed) - 1, -1, -1):
        ceiling = high if i == len(placed) - 1 else placed[i + 1] - gap
        placed[i] = min(placed[i], ceiling)
    return placed


@dataclass(frozen=True, slots=True, kw_only=True)
class _Scatter:
    id: str
    title: str
    axis: str
    fmt: str


_PLOT = (54.0, 20.0, 300.0, 240.0)  # left, top, width, height of a scatter plot's area


def _scatter_axes(spec: _Scatter, ticks: Sequence[float]) -> list[Shape]:
    left, top, width, height = _PLOT
    shapes = _score_rows(left, top, height, left + width)
    for tick in ticks:
        x = left + width * tick / ticks[-1]
        shapes.append(Shape(kind="line", x=x, y=top, w=x, h=top + height, stroke="#eee"))
        shapes.append(Shape(kind="text", x=x, y=top + height + 16, text=spec.fmt.format(tick),
                            anchor="middle", css="tick"))
    shapes.append(Shape(kind="text", x=left + width / 2, y=top + height + 34, text=spec.axis,
                        anchor="middle", css="axis"))
    return shapes


def _point_labels(c: Comparison, placed: Sequence[tuple[float, float, str]]) -> list[Shape]:
    """Labels in a column right of the plot, each joined to its point by a leader line."""
    left, top, width, height = _PLOT
    column = left + width + 22
    short = short_labels([label for _, _, label in placed], 28)
    order = sorted(placed, key=lambda p: p[1])
    ys = spread_out([y + 4 for _, y, _ in order], 16.0, top + 4, top + height + 36)
    shapes = []
    for (x, y, label), label_y in zip(order, ys, strict=True):
        shapes.append(Shape(kind="line", x=x + 7, y=y, w=column - 4, h=label_y - 4, stroke="#999",
                            css="leader"))
        shapes.append(Shape(kind="text", x=column, y=label_y, text=short[label], css="label",
                            tip=label))
    return shapes


def _scatter(c: Comparison, spec: _Scatter, values: Mapping[str, float | None]) -> Chart:
    left, top, width, height = _PLOT
    known = [(v, a.aggregate, a.label) for a in c.ranked
             if (v := values[a.label]) is not None and a.aggregate is not None]
    if not known:
        return Chart(id=spec.id, title=spec.title,
                     description="Agents' CLIs report this only when they print usage figures.",
                     width=HALF_WIDTH, height=60, shapes=(Shape(
                         kind="text", x=20, y=35, css="muted",
                         text=f"No agent reported {spec.axis.split(' (')[0].lower()}."),))
    ticks = nice_ticks(max(v for v, _, _ in known))
    shapes = _scatter_axes(spec, ticks)

    def at(v: float, score: float) -> tuple[float, float]:
        return left + width * v / ticks[-1], top + height * (1 - score / 100)

    front = pareto_front([(v, s) for v, s, _ in known])
    if len(front) > 1:
        shapes.append(Shape(kind="polyline", stroke="#555", css="frontier", points=" ".join(
            f"{x:.1f},{y:.1f}" for x, y in (at(v, s) for v, s in front))))
    colour, placed = colours(c), []
    for v, score, label in known:
        x, y = at(v, score)
        placed.append((x, y, label))
        shapes.append(Shape(kind="circle", x=x, y=y, w=6, fill=colour[label], stroke="#fff",
                            css="point", tip=f"{label}: {score:.1f} points, {spec.fmt.format(v)}"))
    shapes.extend(_point_labels(c, placed))
    return Chart(id=spec.id, title=spec.title, width=HALF_WIDTH, height=310, shapes=tuple(shapes),
                 description=f"Aggregate score against the {spec.axis.split(' (')[0].lower()}; the "
                             "dashed line joins the Pareto frontier (agents no other agent beats "
                             "on both axes).")


def time_chart(c: Comparison) -> Chart:
    """Aggregate score against the median agent time per trial."""
    spec = _Scatter(id="chart-time", title="Score against time",
                    axis="Median agent time per trial (s)", fmt="{:.3g} s")
    return _scatter(c, spec, {a.label: a.median_time_s for a in c.agents})


def cost_chart(c: Comparison) -> Chart:
    """Aggregate score against the median cost per trial, for agents whose every scored trial's
    cost is known; the others are left out and named (an unknown cost is never plotted at $0)."""
    spec = _Scatter(id="chart-cost", title="Score against cost",
                    axis="Median cost per trial (USD)", fmt="${:.3g}")
    unknown = [a.label for a in c.ranked if dict(a.cost_sources).get("unknown")]
    chart = _scatter(c, spec, {a.label: None if a.label in unknown else a.median_cost_usd
                               for a in c.agents})
    if not unknown:
        return chart
    note = (f" Left out, cost unknown for some trials (no CLI report and no price for the "
            f"model): {', '.join(unknown)}.")
    return replace(chart, description=chart.description + note)


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
    """Grouped bars: each agent's mean score per tier, agents best first."""
    agents, colour = c.ranked, colours(c)
    left, top, height = 50.0, 20.0, 200.0
    room = (HALF_WIDTH - left - 20) / max(1, len(c.tiers)) - 24
    bar = max(6.0, min(26.0, room / max(1, len(agents))))
    group = bar * max(1, len(agents)) + 24
    shapes = _score_rows(left, top, height, left + group * len(c.tiers))
    for g, tier in enumerate(c.tiers):
        x0 = left + 12 + g * group
        shapes.append(Shape(kind="text", x=x0 + bar * len(agents) / 2, y=top + height + 18,
                            text=tier, anchor="middle", css="label"))
        for i, a in enumerate(agents):
            found = next((t for t in a.tiers if t.tier == tier), None)
            if found is None:
                continue
            h = height * found.score / 100
            shapes.append(Shape(kind="rect", x=x0 + i * bar, y=top + height - h, w=bar - 3, h=h,
                                fill=colour[a.label], css="bar",
                                tip=f"{a.label}, {tier}: {found.score:.1f} over "
                                    f"{found.challenges} challenge(s)"))
    return Chart(id="chart-tiers", title="By tier", width=HALF_WIDTH,
                 height=top + height + 30, shapes=tuple(shapes),
                 description="Mean score over each tier's challenges (agents best first).",
                 legend=tuple((a.label, colour[a.label]) for a in agents))


def all_charts(c: Comparison) -> tuple[Chart, ...]:
    """Every chart of the report, in order."""
    return (aggregate_chart(c), breakdown_chart(c), heatmap_chart(c), time_chart(c),
            cost_chart(c), tier_chart(c))
