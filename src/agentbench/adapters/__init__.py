"""Agent integrations: the seed's interface, the registry and the built-in adapters."""

from agentbench.adapters.base import AdapterContext, AdapterResult, AgentAdapter
from agentbench.adapters.registry import ADAPTERS, get_adapter

__all__ = ["ADAPTERS", "AdapterContext", "AdapterResult", "AgentAdapter", "get_adapter"]
