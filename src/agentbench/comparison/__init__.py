"""Comparison of agents' results: a frozen `Comparison` value built from `RunRecord`s, pure.

This is the layer between the results store and the reports: `compare` and `report` read results
files, hand the records to `build_comparison`, and render the value it returns. It owns the choices
a reader has to trust:

- which trials count (scored trials only, as in the seed's aggregate) and which score is read
  (`CompareOptions.score`, through `score_of`);
- what the intervals and verdicts generalise to: by default **challenges like these** (the
  challenge is the unit, trials are nested in it), or with `condition_on_challenges` only **these
  challenges** (the trials are the replicates);
- when a winner is named: the test can reach significance with the shared challenges at all, its
  Holm-adjusted p-value (over every pair, for the score and for the hidden tests separately) is
  below alpha, and the interval excludes zero;
- the plain-language notes about anything odd in the inputs.

Modules: `model` (the values), `build` (cells, agents, notes), `verdicts` (pairs, power), `words`
(sentences and number formats), `rubrics` (the verified score beside the run's own).
"""

from agentbench.comparison.build import build_comparison, score_of
from agentbench.comparison.model import (
    COMPONENTS,
    CONDITIONAL,
    OVER_CHALLENGES,
    SCORE_FIELDS,
    AgentSummary,
    Cell,
    CompareOptions,
    Comparison,
    LanguageScore,
    PairedTest,
    TierScore,
    TrialRow,
    Verdict,
    tier_of,
)
from agentbench.comparison.rubrics import compare_both
from agentbench.comparison.words import (
    fixed,
    format_interval,
    format_p,
    interval_range,
    percent,
    signed,
)

__all__ = [
    "COMPONENTS",
    "CONDITIONAL",
    "OVER_CHALLENGES",
    "SCORE_FIELDS",
    "AgentSummary",
    "Cell",
    "CompareOptions",
    "Comparison",
    "LanguageScore",
    "PairedTest",
    "TierScore",
    "TrialRow",
    "Verdict",
    "build_comparison",
    "compare_both",
    "fixed",
    "format_interval",
    "format_p",
    "interval_range",
    "percent",
    "score_of",
    "signed",
    "tier_of",
]
