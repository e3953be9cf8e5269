"""Tiny brownfield projects written by the tests: a git repository with a bug and its later fix."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.conftest import PYPROJECT, write

BUGGY = '''\
"""Small maths helpers."""


def add(a: int, b: int) -> int:
    """Return a + b."""
    return a + b


def clamp(x: int, low: int, high: int) -> int:
    """x limited to [low, high]."""
    return max(low, x)
'''

FIXED = BUGGY.replace("return max(low, x)", "return min(high, max(low, x))")

VISIBLE_TESTS = '''\
from mathy import add, clamp


def test_add():
    assert add(2, 3) == 5


def test_clamp_low():
    assert clamp(-5, 0, 10) == 0
'''

HIDDEN_TESTS = '''\
from mathy import add, clamp


def test_add():
    assert add(2, 3) == 5


def test_clamp_low():
    assert clamp(-5, 0, 10) == 0


def test_clamp_high():
    assert clamp(50, 0, 10) == 10
'''

SECRET = "FUTURE-COMMIT-ONLY-7f3a"
"""Text only the repository's later commit holds (a trial must never be able to find it)."""

YAML = """\
name: "Fix clamp"
language: python
time_limit_minutes: 5
prompt: |
  `clamp(x, low, high)` in src/mathy/__init__.py ignores `high`. Fix it; keep tests/test_mathy.py passing.
expected_files:
  - src/mathy/__init__.py
setup_commands:
  - python -m pip install -e ".[dev]"
test_commands:
  - python -m pytest tests/ -v
scoring_rubric:
  max_time_minutes: 5
{workspace}
protected:
  - tests/test_mathy.py
fail_to_pass:
  - test_hidden.py::test_clamp_high
pass_to_pass:
  - test_hidden.py::test_add
  - test_hidden.py::test_clamp_low
"""

GIT_ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "GIT_CONFIG_GLOBAL": os.devnull}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=GIT_ENV).stdout.strip()


def project(root: Path, source: str) -> Path:
    write(root / "pyproject.toml", PYPROJECT.replace("adder", "mathy"))
    (root / "src" / "mathy").mkdir(parents=True, exist_ok=True)
    (root / "src" / "mathy" / "__init__.py").write_text(source)
    write(root / "tests" / "test_mathy.py", VISIBLE_TESTS)
    return root


def make_repo(root: Path) -> tuple[Path, str, str]:
    """A repository whose first commit has the bug and whose second fixes it (with SECRET); returns
    (repo, buggy commit, fix commit)."""
    repo = project(root, BUGGY)
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "buggy")
    start = git(repo, "rev-parse", "HEAD")
    (repo / "src" / "mathy" / "__init__.py").write_text(FIXED + f"# {SECRET}\n")
    git(repo, "commit", "-q", "-am", f"fix clamp {SECRET}")
    fix = git(repo, "rev-parse", "HEAD")
    git(repo, "tag", "v1")
    git(repo, "remote", "add", "origin", "https://example.invalid/mathy.git")
    return repo, start, fix


def make_challenge(root: Path, *, use_git: bool = True, name: str = "clamp") -> Path:
    """root/medium/<name>.yaml with a starting workspace (git commit or folder), a full reference
    tree and hidden tests; returns root (the challenges folder)."""
    folder = root / "medium" / name
    if use_git:
        repo, start, _ = make_repo(root.parent / f"{name}-repo")
        workspace = f"workspace:\n  repo: {repo}\n  commit: \"{start}\""
    else:
        project(folder / "start", BUGGY)
        workspace = f"workspace: {name}/start"
    write(root / "medium" / f"{name}.yaml", YAML.format(workspace=workspace))
    project(folder / "reference", FIXED)
    write(folder / "acceptance" / "test_hidden.py", HIDDEN_TESTS)
    return root
