"""Code quality: average cyclomatic complexity of the agent's product code, by lizard.

Test files are left out. A workspace with no function to analyse has no quality to speak of and
scores zero (the seed's table would otherwise give an empty workspace full marks).
"""

from __future__ import annotations

from statistics import fmean

from agentbench.metrics.build import LANGUAGE_SUFFIXES
from agentbench.metrics.common import is_test_file
from agentbench.models import Challenge, QualityMeasurement
from agentbench.workspace import TrialDirs, agent_files


def measure_quality(challenge: Challenge, dirs: TrialDirs) -> QualityMeasurement:
    """Analyse every non-test source file of the challenge's language."""
    import lizard

    suffixes = LANGUAGE_SUFFIXES.get(challenge.language.lower(), (".py",))
    files = [p for p in agent_files(dirs.workspace, suffixes)
             if not is_test_file(p.relative_to(dirs.workspace))]
    complexities = [
        function.cyclomatic_complexity
        for path in files
        for function in lizard.analyze_file(str(path)).function_list
    ]
    return QualityMeasurement(
        average_complexity=round(fmean(complexities), 3) if complexities else None,
        functions=len(complexities),
        files=len(files),
    )
