"""Trees of a local git repository for the importers: a commit's files, with patches applied.

Everything goes through `agentbench.starting.git` (a clean git configuration, no hooks) into
temporary folders; nothing is written into the user's repository.
"""

from __future__ import annotations

import re
import tarfile
import tempfile
from pathlib import Path

from agentbench.formats.base import tree_of
from agentbench.starting import StartingTreeError, git

_PATCHED = re.compile(r"^diff --git a/(\S+) b/(\S+)$", re.M)


def commit_files(repo: Path, commit: str, patches: tuple[str, ...] = ()) -> dict[str, bytes]:
    """The files of `commit` in `repo`, with `patches` (unified diffs) applied in order."""
    with tempfile.TemporaryDirectory(prefix="agentbench-import-") as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        archive = Path(tmp) / "tree.tar"
        git(["archive", "--format=tar", commit], repo, out=archive)
        with tarfile.open(archive) as tar:
            tar.extractall(tree, filter="data")
        for n, patch in enumerate(patches):
            if not patch.strip():
                continue
            path = Path(tmp) / f"{n}.patch"
            path.write_text(patch if patch.endswith("\n") else patch + "\n", encoding="utf-8")
            try:
                git(["apply", "--whitespace=nowarn", str(path)], tree)
            except StartingTreeError as exc:
                raise StartingTreeError(f"the patch does not apply to {commit[:12]}: {exc}") from None
        return tree_of(tree)


def patched_paths(patch: str) -> tuple[str, ...]:
    """The paths a unified diff (git format) changes, in order."""
    return tuple(dict.fromkeys(b for _, b in _PATCHED.findall(patch)))


def commit_message(repo: Path, commit: str) -> str:
    """The full message of `commit`."""
    return git(["log", "-1", "--format=%B", commit], repo).strip()


def changed_paths(repo: Path, base: str, target: str) -> tuple[str, ...]:
    """Paths that differ between two commits."""
    out = git(["diff", "--name-only", "--no-renames", base, target], repo)
    return tuple(line for line in out.splitlines() if line)


def python_support(tree: dict[str, bytes], test_files: tuple[str, ...]) -> dict[str, bytes]:
    """Test files with the `conftest.py` and `__init__.py` files of their folders (pytest needs
    them to import the tests the way the repository does)."""
    picked = {f: tree[f] for f in test_files if f in tree}
    for rel in test_files:
        for parent in Path(rel).parents:
            for name in ("conftest.py", "__init__.py"):
                candidate = str(parent / name) if str(parent) != "." else name
                if candidate in tree:
                    picked[candidate] = tree[candidate]
    return picked
