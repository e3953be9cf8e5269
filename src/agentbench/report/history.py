"""The history chart of the HTML report: an agent's score per run, from the results database, pure.

One point per run (oldest left) with its 95% interval as a whisker, coloured by the agent CLI's
version and model, on a 0-100 axis. The geometry is `report.charts` shapes, so the report's
template draws and escapes it like every other chart (run IDs, versions and models are text in
tooltips and the legend, never markup).
"""

from __future__ import annotations

from agentbench.report.charts import AGENT_COLOURS, HALF_WIDTH, Chart, Shape
from agentbench.store.history import History, Point

_LEFT, _TOP, _PLOT_H, _RIGHT, _BOTTOM = 44.0, 16.0, 200.0, 12.0, 30.0


def _y(score: float) -> float:
    return _TOP + _PLOT_H * (1 - max(0.0, min(100.0, score)) / 100)


def _group(point: Point) -> str:
    return f"CLI {point.version or 'unknown'}, model {point.model or 'default'}"


def _axis(width: float, runs: int) -> list[Shape]:
    shapes = []
    for tick in (0, 25, 50, 75, 100):
        y = _y(tick)
        shapes.append(Shape(kind="line", x=_LEFT, y=y, w=width - _RIGHT, h=y, stroke="#dddddd"))
        shapes.append(Shape(kind="text", x=_LEFT - 6, y=y + 4, text=str(tick), anchor="end", css="tick"))
    shapes.append(Shape(kind="text", x=_LEFT, y=_TOP + _PLOT_H + 22, css="axis",
                        text=f"runs, oldest first ({runs})"))
    return shapes


def _point_shapes(p: Point, x: float, colour: str, unit: str) -> list[Shape]:
    tip = (f"{p.run_id} ({p.started_at[:10]}): {p.score:.1f} over {p.n} {unit}; {_group(p)}"
           + (f"; 95% interval {p.low:.1f} to {p.high:.1f}" if p.low is not None and p.high is not None
              else ""))
    shapes = []
    if p.low is not None and p.high is not None:
        shapes.append(Shape(kind="line", x=x, y=_y(p.low), w=x, h=_y(p.high), stroke=colour, css="ci"))
    shapes.append(Shape(kind="circle", x=x, y=_y(p.score), w=3.5, fill=colour, stroke=colour,
                        css="point", tip=tip))
    return shapes


def history_chart(h: History, index: int = 0) -> Chart:
    """The chart of one agent's history (`index` makes its element ID unique in the page)."""
    groups = list(dict.fromkeys(_group(p) for p in h.points))
    colour = {g: AGENT_COLOURS[i % len(AGENT_COLOURS)] for i, g in enumerate(groups)}
    width = HALF_WIDTH
    step = (width - _LEFT - _RIGHT) / max(len(h.points), 1)
    shapes = _axis(width, len(h.points))
    for i, p in enumerate(h.points):
        shapes += _point_shapes(p, _LEFT + step * (i + 0.5), colour[_group(p)], h.unit)
    what = f"{h.agent} on {h.challenge}" if h.challenge else h.agent
    return Chart(id=f"chart-history-{index}", title=f"History: {what}",
                 description=(f"{h.rubric} score of {what} in each of its {len(h.points)} runs in the "
                              f"results database, oldest first; whiskers: 95% interval over {h.unit}"),
                 width=width, height=_TOP + _PLOT_H + _BOTTOM, shapes=tuple(shapes),
                 legend=tuple((g, colour[g]) for g in groups))
