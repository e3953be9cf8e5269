"""The adapter registry: the seed's `ADAPTERS` mapping, built-ins, entry points and import paths.

Names resolve in this order: registrations made with `ADAPTERS["name"] = Class` (the seed's extension
point, and the only mutable module-level state), the built-in table (lazy import strings: the key is
the name), the `agentbench.adapters` entry-point group of installed packages, then a
`package.module:Class` spec. A plugin that fails to load is reported as a warning, never a crash.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping, MutableMapping
from importlib.metadata import entry_points

from agentbench.adapters.base import AgentAdapter
from agentbench.adapters.cli_base import CommandAdapter
from agentbench.errors import UnknownAdapterError, UsageError
from agentbench.models import AgentConfig

ENTRY_POINT_GROUP = "agentbench.adapters"

_BUILTIN: dict[str, str] = {
    "reference": "agentbench.adapters.reference:ReferenceAdapter",
    "noop": "agentbench.adapters.noop:NoopAdapter",
    "command": "agentbench.adapters.command:CommandTemplateAdapter",
    "claude-code": "agentbench.adapters.claude_code:ClaudeCodeAdapter",
    "codex": "agentbench.adapters.codex:CodexAdapter",
    "gemini": "agentbench.adapters.gemini:GeminiAdapter",
    "aider": "agentbench.adapters.aider:AiderAdapter",
    "opencode": "agentbench.adapters.opencode:OpenCodeAdapter",
    "qwen": "agentbench.adapters.qwen_code:QwenCodeAdapter",
}


def import_adapter(spec: str) -> type[AgentAdapter]:
    """Import `package.module:Class` and check it is an `AgentAdapter` subclass."""
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise UsageError(f"'{spec}' is not an adapter spec", "use the form package.module:ClassName")
    try:
        cls = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"cannot import adapter '{spec}': {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, AgentAdapter)):
        raise UsageError(f"'{spec}' is not a subclass of agentbench.adapters.base.AgentAdapter")
    return cls


class AdapterRegistry(MutableMapping[str, type[AgentAdapter]]):
    """Name -> adapter class, resolving lazily (nothing is imported until asked for)."""

    def __init__(self) -> None:
        self._user: dict[str, type[AgentAdapter]] = {}

    def __setitem__(self, name: str, cls: type[AgentAdapter]) -> None:
        if not (isinstance(cls, type) and issubclass(cls, AgentAdapter)):
            raise TypeError(f"ADAPTERS[{name!r}] must be an AgentAdapter subclass, got {cls!r}")
        self._user[name] = cls

    def __delitem__(self, name: str) -> None:
        del self._user[name]

    def __getitem__(self, name: str) -> type[AgentAdapter]:
        if name in self._user:
            return self._user[name]
        if name in _BUILTIN:
            return import_adapter(_BUILTIN[name])
        plugin = self._plugins().get(name)
        if plugin is not None:
            return self._load_plugin(name, plugin)
        if ":" in name:
            return import_adapter(name)
        raise KeyError(name)

    def __iter__(self) -> Iterator[str]:
        names = dict.fromkeys([*self._user, *_BUILTIN, *self._plugins()])
        return iter(names)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._user or name in _BUILTIN
                                          or name in self._plugins())

    def _plugins(self) -> dict[str, str]:
        return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}

    def _load_plugin(self, name: str, value: str) -> type[AgentAdapter]:
        try:
            return import_adapter(value)
        except UsageError as exc:
            raise UsageError(f"adapter plugin '{name}' failed to load: {exc.message}",
                             "fix or uninstall the package that provides it") from None


ADAPTERS = AdapterRegistry()
"""The registry (the seed's `from agentbench.cli import ADAPTERS` re-exports this object)."""


def get_adapter(name: str, configs: Mapping[str, AgentConfig] | None = None) -> AgentAdapter:
    """Instantiate the agent `name`: a registered adapter, or one configured in the agents file."""
    config = (configs or {}).get(name)
    key = config.adapter if config and config.adapter else name
    try:
        cls = ADAPTERS[key]
    except KeyError:
        known = sorted({*ADAPTERS, *(configs or {})})
        raise UnknownAdapterError(name, known) from None
    if issubclass(cls, CommandAdapter):
        # NOTE: the agents config's prices are file-wide: an agent it does not configure gets them too
        shared = next((c.prices for c in (configs or {}).values() if c.prices), ())
        return cls(config or AgentConfig(name=name, prices=shared))
    return cls()
