"""Completeness: the seed's expected files plus the rubric's `min_files`, `must_have_tests` and
`must_have_readme`, each one item of the ratio.

- each expected file counts when it is a non-empty regular file (not a symlink) inside the workspace;
- `min_files` (when above 0): the workspace holds at least that many non-empty files;
- `must_have_tests` (when true): at least one workspace file collected at least one test in the
  harness's run of the agent's tests;
- `must_have_readme` (when true): a non-empty README (any extension) at the top of the workspace.
"""

from __future__ import annotations

from pathlib import Path

from agentbench.models import Challenge, CompletenessMeasurement, TestMeasurement
from agentbench.workspace import agent_files


def measure_completeness(challenge: Challenge, workspace: Path, tests: TestMeasurement) -> CompletenessMeasurement:
    """Check every item of the checklist (see the module docstring)."""
    found: list[str] = []
    missing: list[str] = []
    for rel in challenge.expected_files:
        reason = _file_problem(workspace, rel)
        (missing if reason else found).append(f"{rel} ({reason})" if reason and reason != "missing" else rel)
    for label, problem in _rubric_items(challenge, workspace, tests):
        (missing if problem else found).append(f"{label} ({problem})" if problem else label)
    return CompletenessMeasurement(found=tuple(found), missing=tuple(missing))


def _file_problem(workspace: Path, rel: str) -> str | None:
    path = workspace / rel
    try:
        inside = path.resolve().is_relative_to(workspace.resolve())
        if not inside or path.is_symlink() or not path.is_file():
            return "missing"
        return "empty" if path.stat().st_size == 0 else None
    except (OSError, RuntimeError):
        return "missing"


def _rubric_items(challenge: Challenge, workspace: Path, tests: TestMeasurement) -> list[tuple[str, str | None]]:
    rubric = challenge.scoring_rubric
    items: list[tuple[str, str | None]] = []
    if rubric.min_files > 0:
        count = sum(1 for p in agent_files(workspace) if _non_empty(p))
        items.append(("[min_files]", None if count >= rubric.min_files
                      else f"{count} non-empty files, at least {rubric.min_files} expected"))
    if rubric.must_have_tests:
        items.append(("[tests]", None if tests.test_files else "no test file collected a test"))
    if rubric.must_have_readme:
        readme = any(p.name.upper().startswith("README") and _non_empty(p)
                     for p in workspace.iterdir() if p.is_file() and not p.is_symlink())
        items.append(("[readme]", None if readme else "no non-empty README"))
    return items


def _non_empty(path: Path) -> bool:
    try:
        return path.stat().st_size > 0
    except OSError:
        return False
