"""Per-language measuring: the `Toolchain` seam and its registry (see `base` and `registry`)."""

from agentbench.toolchains.base import (
    HiddenRun,
    MeasureContext,
    OwnTests,
    SourceFiles,
    Toolchain,
)
from agentbench.toolchains.registry import available_languages, canonical_language, get_toolchain

__all__ = ["HiddenRun", "MeasureContext", "OwnTests", "SourceFiles", "Toolchain",
           "available_languages", "canonical_language", "get_toolchain"]
