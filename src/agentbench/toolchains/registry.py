"""Finding the toolchain for a challenge's `language`: built-ins by name, then entry points.

Built-ins are lazy import strings (nothing is imported to list them). Third-party toolchains register
in the entry-point group `agentbench.toolchains` (name = language), read only when a name is not
built in or when listing; one that fails to load is reported by name, never a crash.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from agentbench.errors import UsageError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

    from agentbench.toolchains.base import Toolchain

ENTRY_POINT_GROUP = "agentbench.toolchains"

_BUILTIN: dict[str, str] = {
    "python": "agentbench.toolchains.python:PythonToolchain",
    "typescript": "agentbench.toolchains.node:TypeScriptToolchain",
    "go": "agentbench.toolchains.go:GoToolchain",
}
"""Built-in toolchains: language -> "module:Class"."""

_BUILTIN_ALIASES: dict[str, str] = {
    "py": "python", "python3": "python",
    **dict.fromkeys(("ts", "javascript", "js", "node"), "typescript"),
    "golang": "go",
}
"""Other spellings of built-in languages."""


class UnknownLanguageError(UsageError):
    """No installed toolchain measures this language."""


def canonical_language(language: str) -> str | None:
    """The built-in language `language` names, or None (entry points are not consulted)."""
    name = language.strip().lower()
    name = _BUILTIN_ALIASES.get(name, name)
    return name if name in _BUILTIN else None


def get_toolchain(language: str) -> Toolchain:
    """The toolchain for `language` (case-insensitive), or UnknownLanguageError naming the installed ones."""
    name = language.strip().lower()
    builtin = canonical_language(name)
    if builtin is not None:
        return _load(_BUILTIN[builtin], builtin)
    for entry in _entry_points():
        if entry.name.lower() == name:
            try:
                return _checked(entry.load()(), entry.name)
            except Exception as exc:
                raise UnknownLanguageError(
                    f"the toolchain for '{language}' from {entry.value} failed to load: {exc}",
                    "reinstall or remove the plugin that provides it") from None
    raise UnknownLanguageError(
        f"no toolchain measures language '{language}'",
        f"installed languages: {', '.join(available_languages())}")


def available_languages() -> tuple[str, ...]:
    """Every language a toolchain is installed for."""
    names = set(_BUILTIN)
    names.update(entry.name.lower() for entry in _entry_points())
    return tuple(sorted(names))


def _entry_points() -> tuple[EntryPoint, ...]:
    from importlib.metadata import entry_points

    return tuple(entry_points(group=ENTRY_POINT_GROUP))


def _load(spec: str, name: str) -> Toolchain:
    module, _, attr = spec.partition(":")
    return _checked(getattr(importlib.import_module(module), attr)(), name)


def _checked(toolchain: object, name: str) -> Toolchain:
    from agentbench.toolchains.base import Toolchain

    if not isinstance(toolchain, Toolchain):
        raise UnknownLanguageError(f"the toolchain registered for '{name}' does not implement "
                                   "agentbench.toolchains.Toolchain")
    return toolchain
