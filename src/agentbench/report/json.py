"""The JSON report: every figure of a `Comparison`, field for field, pure.

The object carries `comparison_version`, so scripts can check the shape they read. Infinite degrees
of freedom (an interval of zero width in the conditional view) are written as null, keeping the
output strict JSON.

Version 2 (this one): the `view` and `population` of the inference; per agent `model`,
`cli_version`, `rank`, time and cost medians and 90th percentiles and `points_per_dollar`; per
verdict a `score` and a `hidden` paired test (difference, interval, p-value, Holm-adjusted p-value
and family, challenges won, lost and tied, whether the design can reach significance) replacing
the version 1 fields `difference`, `interval`, `p_value`, `p_adjusted`, `challenges` and the
McNemar `hidden` counts.
"""

from __future__ import annotations

import json
import math
from typing import Any

from agentbench.comparison import Comparison
from agentbench.records import to_jsonable

COMPARISON_VERSION = 2
"""Version of the JSON shape below; bumped on any incompatible change."""


def _finite(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def comparison_to_dict(comparison: Comparison) -> dict[str, Any]:
    """The comparison as plain JSON values."""
    body = to_jsonable(comparison)
    body["tiers"] = list(comparison.tiers)
    body["languages"] = list(comparison.languages)
    return {"comparison_version": COMPARISON_VERSION, **_finite(body)}


def render_json(comparison: Comparison) -> str:
    """The JSON text of a comparison."""
    return json.dumps(comparison_to_dict(comparison), indent=2, ensure_ascii=False,
                      allow_nan=False) + "\n"
