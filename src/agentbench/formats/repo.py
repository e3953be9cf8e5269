"""A challenge scaffolded from one's own git repository (`agentbench new --from-repo`).

The starting workspace is the repository at `--commit` (a fresh one-commit repository in each
trial); the reference is the tree of `--reference` (a later commit) or `--commit` plus `--patch`;
the hidden tests are the `--tests` paths as they are in the reference (Python: with their folders'
`conftest.py`/`__init__.py`; TypeScript: flattened into the hidden-test folder, which sits one
level below the project). The prompt is `--prompt`'s text, else the reference commit's message.
`agentbench validate --write-sets` then computes FAIL_TO_PASS and PASS_TO_PASS.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from agentbench.errors import UsageError
from agentbench.formats.base import ChallengeDraft, safe_name
from agentbench.formats.gittree import changed_paths, commit_files, commit_message, python_support
from agentbench.starting import StartingTreeError, resolve_commit

COMMANDS = {"python": ("python -m pytest {tests}",), "go": ("go test ./...",),
            "typescript": ("node --test",)}


@dataclass(frozen=True, slots=True, kw_only=True)
class RepoTask:
    """What `agentbench new --from-repo` was given."""

    repo: Path
    commit: str
    reference: str | None = None
    patch: str | None = None
    tests: tuple[str, ...]
    name: str
    tier: str = "medium"
    language: str = "python"
    prompt: str | None = None


def scaffold(task: RepoTask) -> ChallengeDraft:
    """The draft of `task` (UsageError naming the option that is wrong)."""
    if (task.reference is None) == (task.patch is None):
        raise UsageError("give exactly one of --reference COMMIT and --patch FILE",
                         "the reference is a later commit, or the starting commit plus a patch")
    if task.language not in COMMANDS:
        raise UsageError(f"unknown --language '{task.language}'", f"use one of: {', '.join(COMMANDS)}")
    try:
        base = resolve_commit(task.repo, task.commit)
        ref_commit = resolve_commit(task.repo, task.reference) if task.reference else None
        start = commit_files(task.repo, base)
        reference = commit_files(task.repo, ref_commit or base, (task.patch,) if task.patch else ())
    except StartingTreeError as exc:
        raise UsageError(str(exc), "check --from-repo, --commit, --reference and --patch") from None
    tests = _expand(task.tests, reference)
    changed = changed_paths(task.repo, base, ref_commit) if ref_commit else tuple(
        p for p in reference if reference[p] != start.get(p))
    prompt = task.prompt or (commit_message(task.repo, ref_commit) if ref_commit else "")
    return ChallengeDraft(tier=task.tier, name=safe_name(task.name), repo=task.repo.resolve(),
                          commit=base, reference=reference,
                          acceptance=_acceptance(task.language, tests, reference),
                          fields=_fields(task, prompt, tests, start, changed))


def _expand(paths: tuple[str, ...], tree: dict[str, bytes]) -> tuple[str, ...]:
    """Test files named by `paths` (a file, or every file under a folder) in the reference tree."""
    found: list[str] = []
    for path in paths:
        clean = str(PurePosixPath(path))
        matched = [f for f in tree if f == clean or f.startswith(clean.rstrip("/") + "/")]
        if not matched:
            raise UsageError(f"--tests '{path}' matches no file of the reference tree")
        found += matched
    return tuple(dict.fromkeys(sorted(found)))


def _acceptance(language: str, tests: tuple[str, ...], tree: dict[str, bytes]) -> dict[str, bytes]:
    if language == "python":
        return python_support(tree, tests)
    if language == "typescript":
        return {PurePosixPath(t).name: tree[t] for t in tests}
    return {t: tree[t] for t in tests}


def _fields(task: RepoTask, prompt: str, tests: tuple[str, ...], start: dict[str, bytes],
            changed: tuple[str, ...]) -> dict[str, Any]:
    existing = [t for t in tests if t in start]
    product = [p for p in changed if p not in tests]
    commands = [c.format(tests=" ".join(existing or tests)) for c in COMMANDS[task.language]]
    installable = "pyproject.toml" in start or "setup.py" in start
    setup = {"python": ["python -m pip install -e ."] if installable else [],
             "typescript": ["npm install"], "go": []}[task.language]
    return {"name": task.name, "language": task.language, "time_limit_minutes": 30,
            "prompt": prompt.strip() + "\n" if prompt.strip() else
            "TODO: describe the change the agent should make.\n",
            "expected_files": product, "setup_commands": setup, "test_commands": commands,
            "scoring_rubric": {"max_time_minutes": 30}, "protected": existing}
