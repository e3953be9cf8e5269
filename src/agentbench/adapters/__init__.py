"""Agent integrations: the seed's interface, the registry and the built-in adapters.

Names are resolved lazily, so that reading a trajectory (`agentbench.adapters.trajectory`, used by
`compare` and the reports) does not import every adapter and the process machinery.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentbench.adapters.base import AdapterContext, AdapterResult, AgentAdapter
    from agentbench.adapters.registry import ADAPTERS, get_adapter

_HOMES = {"AdapterContext": "base", "AdapterResult": "base", "AgentAdapter": "base",
          "ADAPTERS": "registry", "get_adapter": "registry"}

__all__ = ["ADAPTERS", "AdapterContext", "AdapterResult", "AgentAdapter", "get_adapter"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'agentbench.adapters' has no attribute {name!r}")
    return getattr(importlib.import_module(f"agentbench.adapters.{_HOMES[name]}"), name)
