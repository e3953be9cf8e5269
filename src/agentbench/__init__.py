"""AgentBench: a standardized benchmark for comparing AI coding agents.

The public API is listed in `__all__`; names are imported lazily so `agentbench --help` stays fast.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "AgentAdapter": "agentbench.adapters.base",
    "AdapterResult": "agentbench.models",
    "ADAPTERS": "agentbench.adapters.registry",
    "Challenge": "agentbench.models",
    "TrialRecord": "agentbench.models",
    "RunRecord": "agentbench.models",
    "load_challenge": "agentbench.loader",
    "discover_challenges": "agentbench.loader",
    "score_trial": "agentbench.scoring",
    "RunConfig": "agentbench.runner",
    "execute": "agentbench.runner",
    "read_results": "agentbench.store",
}

__all__ = ["__version__", *sorted(_EXPORTS)]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'agentbench' has no attribute {name!r}")
