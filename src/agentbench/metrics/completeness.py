"""Completeness: which of the challenge's expected files exist as regular files in the workspace."""

from __future__ import annotations

from agentbench.models import Challenge, CompletenessMeasurement
from agentbench.workspace import TrialDirs


def measure_completeness(challenge: Challenge, dirs: TrialDirs) -> CompletenessMeasurement:
    """A file counts when it is a regular file (not a symlink) inside the workspace."""
    root = dirs.workspace.resolve()
    found, missing = [], []
    for rel in challenge.expected_files:
        path = dirs.workspace / rel
        inside = path.resolve().is_relative_to(root)
        if inside and path.is_file() and not path.is_symlink():
            found.append(rel)
        else:
            missing.append(rel)
    return CompletenessMeasurement(found=tuple(found), missing=tuple(missing))
