"""Hidden acceptance tests for Go: `_test.go` files copied into the packages of a copy of the project.

The project is copied (regular files only) into a fresh harness folder *without the agent's own
`_test.go` files* (they could clash with the hidden tests' names, or not compile); the hidden tests
are copied over it, folder for folder (`acceptance/kv/store_test.go` goes into the copy's `kv/`).
The harness's Go runs `go test -json -count=1` on exactly the packages holding hidden tests, with the
warmed build cache read in place and a layer of this run's own (`assets.layered`), the harness's module cache, GOFLAGS=-mod=mod and no network;
under `--sandbox bwrap` it is confined with the project read-only. The tree runs undumpable
(`Confinement.undumpable`): the test binary, where product code runs, can neither take the go
command's stdout (test2json's events, which the harness reads) nor read or ptrace it.

Real tests run beside canary twins renamed at random (`canaries.py`, judged by
`toolchains.canaries.judge`): a canary that passes voids the hidden tests (nothing passed); tests the
reference did not run count for nothing, and one it ran that is not reported fails. What
`gotest.tally` rejects, or a product file carrying test2json's framing byte or AgentBench's name, voids
them too.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from agentbench.models import AcceptanceSpec, CommandResult
from agentbench.toolchains.base import (
    CommandSpec,
    HiddenRun,
    MeasureContext,
    judged_hidden_run,
    marked_files,
    read_log,
    run_command,
)
from agentbench.toolchains.canaries import HiddenCatalog, surveyed
from agentbench.toolchains.go.assets import layer_folders, layered
from agentbench.toolchains.go.canaries import Rendered, candidates, pick_aligned, render
from agentbench.toolchains.go.gotest import Tally, tally
from agentbench.toolchains.go.tools import go_env
from agentbench.workspace import TrialDirs, agent_files, copy_tree

MARKERS = (b"AGENTBENCH", b"\\x16", b"\\026", b"\\u0016", b"\x16")
"""Text no product file has a reason to contain: test2json's framing byte, or the harness's name."""


def run_hidden_tests(spec: AcceptanceSpec, ctx: MeasureContext, project: Path, go: Path) -> HiddenRun:
    """Run the hidden tests against a copy of `project` and count them (see the module docstring)."""
    aimed = _aimed_at_the_harness(project)
    catalog = ctx.hidden_catalog
    sources = test_sources(spec)
    rendered = render(sources, pick_aligned(catalog, sources) if catalog else ())
    judged, result = _run(spec, ctx, project, "acceptance", go, rendered)
    return judged_hidden_run(judged, result, rendered.resolve, [*judged.tampering, *aimed], ctx)


def survey_hidden_tests(spec: AcceptanceSpec, reference: Path, ctx: MeasureContext,
                        go: Path) -> HiddenCatalog | None:
    """Run the hidden tests and every candidate canary on the reference solution (None if that
    fails): the real tests' ids and the canaries that fail there."""
    sources = test_sources(spec)
    generated = candidates(sources)
    rendered = render(sources, generated)
    judged, _ = _run(spec, ctx, reference, "survey", go, rendered)
    if judged.problem is not None or judged.tampering or not judged.collected:
        return None
    return surveyed(judged.outcomes, rendered.resolve, generated, rendered.roles.values())


def test_sources(spec: AcceptanceSpec) -> dict[str, str]:
    """The hidden `_test.go` files' text (relative path -> text)."""
    root = spec.files_dir
    return {str(p.relative_to(root)): p.read_text(encoding="utf-8") for p in sorted(root.rglob("*_test.go"))
            if p.is_file() and not p.is_symlink()}


def hidden_packages(files_dir: Path) -> tuple[str, ...]:
    """`./folder` of every folder of the hidden tests holding a `_test.go` file."""
    folders = {p.parent.relative_to(files_dir) for p in files_dir.rglob("*_test.go") if p.is_file()}
    return tuple(sorted("./" + str(f) if str(f) != "." else "." for f in folders))


def _run(spec: AcceptanceSpec, ctx: MeasureContext, project: Path, log_name: str,
         go: Path, rendered: Rendered) -> tuple[Tally, CommandResult]:
    root = ctx.private_dir("hidden")
    copy = root / "project"
    copy_tree(project, copy, files=[f for f in agent_files(project) if not f.name.endswith("_test.go")])
    copy_tree(spec.files_dir, copy)
    for rel, text in rendered.sources.items():
        (copy / rel).write_text(text, encoding="utf-8")
    dirs = TrialDirs(base=root, workspace=copy, home=root / "home", tmp=root / "tmp")
    for path in (dirs.home, dirs.tmp):
        path.mkdir()
    caches = layered(ctx.assets, root)
    argv = (str(go), "test", "-json", "-count=1", *spec.command, *hidden_packages(spec.files_dir))
    (root / "gopath").mkdir()
    ctx.let_read(root)
    writable = (dirs.home, dirs.tmp, *layer_folders(root), root / "gopath")
    ctx.let_write(*writable)
    # undumpable: the test binary cannot take the go command's stdout (pidfd_getfd) or its memory
    confinement = replace(ctx.confine(writable, (root,)), undumpable=True)
    result = run_command(CommandSpec(command="go test <hidden acceptance tests>", log_name=log_name,
                                     env=go_env(go, dirs, root, caches), argv=argv,
                                     timeout_s=spec.time_limit_seconds, cwd=copy), ctx, confinement)
    return tally(read_log(ctx, result), returncode=result.returncode, timed_out=result.timed_out,
                 direct=True), result


def _aimed_at_the_harness(workspace: Path) -> list[str]:
    product = (p for p in agent_files(workspace, (".go",)) if not p.name.endswith("_test.go"))
    return [f"{path.relative_to(workspace)} contains code aimed at the test protocol (test2json's "
            "framing byte) or at the harness" for path in marked_files(product, MARKERS)]
