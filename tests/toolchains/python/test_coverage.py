"""Coverage the product cannot write: coverage.py's figures are cross-checked by the probe's own line
collector in a second run, so lines forged into coverage's live data or data files planted in its
folder earn nothing."""

from __future__ import annotations

from agentbench.toolchains.python import PythonToolchain
from agentbench.toolchains.python.coverage import measure_coverage
from tests.toolchains.python.conftest import challenge, context

OPS = """\
def used(x):
    if x > 0:
        return 1
    return 0


def unused(x):
    if x:
        return 2
    return 3
"""

TESTS = "from pkg.ops import used\n\n\ndef test_used():\n    assert used(1) == 1\n"

FORGE = """
import coverage as _cov
_current = _cov.Coverage.current()
if _current is not None:
    import ast as _ast
    _tree = _ast.parse(open(__file__).read())
    _current.get_data().add_lines({__file__: sorted({n.lineno for n in _ast.walk(_tree) if hasattr(n, "lineno")})})
"""

PLANT = """

def test_plant():
    import os, coverage
    from coverage import CoverageData
    import pkg.ops as ops
    folder = os.path.dirname(os.environ["COVERAGE_PROCESS_START"]) + "/coverage"
    data = CoverageData(basename=folder + "/.coverage.planted.1.x")
    data.add_lines({ops.__file__: list(range(1, 12))})
    data.write()
"""


def coverage_of(tmp_path, template, files):
    ctx = context(tmp_path, template, {"pkg/__init__.py": "", **files})
    toolchain = PythonToolchain()
    work = toolchain.prepare(challenge(), ctx)
    own = toolchain.run_tests(challenge(), ctx, work)
    sources = toolchain.sources(ctx.dirs.workspace)
    alone = measure_coverage(own.coverage_data, sources, ctx)
    return toolchain.coverage(own, sources, ctx), alone


def test_lines_forged_into_coverage_s_live_data_or_planted_files_earn_nothing(tmp_path, template):
    honest, _ = coverage_of(tmp_path / "honest", template, {"pkg/ops.py": OPS, "tests/test_ops.py": TESTS})
    # used(1) runs `def used`, its `if` and `return 1`; `def unused` runs; 4 statements do not
    assert (honest.covered_lines, honest.total_lines) == (4, 8)
    forged, alone = coverage_of(tmp_path / "forged", template, {"pkg/ops.py": OPS + FORGE,
                                                          "tests/test_ops.py": TESTS + PLANT})
    # FORGE's 6 statements; its first 3 run in both runs (coverage.py is off in the second, so the
    # `if` body never runs there): nothing else is gained
    assert (forged.covered_lines, forged.total_lines) == (4 + 3, 8 + 6)
    assert alone.covered_lines == alone.total_lines == 14  # what coverage.py alone would say


WHERE = """
import subprocess, sys

import coverage
from pkg.ops import used


def test_coverage_runs_in_the_pytest_process_only():
    assert used(1) == 1
    assert coverage.Coverage.current() is not None
    child = subprocess.run([sys.executable, "-c", "import coverage; print(coverage.Coverage.current())"],
                           capture_output=True, text=True, check=True)
    assert child.stdout.strip() == "None"
"""


def test_coverage_py_starts_in_the_pytest_process_only(tmp_path, template):
    """A product CLI a test starts pays no coverage.py start: its lines could never count (the
    second collector does not see them), so the probe starts coverage.py in the pytest process alone."""
    ctx = context(tmp_path, template, {"pkg/__init__.py": "", "pkg/ops.py": OPS, "tests/test_ops.py": WHERE})
    toolchain = PythonToolchain()
    work = toolchain.prepare(challenge(), ctx)
    own = toolchain.run_tests(challenge(), ctx, work)
    assert (own.tests.passed, own.tests.failed) == (1, 0)
    measured = toolchain.coverage(own, toolchain.sources(ctx.dirs.workspace), ctx)
    assert (measured.covered_lines, measured.total_lines) == (4, 8)
