"""Code quality: cyclomatic complexity of the agent's product code, by lizard, two ways.

The toolchain says which files are product code (tests are left out, narrowly: see its `sources`).

- `average_complexity` is the seed's measure: the plain mean over functions, kept exact and banded
  exact (4.9996 is under 5). One complex function among many trivial ones is diluted by them.
- `weighted_complexity` is the verified rubric's: the mean weighted by each function's lines of code
  (lizard's NLOC), i.e. the complexity of the function an average line of product code lives in.
  One-line functions weigh one line each, so adding trivial functions moves it little: a 61-branch
  function stays in the worst band beside 80 one-liners (docs/scoring-integrity.md).

Every product file is analysed; none is skipped for its size. A file larger than MAX_ANALYSED_BYTES,
or one lizard cannot read, is not analysed but listed in `unanalysed`, and the quality of the whole
workspace counts as the worst band under both rubrics (padding a complex module past a size limit
never hides it). A workspace with no function to analyse scores zero (the seed's table would
otherwise give an empty workspace full marks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean

from agentbench.models import QualityMeasurement

MAX_ANALYSED_BYTES = 4 * 1024 * 1024
"""Larger files are not analysed: they make the workspace's quality the worst band."""


@dataclass(frozen=True, slots=True)
class _Function:
    path: str
    name: str
    complexity: int
    lines: int


def measure_quality(files: Sequence[Path], workspace: Path, log: Path | None = None) -> QualityMeasurement:
    """Analyse every product source file (per function, into `log`)."""
    functions: list[_Function] = []
    unanalysed: list[str] = []
    for path in files:
        found = _analyse(path, str(path.relative_to(workspace)))
        if found is None:
            unanalysed.append(str(path.relative_to(workspace)))
        else:
            functions.extend(found)
    if log is not None:
        _write_log(log, functions, unanalysed)
    lines = sum(f.lines for f in functions)
    return QualityMeasurement(
        average_complexity=fmean(f.complexity for f in functions) if functions else None,
        weighted_complexity=(sum(f.complexity * f.lines for f in functions) / lines) if lines else None,
        functions=len(functions),
        files=len(files),
        unanalysed=tuple(unanalysed),
    )


def _analyse(path: Path, name: str) -> list[_Function] | None:
    """The file's functions; None when it is too large or lizard cannot read it."""
    import lizard

    try:
        if path.stat().st_size > MAX_ANALYSED_BYTES:
            return None
        found = lizard.analyze_file(str(path)).function_list
    except (OSError, UnicodeError, RecursionError, ValueError):
        return None
    return [_Function(name, f.name, f.cyclomatic_complexity, max(1, f.nloc)) for f in found]


def _write_log(log: Path, functions: list[_Function], unanalysed: list[str]) -> None:
    log.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(f"{f.complexity:4d} {f.lines:5d}  {f.name}  ({f.path})\n" for f in functions)
    body += "".join(f"not analysed (too large or unreadable: the worst band): {name}\n"
                    for name in unanalysed)
    log.write_text(body or "no function found\n", encoding="utf-8", errors="backslashreplace")
