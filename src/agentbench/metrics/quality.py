"""Code quality: average cyclomatic complexity of the agent's product code, by lizard.

The toolchain says which files are product code (tests are left out, narrowly: see its `sources`).
The average is kept exact and banded exact (4.9996 is under 5). A workspace with no function to
analyse has no quality to speak of and scores zero (the seed's table would otherwise give an empty
workspace full marks).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from statistics import fmean

from agentbench.models import QualityMeasurement

MAX_ANALYSED_BYTES = 4 * 1024 * 1024
"""Larger files are not analysed (and count as files with no function)."""


def measure_quality(files: Sequence[Path], workspace: Path, log: Path | None = None) -> QualityMeasurement:
    """Analyse every product source file (per function, into `log`)."""
    import lizard

    functions = [
        (str(path.relative_to(workspace)), function.name, function.cyclomatic_complexity)
        for path in files if _analysable(path)
        for function in lizard.analyze_file(str(path)).function_list
    ]
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("".join(f"{cc:4d}  {name}  ({path})\n" for path, name, cc in functions)
                       or "no function found\n", encoding="utf-8", errors="backslashreplace")
    complexities = [cc for _, _, cc in functions]
    return QualityMeasurement(
        average_complexity=fmean(complexities) if complexities else None,
        functions=len(complexities),
        files=len(files),
    )


def _analysable(path: Path) -> bool:
    try:
        return path.stat().st_size <= MAX_ANALYSED_BYTES
    except OSError:
        return False
