"""What agents exist and whether they can run here: the data behind `agentbench agents`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from agentbench.adapters.cli_base import CommandAdapter
from agentbench.adapters.command import CommandTemplateAdapter
from agentbench.adapters.registry import ADAPTERS, get_adapter
from agentbench.errors import AgentBenchError
from agentbench.models import AgentConfig


class AgentRow(NamedTuple):
    """One line of `agentbench agents`."""

    name: str
    adapter: str
    installed: bool
    version: str | None
    executable: str | None
    note: str


def describe_agents(configs: Mapping[str, AgentConfig]) -> list[AgentRow]:
    """Every registered adapter plus every configured agent, with install status and version."""
    names = dict.fromkeys([*ADAPTERS, *configs])
    return [_describe(name, configs) for name in names]


def _describe(name: str, configs: Mapping[str, AgentConfig]) -> AgentRow:
    config = configs.get(name)
    adapter_key = config.adapter if config and config.adapter else name
    try:
        adapter = get_adapter(name, configs)
    except AgentBenchError as exc:
        return AgentRow(name, adapter_key, False, None, None, f"cannot load: {exc.message}")
    if not isinstance(adapter, CommandAdapter):
        return AgentRow(name, adapter_key, True, adapter.version(), None, "built in, no CLI needed")
    if isinstance(adapter, CommandTemplateAdapter) and not adapter.configured:
        return AgentRow(name, adapter_key, False, None, None, f"not configured: {adapter.how_to_configure()}")
    try:
        exe = adapter.resolve_executable()
    except AgentBenchError as exc:
        return AgentRow(name, adapter_key, False, None, None, exc.message)
    if exe is None:
        return AgentRow(name, adapter_key, False, None, None,
                        f"not found; install: {adapter.package}" if adapter.package else "not found")
    return AgentRow(name, adapter_key, True, adapter.version(), exe, "")
