"""Starting workspaces: loading `workspace:`, the one-commit repository, protected files put back."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agentbench.errors import ChallengeError
from agentbench.loader import load_challenge
from agentbench.starting import close_workspace, seed_workspace
from tests.brownfield.fixtures import BUGGY, SECRET, VISIBLE_TESTS, git, make_challenge, make_repo
from tests.conftest import write


def test_folder_workspace_loads_and_seeds(tmp_path: Path) -> None:
    root = make_challenge(tmp_path / "challenges", use_git=False)
    challenge = load_challenge(root / "medium" / "clamp.yaml")
    assert challenge.workspace is not None and not challenge.workspace.is_git
    assert challenge.protected == ("tests/test_mathy.py",)
    assert challenge.fail_to_pass == ("test_hidden.py::test_clamp_high",)
    ws = tmp_path / "ws"
    ws.mkdir()
    assert seed_workspace(challenge, ws, tmp_path / "cache") is not None
    assert (ws / "src" / "mathy" / "__init__.py").read_text() == BUGGY
    assert not (ws / ".git").exists()


def test_git_workspace_holds_only_the_starting_commit(tmp_path: Path) -> None:
    root = make_challenge(tmp_path / "challenges")
    challenge = load_challenge(root / "medium" / "clamp.yaml")
    ws = tmp_path / "ws"
    ws.mkdir()
    seed_workspace(challenge, ws, tmp_path / "cache")
    assert (ws / "src" / "mathy" / "__init__.py").read_text() == BUGGY
    assert git(ws, "rev-list", "--all", "--count") == "1"
    assert git(ws, "log", "--all", "--format=%s") == "Starting tree"
    assert git(ws, "remote") == "" and git(ws, "tag") == ""
    assert git(ws, "for-each-ref", "--format=%(refname)") == "refs/heads/main"
    assert git(ws, "reflog", "--all") == ""
    assert git(ws, "status", "--porcelain") == ""
    everything = subprocess.run(["grep", "-r", "-a", "-c", SECRET, str(ws)], capture_output=True,
                                text=True).stdout
    assert SECRET not in (ws / ".git").joinpath("HEAD").read_text()
    assert all(line.endswith(":0") for line in everything.splitlines()), everything
    stored = {line.split()[0] for line in git(ws, "cat-file", "--batch-all-objects",
                                              "--batch-check").splitlines()}
    reachable = {line.split()[0] for line in git(ws, "rev-list", "--objects", "HEAD").splitlines()}
    assert stored == reachable and len(stored) == 8  # 1 commit, 4 trees, 3 blobs: nothing else


def test_git_template_is_cached_and_byte_identical(tmp_path: Path) -> None:
    root = make_challenge(tmp_path / "challenges")
    challenge = load_challenge(root / "medium" / "clamp.yaml")
    heads = []
    for n in (1, 2):
        ws = tmp_path / f"ws{n}"
        ws.mkdir()
        seed_workspace(challenge, ws, tmp_path / "cache")
        heads.append(git(ws, "rev-parse", "HEAD"))
    assert heads[0] == heads[1]
    assert len(list((tmp_path / "cache" / "starting").glob("*/ready"))) == 1


@pytest.mark.parametrize(("value", "field", "problem"), [
    ("workspace: nowhere/start", "workspace", "does not exist"),
    ("workspace: [1, 2]", "workspace", "expected a folder or a mapping"),
    ("workspace:\n  repo: {repo}\n  commit: \"deadbeef\"", "workspace.commit", "is not in the repository"),
    ("workspace:\n  repo: {tmp}\n  commit: \"deadbeef\"", "workspace.repo", "not a git repository"),
    ("workspace:\n  repo: {repo}", "workspace.commit", "missing required field"),
    ("workspace:\n  repo: {repo}\n  commit: \"HEAD\"\n  branch: x", "workspace.branch", "unknown field"),
])
def test_bad_workspace_is_a_clear_error(tmp_path: Path, value: str, field: str, problem: str) -> None:
    repo, _, _ = make_repo(tmp_path / "repo")
    plain = tmp_path / "plain"
    plain.mkdir()
    path = write(tmp_path / "c" / "easy" / "x.yaml", (
        "name: x\nlanguage: python\nprompt: p\nexpected_files: [a.py]\ntest_commands: [pytest]\n"
        "scoring_rubric: {}\n") + value.format(repo=repo, tmp=plain) + "\n")
    with pytest.raises(ChallengeError) as info:
        load_challenge(path)
    assert info.value.field == field, info.value
    assert problem in str(info.value) and str(path) in str(info.value)
    assert info.value.hint


def test_close_workspace_diffs_and_puts_protected_files_back(tmp_path: Path) -> None:
    root = make_challenge(tmp_path / "challenges")
    challenge = load_challenge(root / "medium" / "clamp.yaml")
    ws, trial = tmp_path / "ws", tmp_path / "trial"
    ws.mkdir()
    pristine = seed_workspace(challenge, ws, tmp_path / "cache")
    (ws / "tests" / "test_mathy.py").write_text("def test_nothing():\n    pass\n")
    (ws / "src" / "mathy" / "__init__.py").write_text(BUGGY + "\nX = 1\n")
    (ws / ".git" / "refs" / "heads" / "sneaky").write_text("0" * 40 + "\n")
    (ws / "image.bin").write_bytes(b"\0\1\2")
    shutil.copytree(ws, trial / "workspace", ignore=shutil.ignore_patterns(".git"))
    summary = close_workspace(challenge, trial, pristine, live=ws, measured=ws)
    assert summary.protected == ("tests/test_mathy.py (modified)",)
    assert summary.binary_files == ("image.bin",)
    assert summary.files_changed == 3 and summary.lines_added >= 3 and summary.lines_removed >= 7
    assert ".git/refs/heads/sneaky (added)" in summary.git_dir
    diff = (trial / "changes.diff").read_text()
    assert "+X = 1" in diff and "Binary files /dev/null and b/image.bin differ" in diff
    assert (ws / "tests" / "test_mathy.py").read_text() == VISIBLE_TESTS
    assert not (ws / ".git" / "refs" / "heads" / "sneaky").exists()
    assert (ws / "src" / "mathy" / "__init__.py").read_text().endswith("X = 1\n")


def test_protected_file_behind_a_symlinked_folder_is_put_back_inside(tmp_path: Path) -> None:
    root = make_challenge(tmp_path / "challenges", use_git=False)
    challenge = load_challenge(root / "medium" / "clamp.yaml")
    ws, trial, outside = tmp_path / "ws", tmp_path / "trial", tmp_path / "outside"
    ws.mkdir()
    outside.mkdir()
    (trial / "workspace").mkdir(parents=True)
    pristine = seed_workspace(challenge, ws, tmp_path / "cache")
    subprocess.run(["rm", "-r", str(ws / "tests")], check=True)
    (ws / "tests").symlink_to(outside)
    summary = close_workspace(challenge, trial, pristine, live=ws, measured=ws)
    assert "tests/test_mathy.py (deleted)" in summary.protected
    assert not (ws / "tests").is_symlink() and (ws / "tests" / "test_mathy.py").read_text() == VISIBLE_TESTS
    assert list(outside.iterdir()) == []


def test_added_and_deleted_text_files_are_diffed_as_text(tmp_path: Path) -> None:
    from agentbench.changes import diff_trees

    before, after = tmp_path / "a", tmp_path / "b"
    write(before / "gone.txt", "one\ntwo\n")
    write(after / "new.txt", "x\n")
    (after / "blob").write_bytes(b"\xff\xfe")
    changes = diff_trees(before, after)
    assert "--- a/gone.txt\n+++ /dev/null" in changes.diff
    assert "--- /dev/null\n+++ b/new.txt" in changes.diff
    assert changes.summary.binary_files == ("blob",)
    assert (changes.summary.lines_added, changes.summary.lines_removed) == (1, 2)
    assert diff_trees(None, after).summary.files_changed == 2
