"""Per-language measuring: the `Toolchain` seam (`base`) and its registry (`registry`).

Names are resolved lazily so that loading challenges (which only asks the registry whether a
language is known) does not import the measuring machinery.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentbench.toolchains.base import (
        HiddenRun,
        MeasureContext,
        OwnTests,
        SourceFiles,
        Toolchain,
    )
    from agentbench.toolchains.registry import (
        available_languages,
        canonical_language,
        get_toolchain,
        missing_tools,
    )

_HOMES = {
    "HiddenRun": "base", "MeasureContext": "base", "OwnTests": "base", "SourceFiles": "base",
    "Toolchain": "base", "available_languages": "registry", "canonical_language": "registry",
    "get_toolchain": "registry", "missing_tools": "registry",
}

__all__ = [
    "HiddenRun", "MeasureContext", "OwnTests", "SourceFiles", "Toolchain", "available_languages",
    "canonical_language", "get_toolchain", "missing_tools",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'agentbench.toolchains' has no attribute {name!r}")
    return getattr(importlib.import_module(f"agentbench.toolchains.{_HOMES[name]}"), name)
