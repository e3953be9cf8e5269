"""SWE-bench-style instances (JSON lines) over a local clone, as brownfield challenges.

Each line holds `instance_id`, `base_commit`, `problem_statement`, `patch` (the gold change),
`test_patch`, `FAIL_TO_PASS` and `PASS_TO_PASS` (lists, or JSON text of lists, of pytest node IDs
relative to the repository's root), optionally `difficulty` (SWE-bench Verified's annotation). The
starting workspace is the repository at `base_commit` (a fresh one-commit repository: no later
commit is reachable); the reference is base + patch + test patch; the hidden tests are the test
files the IDs name (with the test patch applied) and their folders' `conftest.py`/`__init__.py`,
laid out as in the repository so the IDs match. Python repositories only: their tests run in the
trial's own virtual environment.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentbench.formats.base import ChallengeDraft, ImportReport, safe_name, write_drafts
from agentbench.formats.gittree import commit_files, patched_paths, python_support
from agentbench.starting import StartingTreeError, resolve_commit

REQUIRED = ("instance_id", "base_commit", "problem_statement", "patch", "test_patch", "FAIL_TO_PASS",
            "PASS_TO_PASS")
DIFFICULTY_TIERS = {"<15 min fix": "easy", "15 min - 1 hour": "medium", "1-4 hours": "hard",
                    ">4 hours": "hard"}


class BadInstance(Exception):
    """An instance that cannot be converted (the message says why)."""


def import_swe(instances: Path, repo: Path, output: Path, *, overwrite: bool = False) -> ImportReport:
    """Convert every instance of the JSON-lines file `instances` (over the clone `repo`)."""
    return write_drafts(_drafts(instances, repo.resolve()), output, overwrite=overwrite)


def _drafts(instances: Path, repo: Path) -> Iterator[tuple[str, ChallengeDraft | str]]:
    """Each instance (by `file:line`), with its draft or why it cannot be converted."""
    for number, line in enumerate(instances.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            draft: ChallengeDraft | str = convert(json.loads(line), repo)
        except (BadInstance, StartingTreeError, ValueError) as exc:
            draft = str(exc)
        yield f"{instances}:{number}", draft


def _ids(value: Any, field: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = json.loads(value)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadInstance(f"{field} is not a list of test IDs")
    return tuple(value)


def convert(instance: dict[str, Any], repo: Path) -> ChallengeDraft:
    """One instance as a challenge draft."""
    if not isinstance(instance, dict) or (missing := [f for f in REQUIRED if f not in instance]):
        raise BadInstance(f"missing field(s): {', '.join(missing) if isinstance(instance, dict) else 'all'}")
    f2p, p2p = _ids(instance["FAIL_TO_PASS"], "FAIL_TO_PASS"), _ids(instance["PASS_TO_PASS"], "PASS_TO_PASS")
    if not f2p:
        raise BadInstance("FAIL_TO_PASS is empty")
    base = resolve_commit(repo, str(instance["base_commit"]))
    start = commit_files(repo, base)
    tested = commit_files(repo, base, (instance["test_patch"],))
    reference = commit_files(repo, base, (instance["patch"], instance["test_patch"]))
    test_files = tuple(dict.fromkeys(t.split("::")[0] for t in (*f2p, *p2p)))
    if missing := [f for f in test_files if f not in tested]:
        raise BadInstance(f"test file(s) {', '.join(missing)} not in the repository with the test patch")
    if not any(name.endswith(".py") for name in start):
        raise BadInstance("not a Python repository")
    changed = [p for p in patched_paths(str(instance["patch"])) if p in reference]
    return ChallengeDraft(
        tier=DIFFICULTY_TIERS.get(str(instance.get("difficulty", "")), "medium"),
        name=safe_name(str(instance["instance_id"])), repo=repo, commit=base,
        reference=reference, acceptance=python_support(tested, test_files),
        fields=_fields(instance, changed, test_files, start, (f2p, p2p)))


def _fields(instance: dict[str, Any], changed: list[str], test_files: tuple[str, ...],
            start: dict[str, bytes], sets: tuple[tuple[str, ...], tuple[str, ...]]) -> dict[str, Any]:
    installable = "pyproject.toml" in start or "setup.py" in start
    existing = [f for f in test_files if f in start]
    prompt = (f"{str(instance['problem_statement']).rstrip()}\n\n"
              "The repository is checked out in the workspace at the commit where this issue was "
              "reported. Change its code so the issue is resolved; keep its existing tests passing "
              "and do not modify them.\n")
    return {
        "name": f"{instance['instance_id']} (SWE-style)", "language": "python",
        "time_limit_minutes": 60, "prompt": prompt, "expected_files": changed,
        "setup_commands": ['python -m pip install -e .'] if installable else [],
        "test_commands": [f"python -m pytest {' '.join(existing or test_files[:1])}"],
        "scoring_rubric": {"max_time_minutes": 60},
        "protected": existing, "fail_to_pass": list(sets[0]), "pass_to_pass": list(sets[1]),
    }
