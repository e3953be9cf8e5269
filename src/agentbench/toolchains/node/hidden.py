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
Sealed files (`node.sealed`: they import only Node's own modules, so their process runs no product
code) have no canaries and run first in a `node --test` of their own; a test reported by a run that
is not its file's own voids the hidden tests.

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
from agentbench.toolchains.node.sealed import is_sealed
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
    sources = test_sources(spec)
    rendered = render(sources, pick(catalog) if catalog else ())
    run = _run(spec, ctx, project, "acceptance", tools, rendered, sealed_files(sources))
    voiding = [*aimed]
    for part in run.parts:
        voiding += [*part.tally.tampering, *_outside(part, run.tests_dir, rendered)]
        junit = _junit_passed(part.junit)
        if part.tally.problem is None and not part.result.timed_out and junit != part.tally.passed:
            voiding.append(f"the JUnit report says {junit} passed, the reporter saw {part.tally.passed}")
    return judged_hidden_run(run.tally, run.result, _resolver(rendered), voiding, ctx)


def survey_hidden_tests(spec: AcceptanceSpec, reference: Path, ctx: MeasureContext,
                        tools: NodeTools) -> HiddenCatalog | None:
    """Run the hidden tests and every candidate canary on the reference solution (None if that
    fails): the real tests' ids and the canaries that fail there (none for a sealed file, whose
    tests the process boundary guards: `sealed`)."""
    sources = test_sources(spec)
    sealed = sealed_files(sources)
    generated = candidates({rel: text for rel, text in sources.items() if rel not in sealed})
    rendered = render(sources, generated, canaries_first=True)
    judged = _run(spec, ctx, reference, "survey", tools, rendered, sealed).tally
    if judged.problem is not None or judged.tampering or not judged.collected:
        return None
    return surveyed(judged.outcomes, _resolver(rendered), generated, rendered.roles.values(),
                    sealed=sealed)


def sealed_files(sources: dict[str, str]) -> frozenset[str]:
    """The hidden test files that can load no product code in their process (`node.sealed`)."""
    return frozenset(rel for rel, text in sources.items() if is_sealed(text))


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
class _Part:
    """One `node --test` of the hidden run: its files (relative), what it reported, its JUnit."""

    files: frozenset[str]
    tally: Tally
    junit: Path
    result: CommandResult


@dataclass(frozen=True, slots=True, kw_only=True)
class _Run:
    parts: tuple[_Part, ...]
    tests_dir: Path

    @property
    def tally(self) -> Tally:
        """The parts' tallies as one."""
        tallies = [p.tally for p in self.parts]
        return Tally(passed=sum(t.passed for t in tallies), failed=sum(t.failed for t in tallies),
                     skipped=sum(t.skipped for t in tallies),
                     files=tuple(f for t in tallies for f in t.files),
                     outcomes=tuple(o for t in tallies for o in t.outcomes),
                     tampering=tuple(x for t in tallies for x in t.tampering),
                     problem=next((t.problem for t in tallies if t.problem is not None), None),
                     empty_files=tuple(f for t in tallies for f in t.empty_files))

    @property
    def result(self) -> CommandResult:
        """The parts' results as one: the first that did not succeed (else the last), timed over all."""
        worst = next((p.result for p in self.parts if not p.result.ok), self.parts[-1].result)
        return replace(worst, duration_s=round(sum(p.result.duration_s for p in self.parts), 3))


def _run(spec: AcceptanceSpec, ctx: MeasureContext, project: Path, log_name: str,  # noqa: PLR0913
         tools: NodeTools, rendered: Rendered, sealed: frozenset[str]) -> _Run:
    """The sealed files in a `node --test` of their own, then the others (one command when all or
    none are sealed): a product-loading file's child never shares a judging parent with them."""
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
    files = sorted(str(p.relative_to(tests_dir)) for p in agent_files(tests_dir, SUFFIXES)
                   if is_test_like(p.relative_to(tests_dir)))
    groups = [g for g in ([f for f in files if f in sealed], [f for f in files if f not in sealed]) if g]
    parts = tuple(_node_test(ctx, tools, env, dirs, (out, tests_dir), group, spec.time_limit_seconds,
                             log_name if k == 0 else f"{log_name}-{k + 1}")
                  for k, group in enumerate(groups or [[]]))
    return _Run(parts=parts, tests_dir=tests_dir)


def _node_test(ctx: MeasureContext, tools: NodeTools, env: dict[str, str],  # noqa: PLR0913
               dirs: TrialDirs, where: tuple[Path, Path], files: list[str], timeout_s: float,
               log_name: str) -> _Part:
    out, tests_dir = where
    junit = out / f"junit-{log_name}.xml"
    # one file at a time, on any machine: files that share a port or a data file cannot clash
    argv = (str(tools.node), "--test", "--experimental-test-isolation=process", "--test-concurrency=1",
            f"--import={FREEZE_SCRIPT}", REPORTER_FLAGS, "--test-reporter=junit",
            f"--test-reporter-destination={junit}", *(str(tests_dir / f) for f in files))
    confinement = replace(ctx.confine((dirs.home, dirs.tmp, out), (dirs.base, FREEZE_SCRIPT.parent)),
                          undumpable=True)
    env = {**env, TMPDIR_VARIABLE: env["TMPDIR"]}  # NOTE: glibc drops TMPDIR in an undumpable tree
    reported = run_reported(ReportedCommand(command="node --test <hidden acceptance tests>", env=env,
                                            log_name=log_name, argv=argv, timeout_s=timeout_s,
                                            cwd=dirs.tmp), ctx, confinement, tools)
    return _Part(files=frozenset(files), tally=reported.tally, junit=junit, result=reported.result)


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


def _outside(part: _Part, tests_dir: Path, rendered: Rendered) -> list[str]:
    """Tests a part reported from outside its own files (product code registered or forged them)."""
    prefix = str(tests_dir) + "/"
    found = [f"a test was reported from {name}, which is not a hidden test file of its run (product "
             "code registered it)" for name in part.tally.files
             if not name.startswith(prefix) or name[len(prefix):] not in part.files]
    for test_id, _ in part.tally.outcomes:
        role = rendered.resolve(test_id.partition(" ")[2])
        if role is not None and role.group.split("::", 1)[0] not in part.files:
            found.append(f"{role.original} was reported by the run of other files (forged)")
    return found


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
