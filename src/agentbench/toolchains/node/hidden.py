"""Hidden acceptance tests for TypeScript/JavaScript: run against a copy of the project, by the harness.

The project (regular files only, no `node_modules`) is copied into a fresh harness folder, the hidden
tests into its `.agentbench-acceptance/` folder (anything the agent put there is removed first, and
a `package.json` there makes them ES modules). A project with runtime `dependencies` gets a fresh
`npm install --omit=dev --ignore-scripts` from a private copy of the warmed npm cache. Then the
harness's Node runs exactly the hidden test files, each in its own child process
(`--experimental-test-isolation=process`), with `js/freeze.mjs` preloaded in each (assertions cannot
be replaced). The verdict is made in the parent `node --test` process, which loads no product code:
the reporter streaming each outcome over the pipe, the JUnit reporter writing a file, the exit
status. The children report to it over their stdout (node's serialized events), which product code
can forge; what a child says is judged by the canaries. The tree runs undumpable (`Confinement.
undumpable`): a child cannot ptrace its parent nor open its descriptors or memory in /proc, and
libuv closes every descriptor but stdio in the children it starts, so the channel stays the parent's.

The stream, node's exit status and the JUnit file must agree; a test reported from outside the hidden
test files (registered by product code), more tests than the reference runs, or a product file naming
the reporter voids the hidden tests (nothing passed). Under `--sandbox bwrap` the run is confined
with the project read-only.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from agentbench.models import AcceptanceSpec, CommandResult
from agentbench.snapshot import read_regular
from agentbench.toolchains.base import (
    CommandSpec,
    HiddenRun,
    MeasureContext,
    judged_hidden_run,
    marked_files,
    run_command,
)
from agentbench.toolchains.canaries import HiddenCatalog, Role, pick, surveyed
from agentbench.toolchains.node.assets import trial_npm_cache
from agentbench.toolchains.node.canaries import Rendered, candidates, is_test_file, render
from agentbench.toolchains.node.sources import SUFFIXES, is_test_like
from agentbench.toolchains.node.tally import Tally
from agentbench.toolchains.node.testrun import REPORTER_FLAGS, ReportedCommand, run_reported
from agentbench.toolchains.node.tools import NodeTools, command_env, npm_variables
from agentbench.workspace import TrialDirs, agent_files, copy_tree

HIDDEN_DIR = ".agentbench-acceptance"
"""Where the hidden tests go in the project copy (they import the product as `../src/...`)."""
FREEZE_SCRIPT = Path(__file__).parent / "js" / "freeze.mjs"
TMPDIR_VARIABLE = "AGENTBENCH_TMPDIR"
"""The hidden run's temp folder, which `js/freeze.mjs` puts back in TMPDIR in every process."""
MARKERS = (b"AGENTBENCH_REPORTER", b"agentbench-reporter")
"""Text no product file has a reason to contain: code aimed at the harness's reporter."""


def run_hidden_tests(spec: AcceptanceSpec, ctx: MeasureContext, project: Path,
                     tools: NodeTools) -> HiddenRun:
    """Run the hidden tests against a copy of `project` and count them (see the module docstring)."""
    aimed = _aimed_at_reporter(project)
    catalog = ctx.hidden_catalog
    rendered = render(test_sources(spec), pick(catalog) if catalog else ())
    run = _run(spec, ctx, project, "acceptance", tools, rendered)
    judged = run.tally
    voiding = [*judged.tampering, *aimed, *_outside(judged, run.tests_dir)]
    junit = _junit_passed(run.junit)
    if judged.problem is None and not run.result.timed_out and junit != judged.passed:
        voiding.append(f"the JUnit report says {junit} passed, the reporter saw {judged.passed}")
    return judged_hidden_run(judged, run.result, _resolver(rendered), voiding, ctx)


def survey_hidden_tests(spec: AcceptanceSpec, reference: Path, ctx: MeasureContext,
                        tools: NodeTools) -> HiddenCatalog | None:
    """Run the hidden tests and every candidate canary on the reference solution (None if that
    fails): the real tests' ids and the canaries that fail there."""
    sources = test_sources(spec)
    generated = candidates(sources)
    rendered = render(sources, generated, canaries_first=True)
    run = _run(spec, ctx, reference, "survey", tools, rendered)
    if run.tally.problem is not None or run.tally.tampering or not run.tally.collected:
        return None
    return surveyed(run.tally.outcomes, _resolver(rendered), generated, rendered.roles.values())


def test_sources(spec: AcceptanceSpec) -> dict[str, str]:
    """The hidden test files' text (relative path -> text)."""
    root = spec.files_dir
    return {str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*"))
            if p.is_file() and not p.is_symlink() and is_test_file(str(p.relative_to(root)))}


def _resolver(rendered: Rendered) -> Callable[[str], Role | None]:
    def resolve(test_id: str) -> Role | None:
        _, _, name = test_id.partition(" ")
        return rendered.resolve(name)
    return resolve


@dataclass(frozen=True, slots=True, kw_only=True)
class _Run:
    tally: Tally
    junit: Path
    result: CommandResult
    tests_dir: Path


def _run(spec: AcceptanceSpec, ctx: MeasureContext, project: Path, log_name: str,
         tools: NodeTools, rendered: Rendered) -> _Run:
    root = ctx.private_dir("hidden")
    copy = root / "project"
    copy_tree(project, copy, files=agent_files(project))
    shutil.rmtree(copy / HIDDEN_DIR, ignore_errors=True)
    tests_dir = copy / HIDDEN_DIR
    copy_tree(spec.files_dir, tests_dir)
    for rel, text in rendered.sources.items():
        (tests_dir / rel).write_text(text, encoding="utf-8")
    if not (tests_dir / "package.json").exists():
        (tests_dir / "package.json").write_text('{"type": "module"}\n', encoding="utf-8")
    dirs = TrialDirs(base=root, workspace=copy, home=root / "home", tmp=root / "tmp")
    out = root / "out"
    for path in (dirs.home, dirs.tmp, out):
        path.mkdir()
    ctx.let_read(root)
    ctx.let_write(dirs.home, dirs.tmp, out)
    env = command_env(tools, dirs)
    _install_dependencies(ctx, dirs, env, tools)
    files = sorted(str(p) for p in agent_files(tests_dir, SUFFIXES) if is_test_like(p.relative_to(tests_dir)))
    junit = out / "junit.xml"
    # one file at a time, on any machine: files that share a port or a data file cannot clash
    argv = (str(tools.node), "--test", "--experimental-test-isolation=process", "--test-concurrency=1",
            f"--import={FREEZE_SCRIPT}", REPORTER_FLAGS, "--test-reporter=junit",
            f"--test-reporter-destination={junit}", *files)
    confinement = replace(ctx.confine((dirs.home, dirs.tmp, out), (root, FREEZE_SCRIPT.parent)),
                          undumpable=True)
    env[TMPDIR_VARIABLE] = env["TMPDIR"]  # NOTE: glibc drops TMPDIR in an undumpable tree
    reported = run_reported(ReportedCommand(command="node --test <hidden acceptance tests>", env=env,
                                            log_name=log_name, argv=argv,
                                            timeout_s=spec.time_limit_seconds, cwd=dirs.tmp),
                            ctx, confinement, tools)
    return _Run(tally=reported.tally, junit=junit, result=reported.result, tests_dir=tests_dir)


def _install_dependencies(ctx: MeasureContext, dirs: TrialDirs, env: dict[str, str],
                          tools: NodeTools) -> None:
    """`npm install` of the runtime dependencies, when the project declares any."""
    try:
        manifest = json.loads((dirs.workspace / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return
    if not isinstance(manifest, dict) or not manifest.get("dependencies"):
        return
    cache = trial_npm_cache(ctx.assets, dirs.base / "npm-cache")
    ctx.let_write(dirs.workspace, cache)
    run_command(CommandSpec(
        command="npm install --omit=dev --ignore-scripts", env={**env, **npm_variables(cache)},
        log_name="acceptance-install",
        argv=(str(tools.npm), "install", "--omit=dev", "--ignore-scripts", "--no-save"),
        cwd=dirs.workspace,
    ), ctx, ctx.confine((dirs.workspace, dirs.home, dirs.tmp, cache)))


def _outside(judged: Tally, tests_dir: Path) -> list[str]:
    prefix = str(tests_dir) + "/"
    return [f"a test was reported from {name}, which is not a hidden test file (product code "
            "registered it)" for name in judged.files if not name.startswith(prefix)]


MAX_JUNIT_BYTES = 64 * 1024 * 1024
"""A larger JUnit report is not read (the hidden tests are then void)."""


def _junit_passed(path: Path) -> int | None:
    """Passed test cases by the JUnit report (None when there is none or it cannot be read)."""
    import xml.etree.ElementTree as ET

    data = read_regular(path, MAX_JUNIT_BYTES)  # NOTE: the tests' process could make it a FIFO
    if data is None:
        return None
    try:
        root = ET.fromstring(data)
    except (ET.ParseError, ValueError):
        return None
    bad = ("failure", "error", "skipped")
    return sum(1 for case in root.iter("testcase") if not any(case.find(tag) is not None for tag in bad))


def _aimed_at_reporter(workspace: Path) -> list[str]:
    product = (p for p in agent_files(workspace, SUFFIXES) if not is_test_like(p.relative_to(workspace)))
    return [f"{path.relative_to(workspace)} contains code aimed at the harness's reporter"
            for path in marked_files(product, MARKERS)]
