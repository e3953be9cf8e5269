"""Hidden acceptance tests: run against a copy of the agent's project so nothing of the agent's sways them.

The tests and a copy of the project (regular files only) go into a fresh harness folder. pytest runs
in a fresh environment that never ran the agent's setup code, with the project reachable only *after*
the standard library and the harness's packages (a `.pth` line, never PYTHONPATH: an agent's
`argparse.py` or `pytest.py` shadows nothing), `-P` and PYTHONSAFEPATH (no current folder on the
path), the harness's own ini file, a `--confcutdir` (the agent's conftest files are never loaded),
plugin auto-loading off, and the probe reporting each outcome as the test finishes. Under
`--sandbox bwrap` it runs confined with the project read-only.

Real tests run beside their canary twins under random names (`canaries.py`, judged by
`toolchains.canaries.judge`): a canary that passes voids the hidden tests (nothing passed), whatever
the process reported about itself. The stream, pytest's exit status and the JUnit file pytest writes
must agree too; any disagreement, or a product file naming the probe, voids them as well. Files the agent planted that
would sway a naive run are recorded too (they are neutralised, so they cost nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from agentbench.models import AcceptanceMeasurement, AcceptanceSpec, CommandResult
from agentbench.snapshot import read_regular
from agentbench.toolchains.base import (
    CommandSpec,
    HiddenRun,
    MeasureContext,
    hidden_measurement,
    marked_files,
)
from agentbench.toolchains.canaries import HiddenCatalog, judge, log_canaries, pick, surveyed
from agentbench.toolchains.python.bytecode import compile_modules
from agentbench.toolchains.python.canaries import Rendered, candidates, is_test_file, render
from agentbench.toolchains.python.env import command_env, create_env
from agentbench.toolchains.python.probe import Tally
from agentbench.toolchains.python.sources import is_test_like
from agentbench.toolchains.python.testrun import run_probed
from agentbench.workspace import TrialDirs, agent_files, copy_tree

PLANTED_NAMES = frozenset({"sitecustomize.py", "usercustomize.py", "conftest.py", "pytest.ini"})
PROBE_MARKERS = (b"AGENTBENCH_PROBE", b"agentbench_probe")
"""Text no product file has a reason to contain: code aimed at the harness's probe."""
MAX_JUNIT_BYTES = 64 * 1024 * 1024
"""A larger JUnit report is not read (the hidden tests are then void)."""


def run_hidden_tests(spec: AcceptanceSpec, ctx: MeasureContext, project: Path) -> HiddenRun:
    """Run the hidden tests against a copy of `project` and count them (see the module docstring)."""
    planted = find_planted(project)
    aimed = _aimed_at_probe(project)
    catalog = ctx.hidden_catalog
    rendered = render(test_sources(spec), pick(catalog) if catalog else ())
    run = _run(spec, ctx, project, "acceptance", (), rendered)
    junit = _junit_passed(run.junit)
    voiding = [*run.tally.tampering, *aimed]
    if run.tally.problem is None and not run.timed_out and junit != run.tally.passed:
        voiding.append(f"the JUnit report says {junit} passed, the probe saw {run.tally.passed}")
    expected = catalog.tests if catalog else [r.original for i, _ in run.tally.outcomes
                                              if (r := rendered.resolve(i)) and r.canary is None]
    verdict = judge(run.tally.outcomes, rendered.resolve, expected,
                    catalog.counted() if catalog else None)
    voiding += verdict.forged
    log_canaries(ctx.logs() / "hidden-canaries.json", rendered.resolve, run.tally.outcomes, verdict)
    judged = replace(run.tally, passed=verdict.passed, skipped=verdict.skipped,
                     failed=verdict.failed - verdict.missing,
                     collected=verdict.passed + verdict.failed + verdict.skipped - verdict.missing,
                     outcomes=verdict.outcomes)
    # without the reference's list, a module that failed to import counts as one failed test
    missing = verdict.missing if catalog else run.tally.collection_errors
    tests = hidden_measurement(judged, run.result, voiding, missing)
    measurement = AcceptanceMeasurement(tests=tests, tampering=(*planted, *voiding), uncollected=missing)
    return HiddenRun(measurement=measurement, outcomes=verdict.outcomes)


def survey_hidden_tests(spec: AcceptanceSpec, reference: Path, ctx: MeasureContext) -> HiddenCatalog | None:
    """Run the hidden tests and every candidate canary on the reference solution: the real tests'
    ids, and the canaries that fail there (None when the run fails)."""
    sources = test_sources(spec)
    generated = candidates(sources, spec.must_fail)
    rendered = render(sources, generated)
    run = _run(spec, ctx, reference, "survey", (), rendered)
    if run.tally.problem is not None or not run.tally.collected:
        return None
    return surveyed(run.tally.outcomes, rendered.resolve, generated, rendered.roles.values())


def test_sources(spec: AcceptanceSpec) -> dict[str, str]:
    """The hidden test modules' text (relative path -> text)."""
    root = spec.files_dir
    return {str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*.py"))
            if p.is_file() and not p.is_symlink() and is_test_file(str(p.relative_to(root)))}


@dataclass(frozen=True, slots=True, kw_only=True)
class _Run:
    tally: Tally
    junit: Path
    result: CommandResult

    @property
    def timed_out(self) -> bool:
        return self.result.timed_out


def _run(spec: AcceptanceSpec, ctx: MeasureContext, project: Path, log_name: str,
         extra: tuple[str, ...], rendered: Rendered) -> _Run:
    root = ctx.private_dir("hidden")
    files = agent_files(project)
    copy_tree(project, root / "project", files=files)
    compile_modules(root / "project" / path.relative_to(project) for path in files
                    if path.suffix == ".py" and not is_test_like(path.relative_to(project)))
    copy_tree(spec.files_dir, root / "tests")
    for rel, text in rendered.sources.items():
        (root / "tests" / rel).write_text(text, encoding="utf-8")
    ini = root / "pytest.ini"
    ini.write_text("[pytest]\naddopts = -p no:cacheprovider\n", encoding="utf-8")
    env = create_env(root / "env", ctx.assets,
                     appended=(root / "project" / "src", root / "project"))
    dirs = TrialDirs(base=root, workspace=root / "project", home=root / "home", tmp=root / "tmp")
    out = root / "out"
    for path in (dirs.home, dirs.tmp, out):
        path.mkdir()
    tests, junit = root / "tests", out / "junit.xml"
    # NOTE: --tb=native: pytest's own styles parse the whole test file again for every failure, and
    # every canary fails (about 15% of the hidden run's CPU on easy/password-gen's reference);
    # --assert=plain: no rewriting of the (freshly rendered) test modules' assertions, about 10% more
    # (an assertion fails or passes alike, only its message is shorter)
    argv = (str(env.python), "-P", "-m", "pytest", "-c", str(ini), "--rootdir", str(tests),
            "--confcutdir", str(tests), f"--junitxml={junit}", "--continue-on-collection-errors",
            "--color=no", "-q", "--tb=native", "--assert=plain", *spec.command, *extra, str(tests))
    variables = command_env(env, dirs, {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "PYTHONSAFEPATH": "1"})
    ctx.let_read(root)
    ctx.let_write(dirs.home, dirs.tmp, out)
    confinement = ctx.confine((dirs.home, dirs.tmp, out), (root,))
    probed = run_probed(CommandSpec(command="pytest <hidden acceptance tests>", env=variables,
                                      log_name=log_name, argv=argv, timeout_s=spec.time_limit_seconds,
                                      cwd=dirs.tmp), ctx, confinement)
    return _Run(tally=probed.tally, junit=junit, result=probed.result)


def _junit_passed(path: Path) -> int | None:
    """Passed tests by the JUnit report (None when there is none or it cannot be read)."""
    from junitparser import JUnitXml, JUnitXmlError

    data = read_regular(path, MAX_JUNIT_BYTES)  # NOTE: the tests' process could make it a FIFO
    if data is None:
        return None
    try:
        xml = JUnitXml.fromstring(data)
    except (JUnitXmlError, ValueError, SyntaxError):
        return None
    suites = list(xml) if isinstance(xml, JUnitXml) else [xml]
    return sum(1 for suite in suites for case in suite if case.is_passed)


def find_planted(workspace: Path) -> tuple[str, ...]:
    """Files the agent left that would sway a naive test run (the harness neutralises them)."""
    found = []
    for path in agent_files(workspace):
        rel = path.relative_to(workspace)
        in_tests = any(part in ("tests", "test") for part in rel.parts[:-1])
        if rel.suffix == ".pth" or rel.name in ("sitecustomize.py", "usercustomize.py") or (
                rel.name in PLANTED_NAMES and not in_tests):
            found.append(str(rel))
    return tuple(found)


def _aimed_at_probe(workspace: Path) -> list[str]:
    return [f"{path.relative_to(workspace)} contains code aimed at the harness's probe"
            for path in marked_files(agent_files(workspace, (".py", ".pth")), PROBE_MARKERS)]
