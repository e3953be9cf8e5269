"""Line coverage of the agent's own (non-test) code by coverage.py while the agent's tests run.

Coverage is switched on for every Python process of the trial environment through its startup hook
(`COVERAGE_PROCESS_START`), so it works whatever the test command is; data files are combined and read
as JSON afterwards. Tests, the harness folder and environments are omitted from the measured code.
"""

from __future__ import annotations

import json

from agentbench.metrics.common import MeasureContext, env_for, run_command
from agentbench.models import CoverageMeasurement
from agentbench.workspace import HARNESS_DIR, PythonEnv

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


def measure_coverage(env: PythonEnv, ctx: MeasureContext) -> CoverageMeasurement:
    """Combine the data the test run left and read the totals (zero when nothing was recorded)."""
    data_dir = ctx.dirs.scratch / "coverage"
    rc = data_dir / "coveragerc"
    report = data_dir / "coverage.json"
    combine = run_command(
        "coverage combine", ctx=ctx, env_vars=env_for(env, ctx), log_name="coverage-combine",
        argv=[str(env.python), "-m", "coverage", "combine", f"--rcfile={rc}"],
    )
    if not combine.ok:
        return CoverageMeasurement()
    exported = run_command(
        "coverage json", ctx=ctx, env_vars=env_for(env, ctx), log_name="coverage-json",
        argv=[str(env.python), "-m", "coverage", "json", f"--rcfile={rc}", "-o", str(report)],
    )
    if not exported.ok or not report.is_file():
        return CoverageMeasurement()
    text = report.read_text(encoding="utf-8")
    (ctx.trial_dir / "coverage.json").write_text(text, encoding="utf-8")
    totals = json.loads(text).get("totals", {})
    return CoverageMeasurement(
        covered_lines=int(totals.get("covered_lines", 0)),
        total_lines=int(totals.get("num_statements", 0)),
    )
