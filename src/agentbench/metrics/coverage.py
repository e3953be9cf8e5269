"""Line coverage of the agent's own (non-test) code by coverage.py while the agent's tests run.

Coverage is switched on for every Python process of the trial environment through its startup hook
(`COVERAGE_PROCESS_START`), so it works whatever the test command is; data files are combined and read
as JSON afterwards. Tests, the harness folder and environments are omitted from the measured code.
"""

from __future__ import annotations

import json

from agentbench.metrics.common import MeasureContext
from agentbench.models import CoverageMeasurement
from agentbench.workspace import HARNESS_DIR

OMIT_PATTERNS: tuple[str, ...] = (
    "*/tests/*", "*/test/*", "*/testing/*", "*/test_*.py", "*_test.py", "*/conftest.py",
    "*/setup.py", "*/.venv/*", "*/venv/*", "*/site-packages/*", f"*/{HARNESS_DIR}/*",
)


def coverage_environment(ctx: MeasureContext) -> dict[str, str]:
    """Write the coverage configuration; return the variables that switch coverage on."""
    data_dir = ctx.dirs.scratch / "coverage"
    data_dir.mkdir(parents=True, exist_ok=True)
    rc = data_dir / "coveragerc"
    omit = "\n".join(f"    {p}" for p in OMIT_PATTERNS)
    rc.write_text(
        "[run]\nparallel = true\n"
        f"data_file = {data_dir / '.coverage'}\n"
        f"source =\n    {ctx.dirs.workspace.resolve()}\n"
        f"omit =\n{omit}\n",
        encoding="utf-8",
    )
    return {"COVERAGE_PROCESS_START": str(rc)}


def measure_coverage(ctx: MeasureContext) -> CoverageMeasurement:
    """Combine the data the test run left and read the totals (zero when nothing was recorded).

    This runs in-process with coverage.py's API: it only reads data files and parses (never runs)
    the agent's sources, and saves two interpreter start-ups per trial.
    """
    import coverage

    data_dir = ctx.dirs.scratch / "coverage"
    report = ctx.trial_dir / "coverage.json"
    log = ctx.trial_dir / "logs" / "coverage.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    cov = coverage.Coverage(config_file=str(data_dir / "coveragerc"), data_file=str(data_dir / ".coverage"))
    try:
        cov.combine(strict=True)
        cov.save()
        cov.json_report(outfile=str(report))
    except coverage.CoverageException as exc:
        log.write_text(f"no coverage: {exc}\n", encoding="utf-8")
        return CoverageMeasurement()
    totals = json.loads(report.read_text(encoding="utf-8")).get("totals", {})
    log.write_text(f"combined; totals: {totals}\n", encoding="utf-8")
    return CoverageMeasurement(
        covered_lines=int(totals.get("covered_lines", 0)),
        total_lines=int(totals.get("num_statements", 0)),
    )
