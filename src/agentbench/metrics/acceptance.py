"""Hidden acceptance tests: copied in fresh after the agent ends and run so the agent cannot sway them.

The tests go to `.agentbench/acceptance/` in the workspace, replacing anything the agent left there.
pytest then runs in a fresh environment that never ran the agent's setup code, with `-P` (the current
folder is not importable), the harness's packages first on `PYTHONPATH` (an agent's `pytest.py` or
`sitecustomize.py` cannot shadow them), its own ini file (the agent's pytest config is ignored), a
`--confcutdir` (the agent's conftest.py files are not loaded) and plugin auto-loading off. Files that
could have swayed a naive run are recorded as tampering.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from agentbench.metrics.common import MeasureContext, env_for, read_log, run_command
from agentbench.metrics.tests import count_results
from agentbench.models import AcceptanceMeasurement, AcceptanceSpec, CommandResult
from agentbench.workspace import HARNESS_DIR, agent_files, copy_tree, create_env

SUSPICIOUS_NAMES = frozenset({"sitecustomize.py", "usercustomize.py", "conftest.py", "pytest.ini"})


def measure_acceptance(spec: AcceptanceSpec, ctx: MeasureContext) -> AcceptanceMeasurement:
    """Install the hidden tests over whatever is at their path, run them, and count the results.

    When the number of hidden tests is known (collected on the reference solution), tests that did
    not even get collected here (a module that failed to import) count as failed.
    """
    tampering = find_tampering(ctx.dirs.workspace)
    result, junit = _run_hidden_tests(spec, ctx, ctx.dirs.workspace, "acceptance", ())
    counts = count_results(junit, read_log(ctx, result))
    expected = ctx.expected_acceptance_tests
    uncollected = max(0, expected - counts.total) if expected else 0
    counts = replace(counts, failed=counts.failed + uncollected, commands=(result,))
    return AcceptanceMeasurement(tests=counts, tampering=tampering, uncollected=uncollected)


def _run_hidden_tests(spec: AcceptanceSpec, ctx: MeasureContext, workspace: Path, log_name: str,
                      extra_args: tuple[str, ...]) -> tuple[CommandResult, Path]:
    target = workspace / HARNESS_DIR / "acceptance"
    _remove(workspace / HARNESS_DIR)
    copy_tree(spec.files_dir, target)
    (target / "pytest.ini").write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    env = create_env(ctx.dirs.scratch / f"{log_name}-env", ctx.template_site)
    junit = ctx.dirs.scratch / "junit" / f"{log_name}.xml"
    junit.parent.mkdir(parents=True, exist_ok=True)
    argv = [str(env.python), "-P", "-m", "pytest", "-c", str(target / "pytest.ini"),
            "--rootdir", str(target), "--confcutdir", str(target), f"--junitxml={junit}",
            # NOTE: one hidden-test module that cannot import (the agent's module is missing) must
            # not stop the others; its uncollected tests count as failed (see measure_acceptance)
            "--continue-on-collection-errors",
            "-q", *spec.command, *extra_args, str(target)]
    variables = env_for(env, ctx, {
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
        "PYTHONPATH": f"{ctx.template_site}:{workspace / 'src'}:{workspace}",
    })
    result = run_command("pytest <hidden acceptance tests>", ctx=ctx, env_vars=variables,
                         log_name=log_name, timeout_s=spec.time_limit_seconds, argv=argv)
    return result, junit


def count_hidden_tests(spec: AcceptanceSpec, reference: Path, ctx: MeasureContext) -> int | None:
    """How many hidden tests pytest collects against the reference solution (None if it fails)."""
    copy_tree(reference, ctx.dirs.workspace)
    result, _ = _run_hidden_tests(spec, ctx, ctx.dirs.workspace, "collect", ("--collect-only",))
    if not result.ok:
        return None
    ids = [line for line in read_log(ctx, result).splitlines() if "::" in line]
    return len(ids) or None


def _remove(path: Path) -> None:
    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.is_dir():
        shutil.rmtree(path)


def find_tampering(workspace: Path) -> tuple[str, ...]:
    """Files the agent left that could sway a naive test run, and anything at the protected path."""
    found = []
    harness = workspace / HARNESS_DIR
    if harness.exists() or harness.is_symlink():
        found.append(f"{HARNESS_DIR}/ existed before the hidden tests were copied in")
    for path in agent_files(workspace):
        rel = path.relative_to(workspace)
        in_tests = any(part in ("tests", "test") for part in rel.parts[:-1])
        if rel.suffix == ".pth" or rel.name in ("sitecustomize.py", "usercustomize.py") or (rel.name in SUSPICIOUS_NAMES and not in_tests):
            found.append(str(rel))
    return tuple(found)
