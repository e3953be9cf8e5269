"""The metric runners on real little projects: real venvs, real pytest and coverage runs."""

import os
import shutil
from pathlib import Path

import pytest

from agentbench.loader import load_challenge
from agentbench.metrics import MeasureContext, measure
from agentbench.metrics.completeness import measure_completeness
from agentbench.metrics.quality import measure_quality
from agentbench.models import TestMeasurement
from agentbench.toolchains.python.env import template_site_packages
from agentbench.toolchains.python.sources import classify_sources
from agentbench.workspace import cache_dir, make_trial_dirs
from tests.conftest import write


@pytest.fixture(scope="session")
def template(tmp_path_factory) -> Path:
    return template_site_packages(cache_dir(), tmp_path_factory.mktemp("logs"))


def context(tmp_path: Path, template: Path) -> MeasureContext:
    return MeasureContext(dirs=make_trial_dirs(tmp_path / "t"), trial_dir=tmp_path / "trial",
                          assets=template)


def test_reference_solution_measures_fully(tiny_challenges, tmp_path, template):
    challenge = load_challenge(tiny_challenges / "easy" / "adder.yaml")
    ctx = context(tmp_path, template)
    shutil.copytree(challenge.reference_dir, ctx.dirs.workspace, dirs_exist_ok=True)
    m = measure(challenge, ctx)
    assert m.build.success and m.build.commands[0].ok
    assert (m.tests.passed, m.tests.failed, m.tests.collected, m.tests.source) == (2, 0, 2, "probe")
    assert m.tests.test_files == ("tests/test_adder.py",)
    # 6 statements: both `def`s and add's return run; unused()'s if/return/return never do
    assert (m.coverage.covered_lines, m.coverage.total_lines) == (3, 6)
    assert m.quality.functions == 2 and m.quality.average_complexity == 1.5
    assert m.completeness.ratio == 1.0
    assert m.completeness.found[-2:] == ("[min_files]", "[tests]")
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
    installed = list(ctx.dirs.base.glob("measure-*/env-*/venv/**/*adder*"))
    assert installed, "the project was installed into the trial's own environment"


def test_quality_ignores_tests_and_needs_functions(tmp_path):
    dirs = make_trial_dirs(tmp_path)
    write(dirs.workspace / "tests" / "test_x.py", "def test_a():\n    assert True\n")
    sources = classify_sources(dirs.workspace)
    assert measure_quality(sources.product, dirs.workspace).average_complexity is None
    write(dirs.workspace / "src" / "m.py", """\
        def f(x):
            if x:
                return 1
            return 0
        """)
    q = measure_quality(classify_sources(dirs.workspace).product, dirs.workspace)
    assert (q.functions, q.average_complexity) == (1, 2.0)


def test_quality_average_is_exact(tmp_path):
    dirs = make_trial_dirs(tmp_path)
    # 2 functions of complexity 5 and 1 of complexity 4.999...: no rounding to 3 decimals
    body = "def f{n}(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(4)) + "    return 0\n"
    write(dirs.workspace / "m.py", "".join(body.format(n=n) for n in range(3)))
    q = measure_quality(classify_sources(dirs.workspace).product, dirs.workspace)
    assert q.average_complexity == 5.0
    write(dirs.workspace / "n.py", "".join(f"def g{i}():\n    return 1\n" for i in range(9996)))
    q = measure_quality(classify_sources(dirs.workspace).product, dirs.workspace)
    assert q.average_complexity == pytest.approx((3 * 5 + 9996) / 9999)


def test_quality_weights_by_lines_and_never_skips_a_large_file(tmp_path, monkeypatch):
    from agentbench.metrics import quality

    dirs = make_trial_dirs(tmp_path)
    big = "def big(x):\n" + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(60))
    write(dirs.workspace / "m.py", big + "".join(f"\n\ndef f{i}():\n    return {i}\n" for i in range(80)))
    q = measure_quality(classify_sources(dirs.workspace).product, dirs.workspace)
    assert q.functions == 81 and q.average_complexity < 2 and q.weighted_complexity > 20
    monkeypatch.setattr(quality, "MAX_ANALYSED_BYTES", 100)
    q = measure_quality(classify_sources(dirs.workspace).product, dirs.workspace)
    assert q.unanalysed == ("m.py",) and q.functions == 0


def test_completeness_counts_non_empty_regular_files_and_rubric_items(tiny_challenges, tmp_path):
    challenge = load_challenge(tiny_challenges / "easy" / "adder.yaml")
    dirs = make_trial_dirs(tmp_path)
    os.symlink("/etc/hostname", dirs.workspace / "pyproject.toml")
    write(dirs.workspace / "src" / "adder" / "__init__.py", "")  # empty: not found
    write(dirs.workspace / "tests" / "test_adder.py", "def test_a():\n    pass\n")
    none = TestMeasurement()
    m = measure_completeness(challenge, dirs.workspace, none)
    assert m.found == ("tests/test_adder.py",)
    assert m.missing == ("pyproject.toml", "src/adder/__init__.py (empty)",
                         "[min_files] (1 non-empty files, at least 3 expected)",
                         "[tests] (no test file collected a test)")
    collected = TestMeasurement(passed=1, collected=1, test_files=("tests/test_adder.py",))
    assert "[tests]" in measure_completeness(challenge, dirs.workspace, collected).found


def test_side_by_side_the_hidden_run_overlaps_the_build_and_measures_the_same(tiny_challenges, tmp_path,
                                                                              template):
    """With a core free the hidden tests run beside the build and own tests: the build starts while
    the (slow) hidden run still runs; every figure is the one measured in turn."""
    from dataclasses import replace

    from agentbench.toolchains.python import PythonToolchain

    assert PythonToolchain.hidden_alongside is True
    challenge = load_challenge(tiny_challenges / "easy" / "adder.yaml")
    write(challenge.acceptance.files_dir / "test_slow.py",
          "import time\n\nimport adder\n\n\ndef test_slow():\n    time.sleep(3)\n"
          "    assert adder.add(2, 2) == 4\n")
    figures = []
    for side_by_side in (False, True):
        ctx = replace(context(tmp_path / str(side_by_side), template), side_by_side=side_by_side)
        shutil.copytree(challenge.reference_dir, ctx.dirs.workspace, dirs_exist_ok=True)
        m = measure(challenge, ctx)
        logs = ctx.trial_dir / "logs"
        setup_start = (logs / "setup-1.log").stat().st_mtime - m.build.commands[0].duration_s
        overlapped = setup_start < (logs / "acceptance.log").stat().st_mtime - 1.0
        assert overlapped is side_by_side
        figures.append((m.build.success, m.tests.passed, m.coverage.covered_lines, m.quality.functions,
                        m.completeness.ratio, m.acceptance.tests.passed, m.acceptance.tests.total,
                        m.failures))
    assert figures[0] == figures[1] and figures[0][5] == 3
