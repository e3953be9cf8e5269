"""The same runs compared under both rubrics: the run's own scores, and the verified score next to it.

`compare_both` is what `compare` and `report` call: the main comparison (the runs' own scores), and,
when the trials carry a verified score, a second comparison on it for an extra column; when the two
rank the agents differently, the main comparison gets one note saying so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from agentbench.comparison.build import build_comparison
from agentbench.comparison.model import CompareOptions, Comparison
from agentbench.models import RunRecord
from agentbench.scoring import rankings_differ

VERIFIED_COLUMN = "Verified"


def compare_both(runs: Sequence[RunRecord], *, sources: Sequence[str], models: Sequence[str | None],
                 options: CompareOptions) -> tuple[Comparison, tuple[tuple[str, Comparison], ...]]:
    """(main comparison, extra columns): the verified score beside the runs' own, where recorded."""
    main = build_comparison(runs, sources=sources, models=models, options=options)
    if not any(t.verified_score is not None for run in runs for t in run.trials):
        return main, ()
    verified = build_comparison(runs, sources=sources, models=models,
                                options=replace(options, score="verified_score", power_gap=None))
    if verified.rubric == main.rubric:
        return main, ()
    own = {a.label: a.aggregate for a in main.agents}
    pairs = {a.label: (own.get(a.label), a.aggregate) for a in verified.agents}
    if rankings_differ(pairs):
        main = replace(main, notes=(*main.notes, f"the {main.rubric} and verified rubrics rank these "
                                    "agents differently: the verified score counts only work that "
                                    "passes the hidden tests"))
    return main, ((VERIFIED_COLUMN, verified),)
