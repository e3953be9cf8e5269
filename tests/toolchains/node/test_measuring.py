"""Line coverage from V8 over every product file, the narrow test-file rule, the no-setup parse check,
and the lint of TypeScript challenges."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from agentbench.toolchains.node import TypeScriptToolchain
from agentbench.toolchains.node.lint import lint_node_challenge
from agentbench.toolchains.node.sources import classify_sources
from agentbench.workspace import copy_tree
from tests.toolchains.helpers import trial_context as context
from tests.toolchains.node.conftest import challenge

LIB = """\
/** Adds. */
export interface Point {
  x: number;
}

// a comment
export function add(a: number, b: number): number {
  return a + b;
}

export function unused(p: Point): number {
  if (p.x > 0) {
    return p.x;
  }
  return 0;
}
"""


def test_coverage_counts_unloaded_files_and_ignores_types_and_comments(own_tests, tmp_path):
    own, ctx = own_tests({
        "src/lib.ts": LIB, "src/never.ts": "export function never(): number {\n  return 1;\n}\n",
        "src/types.ts": "export interface T {\n  a: string;\n}\n// only types\n",
        "test/lib.test.ts": 'import { test } from "node:test";\nimport { add } from "../src/lib.ts";\n'
                            'test("add", () => { add(1, 2); });\n',
    })
    toolchain = TypeScriptToolchain()
    sources = toolchain.sources(ctx.dirs.workspace)
    coverage = toolchain.coverage(own, sources, ctx)
    per_file = json.loads((ctx.trial_dir / "coverage.json").read_text())["files"]
    assert per_file["src/never.ts"] == {"covered": 0, "lines": 3}
    assert per_file["src/types.ts"] == {"covered": 0, "lines": 0}
    # code lines 7-9 and 11-16; `add` ran, `unused` (lines 12-16) never did
    assert per_file["src/lib.ts"] == {"covered": 4, "lines": 9}
    assert (coverage.covered_lines, coverage.total_lines, coverage.files) == (4, 12, 3)


def test_test_files_are_narrow_and_product_imports_win(tmp_path):
    files = {"src/a.ts": "import { h } from '../test/helpers.js';\n", "src/tests/impl.ts": "",
             "src/a.test.ts": "", "test/helpers.ts": "", "test/b.spec.mjs": "", "__tests__/c.ts": "",
             "dist/out.js": "", "types.d.ts": "", "node_modules/x/index.js": "", "main.cjs": ""}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    sources = classify_sources(tmp_path)
    rel = lambda paths: sorted(str(p.relative_to(tmp_path)) for p in paths)  # noqa: E731
    assert rel(sources.product) == ["main.cjs", "src/a.ts", "src/tests/impl.ts", "test/helpers.ts"]
    assert rel(sources.tests) == ["__tests__/c.ts", "src/a.test.ts", "test/b.spec.mjs"]


def test_without_setup_commands_every_file_must_parse(tmp_path, assets):
    toolchain = TypeScriptToolchain()
    results = {}
    for name, text in (("good", "export const x: number = 1;\n"), ("bad", "export const x: number = ;\n")):
        ctx = context(tmp_path / name, assets, {"src/a.ts": text, "test/a.test.ts": "import '../src/a.ts';\n"})
        work = toolchain.prepare(challenge(), ctx)
        results[name] = toolchain.build(challenge(), ctx, work, toolchain.sources(ctx.dirs.workspace))
    assert results["good"].success and not results["bad"].success
    empty = context(tmp_path / "empty", assets, {})
    assert not toolchain.build(challenge(), empty, toolchain.prepare(challenge(), empty),
                               toolchain.sources(empty.dirs.workspace)).success


def test_lint_flags_uncountable_commands_and_hidden_tests_needing_packages(tmp_path: Path):
    hidden = tmp_path / "acceptance"
    hidden.mkdir()
    (hidden / "a.test.ts").write_text('import x from "lodash";\nimport { f } from "../src/f.ts";\n'
                                      'fetch("https://api.github.com/x");\n')
    (hidden / "helper.ts").write_text("")
    from dataclasses import replace

    from agentbench.models import AcceptanceSpec

    linted = lint_node_challenge(replace(challenge("npm test", "node --test --test-reporter=dot"),
                                         acceptance=AcceptanceSpec(files_dir=hidden)))
    text = "\n".join(linted)
    assert "'npm test' does not run `node --test`" in text
    assert "sets its own reporter" in text
    assert "imports 'lodash'" in text and "../src/f.ts" not in text
    assert "api.github.com" in text
    assert "helper.ts: not named like a test file" in text


def test_each_trial_gets_a_private_npm_cache_that_installs_the_pins_offline(tmp_path, assets):
    import shutil
    import subprocess

    from agentbench.toolchains.node.assets import load_tools
    from agentbench.toolchains.node.tools import command_env, npm_variables
    from agentbench.workspace import tree_digest

    before = tree_digest(assets / "npm-cache")
    toolchain = TypeScriptToolchain()
    first = toolchain.prepare(challenge(), context(tmp_path / "a", assets, {}))
    second = toolchain.prepare(challenge(), context(tmp_path / "b", assets, {}))
    (first / "npm-cache" / "planted").write_text("from trial a")
    assert not (second / "npm-cache" / "planted").exists()
    assert tree_digest(assets / "npm-cache") == before
    unshare = shutil.which("unshare")
    assert unshare, "util-linux's unshare is needed to cut the network"
    project = tmp_path / "project"
    project.mkdir()
    (project / "package.json").write_text('{"devDependencies": {"typescript": "5.9.3", "@types/node": "22.20.7"}}')
    ctx = context(tmp_path / "c", assets, {})
    env = command_env(load_tools(assets), ctx.dirs, npm_variables(second / "npm-cache"))
    done = subprocess.run([unshare, "-n", str(load_tools(assets).npm), "install"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (project / "node_modules" / "typescript" / "package.json").is_file()


REWRITER = ('import { test } from "node:test";\nimport { writeFileSync } from "node:fs";\n'
            'import { add } from "../src/lib.ts";\n'
            'test("add", () => { add(1, 2); writeFileSync(new URL("../src/never.ts", import.meta.url), "x;\\n"); });\n')


def test_with_a_core_free_the_lines_are_worked_out_from_the_snapshot_while_the_tests_run(assets, tmp_path):
    """The countable lines come from the snapshot (`MeasureContext.snapshot`) in a thread beside the
    own tests: the same figures as working them out at coverage time, whatever a test rewrites."""
    files = {"src/lib.ts": LIB, "src/never.ts": "export function never(): number {\n  return 1;\n}\n",
             "test/lib.test.ts": REWRITER}
    figures = []
    for beside in (True, False):
        ctx = context(tmp_path / str(beside), assets, files)
        snapshot = tmp_path / f"snapshot-{beside}"
        copy_tree(ctx.dirs.workspace, snapshot)
        ctx = replace(ctx, side_by_side=beside, snapshot=snapshot)
        toolchain = TypeScriptToolchain()
        own = toolchain.run_tests(challenge(), ctx, toolchain.prepare(challenge(), ctx))
        assert (own.groundwork is not None) is beside
        assert (ctx.dirs.workspace / "src/never.ts").read_text() == "x;\n"  # the test did rewrite it
        coverage = toolchain.coverage(own, replace(toolchain.sources(snapshot), root=snapshot), ctx)
        figures.append((coverage.covered_lines, coverage.total_lines, coverage.files))
    assert figures[0] == figures[1] == (4, 12, 2)
