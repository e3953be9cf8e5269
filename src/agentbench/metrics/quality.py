"""Code quality: average cyclomatic complexity of the agent's product code, by lizard.

Test files are left out. A workspace with no function to analyse has no quality to speak of and
scores zero (the seed's table would otherwise give an empty workspace full marks).
"""

from __future__ import annotations

from pathlib import Path
from statistics import fmean

from agentbench.metrics.build import LANGUAGE_SUFFIXES
from agentbench.metrics.common import is_test_file
from agentbench.models import Challenge, QualityMeasurement
from agentbench.workspace import TrialDirs, agent_files


def measure_quality(challenge: Challenge, dirs: TrialDirs, log: Path | None = None) -> QualityMeasurement:
    """Analyse every non-test source file of the challenge's language (per function, into `log`)."""
    import lizard

    suffixes = LANGUAGE_SUFFIXES.get(challenge.language.lower(), (".py",))
    files = [p for p in agent_files(dirs.workspace, suffixes)
             if not is_test_file(p.relative_to(dirs.workspace))]
    functions = [
        (str(path.relative_to(dirs.workspace)), function.name, function.cyclomatic_complexity)
        for path in files
        for function in lizard.analyze_file(str(path)).function_list
    ]
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("".join(f"{cc:4d}  {name}  ({path})\n" for path, name, cc in functions)
                       or "no function found\n", encoding="utf-8")
    complexities = [cc for _, _, cc in functions]
    return QualityMeasurement(
        average_complexity=round(fmean(complexities), 3) if complexities else None,
        functions=len(complexities),
        files=len(files),
    )
