"""The metric runners on real little projects: real venvs, real pytest and coverage runs."""

import os
import shutil
from pathlib import Path

import pytest

from agentbench.loader import load_challenge
from agentbench.metrics import MeasureContext, measure
from agentbench.metrics.completeness import measure_completeness
from agentbench.metrics.quality import measure_quality
from agentbench.workspace import cache_dir, make_trial_dirs, template_site_packages
from tests.conftest import write


@pytest.fixture(scope="session")
def template(tmp_path_factory) -> Path:
    return template_site_packages(cache_dir(), tmp_path_factory.mktemp("logs"))


def context(tmp_path: Path, template: Path) -> MeasureContext:
    return MeasureContext(dirs=make_trial_dirs(tmp_path / "t"), trial_dir=tmp_path / "trial",
                          template_site=template)


def test_reference_solution_measures_fully(tiny_challenges, tmp_path, template):
    challenge = load_challenge(tiny_challenges / "easy" / "adder.yaml")
    ctx = context(tmp_path, template)
    shutil.copytree(challenge.reference_dir, ctx.dirs.workspace, dirs_exist_ok=True)
    m = measure(challenge, ctx)
    assert m.build.success and m.build.commands[0].ok
    assert (m.tests.passed, m.tests.failed, m.tests.source) == (2, 0, "junit")
    # 6 statements: both `def`s and add's return run; unused()'s if/return/return never do
    assert (m.coverage.covered_lines, m.coverage.total_lines) == (3, 6)
    assert m.quality.functions == 2 and m.quality.average_complexity == 1.5
    assert m.completeness.ratio == 1.0
    assert m.acceptance is not None and (m.acceptance.tests.passed, m.acceptance.tests.total) == (2, 2)
    assert (ctx.trial_dir / "logs" / "setup-1.log").is_file()
    assert "2 passed" in (ctx.trial_dir / "logs" / "test-1.log").read_text()


def test_empty_workspace_measures_zero(tiny_challenges, tmp_path, template):
    challenge = load_challenge(tiny_challenges / "easy" / "adder.yaml")
    m = measure(challenge, context(tmp_path, template))
    assert not m.build.success
    assert m.tests.total == 0
    assert m.coverage.ratio == 0.0
    assert m.quality.average_complexity is None
    assert m.completeness.ratio == 0.0
    assert m.acceptance.tests.passed == 0 and m.acceptance.tests.total >= 1


def test_failing_tests_are_counted(tiny_challenges, tmp_path, template):
    challenge = load_challenge(tiny_challenges / "easy" / "adder.yaml")
    ctx = context(tmp_path, template)
    shutil.copytree(challenge.reference_dir, ctx.dirs.workspace, dirs_exist_ok=True)
    write(ctx.dirs.workspace / "src" / "adder" / "__init__.py", "def add(a, b):\n    return a - b\n")
    m = measure(challenge, ctx)
    assert m.build.success
    assert (m.tests.passed, m.tests.failed) == (0, 2)
    assert (m.acceptance.tests.passed, m.acceptance.tests.failed) == (0, 2)


def test_setup_commands_never_touch_agentbenchs_environment(tiny_challenges, tmp_path, template):
    challenge = load_challenge(tiny_challenges / "easy" / "adder.yaml")
    ctx = context(tmp_path, template)
    shutil.copytree(challenge.reference_dir, ctx.dirs.workspace, dirs_exist_ok=True)
    measure(challenge, ctx)
    import importlib.util

    assert importlib.util.find_spec("adder") is None
    installed = list((ctx.dirs.scratch / "env").rglob("*adder*"))
    assert installed, "the project was installed into the trial's own environment"


def test_quality_ignores_tests_and_needs_functions(tmp_path):
    dirs = make_trial_dirs(tmp_path)
    write(dirs.workspace / "tests" / "test_x.py", "def test_a():\n    assert True\n")
    challenge_stub = type("C", (), {"language": "python"})()
    assert measure_quality(challenge_stub, dirs).average_complexity is None
    write(dirs.workspace / "src" / "m.py", """\
        def f(x):
            if x:
                return 1
            return 0
        """)
    q = measure_quality(challenge_stub, dirs)
    assert (q.functions, q.average_complexity) == (1, 2.0)


def test_completeness_does_not_count_symlinks_out_of_the_workspace(tmp_path):
    dirs = make_trial_dirs(tmp_path)
    os.symlink("/etc/hostname", dirs.workspace / "README.md")
    write(dirs.workspace / "a.py", "x = 1\n")
    challenge_stub = type("C", (), {"expected_files": ("a.py", "README.md", "b.py")})()
    m = measure_completeness(challenge_stub, dirs)
    assert m.found == ("a.py",) and m.missing == ("README.md", "b.py")
