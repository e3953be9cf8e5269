"""Rendering results: pure functions from records or a `Comparison` to text, one module per format.

`Format` names the text formats of `compare` and `report`; `render` maps each to its renderer with an
exhaustive `match`, so a new format fails type-checking until it is wired here. The terminal tables of
`compare --format table` are not text but rich renderables; `agentbench.cli.compare` builds them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, assert_never

from agentbench.comparison import COMPONENTS, Comparison, fixed
from agentbench.comparison import percent as as_percent
from agentbench.scoring import RUBRICS

if TYPE_CHECKING:
    from agentbench.store.history import History


class Format(StrEnum):
    """Output formats of a comparison."""

    MARKDOWN = "markdown"
    """A Markdown report (the seed's `report --output comparison.md`)."""
    JSON = "json"
    """Every figure of the comparison as JSON."""
    HTML = "html"
    """A single self-contained HTML file with SVG charts."""
    CSV = "csv"
    """The per-trial table, one row per trial, for spreadsheets and scripts."""

    @classmethod
    def from_suffix(cls, suffix: str) -> Format | None:
        """The format a file name's suffix implies (`.md`, `.html`, `.json`), None if unknown."""
        return _SUFFIXES.get(suffix.lower())


_SUFFIXES = {".md": Format.MARKDOWN, ".markdown": Format.MARKDOWN, ".json": Format.JSON,
             ".html": Format.HTML, ".htm": Format.HTML, ".csv": Format.CSV}


def render(comparison: Comparison, fmt: Format, *, links: Mapping[str, str] | None = None,
           others: Sequence[tuple[str, Comparison]] = (), histories: Sequence[History] = ()) -> str:
    """Render a comparison as text in `fmt`.

    Args:
        comparison: What to render.
        fmt: The output format.
        links: Agent label -> URL prefix of its results folder, for links to trial logs (HTML and
            Markdown); agents without an entry get no links.
        others: (column name, comparison of the same runs on another score): each adds a score
            and interval column to the ranking (HTML and Markdown), e.g. a verified score beside
            the seed's.
        histories: Agents' scores over runs from the results database: a chart each (HTML only).
    """
    match fmt:
        case Format.MARKDOWN:
            from agentbench.report.markdown import render_markdown

            return render_markdown(comparison, links=links or {}, others=others)
        case Format.JSON:
            from agentbench.report.json import render_json

            return render_json(comparison)
        case Format.HTML:
            from agentbench.report.html import render_html

            return render_html(comparison, links=links or {}, others=others, histories=histories)
        case Format.CSV:
            from agentbench.report.csv import render_csv

            return render_csv(comparison)
        case _ as unreachable:
            assert_never(unreachable)


# NOTE: small formatting helpers shared by every renderer (and the CLI's tables), so a figure reads
# the same in the terminal, in Markdown and in HTML.


def number(value: float | None, *, digits: int = 1, percent: bool = False) -> str:
    """`82.8` (or `93%` with percent), a dash for None; never `-0.0`."""
    if value is None:
        return "-"
    return as_percent(value) if percent else fixed(value, digits)


def count(part: int, whole: int) -> str:
    """`12/13`, a dash when `whole` is 0."""
    return f"{part}/{whole}" if whole else "-"


def money(value: float | None) -> str:
    """`$0.042`, a dash for None (the agent reported no cost)."""
    return "-" if value is None else f"${fixed(value, 3)}"


def seconds(value: float | None) -> str:
    """`12.3 s` (`0.0041 s` under a second), a dash for None."""
    if value is None:
        return "-"
    return f"{value:.1f} s" if value >= 1 or value == 0 else f"{value:.2g} s"


def pass_at_columns(comparison: Comparison) -> tuple[int, ...]:
    """The k of the pass@k columns: 1 and the largest k any agent has."""
    ks = {k for a in comparison.agents for k, _ in a.pass_at}
    return tuple(sorted({1, max(ks)})) if ks else ()


def component_columns(rubric: str) -> tuple[tuple[str, float], ...]:
    """(component, maximum points) of the rubric's weighted components, in the seed's order."""
    spec = RUBRICS.get(rubric)
    if spec is None:
        return tuple((name, 0.0) for name in COMPONENTS)
    weights = spec.weights
    return tuple((name, getattr(weights, name)) for name in COMPONENTS
                 if getattr(weights, name) > 0)
