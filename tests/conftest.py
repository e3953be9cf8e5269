"""Shared fixtures: tiny challenge folders written by the tests, and a CLI runner."""

from __future__ import annotations

import os
import shutil
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

TINY_YAML = """\
name: "Adder"
language: python
time_limit_minutes: 5
prompt: |
  Create a package `adder` under src/ with `add(a, b)` returning a + b.
  Files: pyproject.toml, src/adder/__init__.py, tests/test_adder.py.
expected_files:
  - pyproject.toml
  - src/adder/__init__.py
  - tests/test_adder.py
setup_commands:
  - python -m pip install -e ".[dev]"
test_commands:
  - python -m pytest tests/ -v
scoring_rubric:
  min_files: 3
  must_have_tests: true
  max_time_minutes: 5
"""

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "adder"
version = "0.1.0"

[project.optional-dependencies]
dev = ["pytest"]

[tool.setuptools.packages.find]
where = ["src"]
"""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def make_tiny_challenge(root: Path, name: str = "adder", tier: str = "easy") -> Path:
    """A complete little challenge (YAML, reference, hidden tests) under root/<tier>/."""
    write(root / tier / f"{name}.yaml", TINY_YAML)
    ref = root / tier / name / "reference"
    write(ref / "pyproject.toml", PYPROJECT)
    write(ref / "src" / "adder" / "__init__.py", '''\
        """Adds numbers."""


        def add(a: int, b: int) -> int:
            """Return a + b."""
            return a + b


        def unused(x: int) -> int:
            """Never called by the tests: keeps coverage below 100%."""
            if x > 0:
                return x
            return -x
        ''')
    write(ref / "tests" / "test_adder.py", """\
        from adder import add


        def test_add():
            assert add(2, 3) == 5


        def test_add_negative():
            assert add(-2, -3) == -5
        """)
    acc = root / tier / name / "acceptance"
    write(acc / "test_hidden.py", """\
        import adder


        def test_add_small():
            assert adder.add(1, 1) == 2


        def test_add_large():
            assert adder.add(10**12, 1) == 10**12 + 1
        """)
    return root


@pytest.fixture
def tiny_challenges(tmp_path: Path) -> Path:
    """A challenge folder holding easy/adder with reference and hidden tests."""
    return make_tiny_challenge(tmp_path / "challenges")


def open_to_trial_users(path: Path) -> Path:
    """Let trial users (unprivileged uids, when the tests run as root) pass through `path` and its
    parents up to the system temp folder, so fake agents written there can run. pytest makes its
    temp folders 0700."""
    top = Path(tempfile.gettempdir()).resolve()
    for folder in [path.resolve(), *path.resolve().parents]:
        if folder == top or not folder.is_relative_to(top):
            break
        folder.chmod(folder.stat().st_mode | 0o711)
    return path


@pytest.fixture(scope="module")
def shared_folder() -> Iterator[Path]:
    """A folder outside pytest's own temp root (which another pytest session may close again),
    enterable and readable by trial users: for fake agents that whole modules share."""
    folder = Path(tempfile.mkdtemp(prefix="agentbench-tests-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def _tmp_path_reachable_by_trial_users(request: pytest.FixtureRequest) -> None:
    if os.geteuid() == 0 and "tmp_path" in request.fixturenames:
        open_to_trial_users(request.getfixturevalue("tmp_path"))


def drop_box(tmp_path: Path) -> Path:
    """A folder the agents under test may write to (they run as other users when the tests are
    root), for them to leave markers the test reads."""
    folder = tmp_path / "drop-box"
    folder.mkdir(exist_ok=True)
    folder.chmod(0o777)
    return folder


def pytest_configure(config: pytest.Config) -> None:
    """pytest-xdist's workers start with COLUMNS=80 and LINES=24 of their own; AgentBench's console
    would then wrap at 80 columns in a worker and at 160 in one process: the same width in both."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        for name in ("COLUMNS", "LINES"):
            os.environ.pop(name, None)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """`@pytest.mark.needs("bwrap", "go", ...)`: skip naming the install command, fail under CI."""
    from tests.requirements import require

    for marker in item.iter_markers("needs"):
        require(*marker.args)
