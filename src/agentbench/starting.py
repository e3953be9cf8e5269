"""Starting workspaces: the tree a brownfield trial begins with, and putting protected files back.

A challenge's `workspace:` is a folder of files or a git repository and commit. A git start becomes a
*fresh* repository holding one commit of that tree (fixed author and date, branch `main`): no other
commit, ref, tag, reflog, remote or packed object of the source repository is ever copied, so no
later commit is reachable from the trial (`git log --all`, `git reflog` and the object store show
the starting commit only). The template (tree plus fresh `.git`) is built once per commit in the
cache and copied into each trial's workspace.

Before measuring, the harness puts back what the agent may not change: every protected file as it
was (a new file at a protected path is removed) in the snapshot that is measured (which never holds
`.git`; a workspace that does, e.g. on regrade, gets the starting `.git` back). The agent's own
version stays in the trial's archive and diff, and what it wrote in `.git` is listed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import tarfile
import tempfile
from dataclasses import replace
from pathlib import Path

from agentbench import process
from agentbench.changes import DIFF_FILE, diff_trees, is_protected, tree_files
from agentbench.errors import AgentBenchError
from agentbench.models import Challenge, ChangeSummary, StartingWorkspace
from agentbench.workspace import cache_lock, display_name

GIT_TIMEOUT_S = 600.0
GIT_IDENTITY = ("-c", "user.name=AgentBench", "-c", "user.email=agentbench@localhost",
                "-c", "init.defaultBranch=main", "-c", "core.hooksPath=/dev/null",
                "-c", "commit.gpgSign=false")
FIXED_DATE = "2000-01-01T00:00:00+0000"
COMMIT_MESSAGE = "Starting tree"


class StartingTreeError(AgentBenchError):
    """A starting workspace could not be read or built (bad repository, unknown commit); in a trial
    it is the harness's failure (infra_error)."""


def git(argv: list[str], cwd: Path, *, out: Path | None = None) -> str:
    """Run git with a clean configuration; its stdout (or, with `out`, the file it went to)."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_CONFIG_GLOBAL": os.devnull, "HOME": str(cwd), "GIT_TERMINAL_PROMPT": "0",
           "GIT_AUTHOR_DATE": FIXED_DATE, "GIT_COMMITTER_DATE": FIXED_DATE, "LC_ALL": "C"}
    with tempfile.TemporaryDirectory(prefix="agentbench-git-") as tmp:
        stdout = out or Path(tmp) / "out"
        result = process.run(["git", *argv], cwd=cwd, env=env, timeout_s=GIT_TIMEOUT_S,
                             stdout_path=stdout, stderr_path=Path(tmp) / "err",
                             max_output_bytes=1 << 40)
        if not result.ok:
            err = (Path(tmp) / "err").read_text(encoding="utf-8", errors="replace").strip()
            raise StartingTreeError(f"git {' '.join(argv[:2])} failed in {cwd}: "
                                    f"{err or result.start_error or result.returncode}")
        return "" if out else stdout.read_text(encoding="utf-8", errors="replace")


def resolve_commit(repo: Path, rev: str) -> str:
    """The full SHA of `rev` in `repo` (StartingTreeError when either is not there)."""
    if not (repo / ".git").exists() and not (repo / "HEAD").is_file():
        raise StartingTreeError(f"{repo} is not a git repository")
    if rev.startswith("-"):
        raise StartingTreeError(f"'{rev}' is not a commit")
    try:
        return git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], repo).strip()
    except StartingTreeError:
        raise StartingTreeError(f"commit '{rev}' is not in the repository {repo}") from None


def template(spec: StartingWorkspace, cache: Path) -> Path:
    """The pristine starting tree (with a fresh one-commit `.git` for a git start), built once."""
    if spec.folder is not None:
        return spec.folder
    if spec.repo is None or spec.commit is None:
        raise StartingTreeError("a git starting workspace needs both `repo` and `commit`")
    key = hashlib.sha256(f"{spec.repo.resolve()}\0{spec.commit}".encode()).hexdigest()[:16]
    target = cache / "starting" / f"{spec.commit[:12]}-{key}"
    if (target / "ready").is_file():
        return target / "tree"
    with cache_lock(cache / "starting" / f"{key}.lock"):
        if not (target / "ready").is_file():
            _build_template(spec.repo, spec.commit, target)
    return target / "tree"


def _build_template(repo: Path, commit: str, target: Path) -> None:
    shutil.rmtree(target, ignore_errors=True)
    scratch = Path(tempfile.mkdtemp(prefix="template-", dir=_mkdir(target.parent)))
    try:
        tree = scratch / "tree"
        tree.mkdir()
        archive = scratch / "tree.tar"
        git(["archive", "--format=tar", commit], repo, out=archive)
        with tarfile.open(archive) as tar:
            tar.extractall(tree, filter="data")
        archive.unlink()
        git([*GIT_IDENTITY, "init", "-q"], tree)
        git([*GIT_IDENTITY, "add", "-A", "-f", "."], tree)
        git([*GIT_IDENTITY, "commit", "-q", "--no-verify", "--allow-empty", "-m", COMMIT_MESSAGE], tree)
        _strip_git(tree / ".git")
        (scratch / "ready").write_text(commit + "\n", encoding="utf-8")
        scratch.rename(target)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path


def _strip_git(git_dir: Path) -> None:
    """Drop what a fresh repository needs none of: the reflog, sample hooks, ORIG_HEAD."""
    shutil.rmtree(git_dir / "logs", ignore_errors=True)
    for sample in (git_dir / "hooks").glob("*.sample"):
        sample.unlink()
    (git_dir / "ORIG_HEAD").unlink(missing_ok=True)


def seed_workspace(challenge: Challenge, workspace: Path, cache: Path) -> Path | None:
    """Fill an empty workspace with the challenge's starting tree; return the pristine tree (None:
    a greenfield challenge, the workspace stays empty)."""
    if challenge.workspace is None:
        return None
    pristine = template(challenge.workspace, cache)
    shutil.copytree(pristine, workspace, symlinks=True, dirs_exist_ok=True)
    return pristine


def restore_protected(challenge: Challenge, workspace: Path, pristine: Path | None) -> None:
    """Put every protected file back as it was and remove new files at protected paths; for a git
    start, put back the starting `.git` (what the agent wrote there is never measured)."""
    if pristine is None:
        return
    if challenge.workspace is not None and challenge.workspace.is_git and (
            os.path.lexists(workspace / ".git")):
        _replace(workspace / ".git", pristine / ".git")
    if not challenge.protected:
        return
    given = {rel: path for rel, path in tree_files(pristine).items()
             if is_protected(rel, challenge.protected)}
    for rel, path in tree_files(workspace).items():
        if rel not in given and is_protected(rel, challenge.protected):
            path.unlink()
    for rel, source in given.items():
        target = _safe_target(workspace, rel)
        shutil.copyfile(source, target)
        shutil.copymode(source, target)


def _replace(target: Path, source: Path) -> None:
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.exists():
        shutil.rmtree(target)
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True)


def _safe_target(workspace: Path, rel: str) -> Path:
    """`workspace/rel` with every parent a real folder (a symlink or file in the way is removed,
    so nothing is written through a link the agent placed) and no link or folder at the file."""
    current = workspace
    for part in Path(rel).parts[:-1]:
        current = current / part
        if current.is_symlink() or (current.exists() and not current.is_dir()):
            current.unlink()
        current.mkdir(exist_ok=True)
    target = current / Path(rel).name
    if target.is_symlink() or target.is_file():
        target.unlink()
    elif target.is_dir():
        shutil.rmtree(target)
    return target


def close_workspace(challenge: Challenge, trial_dir: Path, pristine: Path | None, *, live: Path,
                    measured: Path) -> ChangeSummary:
    """After the agent: write `changes.diff` (the trial's archive against the starting tree), note
    what it did to protected files and to `.git` (in the `live` workspace), then put the protected
    files back in `measured` (the snapshot every measurement reads)."""
    changes = diff_trees(pristine, trial_dir / "workspace", challenge.protected)
    (trial_dir / DIFF_FILE).write_text(changes.diff, encoding="utf-8", errors="backslashreplace")
    summary = replace(changes.summary, git_dir=git_dir_changes(live, pristine))
    restore_protected(challenge, measured, pristine)
    return summary


def git_dir_changes(workspace: Path, pristine: Path | None) -> tuple[str, ...]:
    """What the agent changed in the starting repository's `.git` (its `index` aside: plain
    `git status` rewrites it), at most 20 entries then a count."""
    if pristine is None or not (pristine / ".git").is_dir():
        return ()
    if not (workspace / ".git").is_dir() or (workspace / ".git").is_symlink():
        return (".git replaced or removed",)
    before, after = _files(pristine / ".git"), _files(workspace / ".git")
    notes = [f".git/{display_name(rel)} ({'added' if rel not in before else 'deleted' if rel not in after else 'modified'})"
             for rel in sorted(before.keys() | after.keys())
             if rel != "index" and before.get(rel) != after.get(rel)]
    return tuple(notes[:20]) + ((f"and {len(notes) - 20} more",) if len(notes) > 20 else ())


def _files(root: Path) -> dict[str, bytes]:
    if not root.is_dir() or root.is_symlink():
        return {}
    found: dict[str, bytes] = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        for name in filenames:
            path = Path(dirpath) / name
            rel = os.fsdecode(path.relative_to(root))
            found[rel] = b"link" if path.is_symlink() else _digest(path)
    return found


def _digest(path: Path) -> bytes:
    """SHA-256 of a regular file, opened without following a link or blocking on a FIFO the agent
    left in `.git` (which would stall the harness for ever); a marker for anything else."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError:
        return b"unreadable"
    with os.fdopen(fd, "rb") as file:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b"special"
        digest = hashlib.sha256()
        while chunk := file.read(1 << 20):
            digest.update(chunk)
        return digest.digest()
