"""Trial workspaces and their Python environments, never AgentBench's own.

Each trial gets a fresh temporary folder (workspace, home, tmp) and fresh virtual environments made in
milliseconds with `venv` (no pip inside). They see a shared, cached *template* environment holding the
scoring tools (pytest, coverage, setuptools, wheel, hatchling) through a `.pth` line, so setup and test
commands need no per-trial download; `pip install` goes into the trial's own environment. After
scoring, the workspace is copied into the trial folder (regular files only: symlinks are recorded,
never followed out) so every trial stays inspectable and can be regraded.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import sys
import venv
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from agentbench import process
from agentbench.errors import RunError

TEMPLATE_PACKAGES: tuple[str, ...] = ("pytest", "coverage", "setuptools", "wheel", "hatchling")
"""What every trial environment can import without downloading anything."""

HARNESS_DIR = ".agentbench"
"""Protected folder inside the workspace where hidden tests are copied after the agent ends."""

SKIPPED_DIRS = frozenset({HARNESS_DIR, ".git", ".venv", "venv", "__pycache__", ".pytest_cache",
                          "node_modules", ".mypy_cache", ".ruff_cache", ".tox"})
"""Folders that are not the agent's work product."""

BASE_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True, slots=True, kw_only=True)
class PythonEnv:
    """A virtual environment a command runs in."""

    root: Path
    """The environment's folder."""
    python: Path
    """Its interpreter."""
    site_packages: Path
    """Its site-packages folder."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TrialDirs:
    """The temporary folders of one trial."""

    workspace: Path
    """Where the agent works and its project is measured."""
    home: Path
    """HOME for every command of the trial."""
    tmp: Path
    """TMPDIR for every command of the trial."""
    scratch: Path
    """Harness-only space (venvs, coverage data) outside the workspace."""


def cache_dir() -> Path:
    """Where AgentBench caches template environments (`AGENTBENCH_CACHE` overrides)."""
    if custom := os.environ.get("AGENTBENCH_CACHE"):
        return Path(custom)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "agentbench"


TEMPLATE_LAYOUT = 2
"""Bumped whenever what the template holds changes, so caches are rebuilt."""

SHADOW_MODULES = ("sitecustomize", "usercustomize")
"""Empty modules in the template that shadow any an agent plants on the import path."""


def template_site_packages(cache: Path, log_dir: Path) -> Path:
    """The cached template environment's site-packages, built once (under a lock) if missing."""
    key = hashlib.sha256(
        f"{sys.version}|{sys.base_prefix}|{','.join(TEMPLATE_PACKAGES)}|{TEMPLATE_LAYOUT}".encode()
    ).hexdigest()[:12]
    root = cache / "envs" / f"template-{key}"
    if not (root / "READY").exists():
        root.parent.mkdir(parents=True, exist_ok=True)
        with _locked(root.parent / f"template-{key}.lock"):
            if not (root / "READY").exists():
                _build_template(root, log_dir)
    return _site_packages(root)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    with path.open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _build_template(root: Path, log_dir: Path) -> None:
    shutil.rmtree(root, ignore_errors=True)
    venv.EnvBuilder(with_pip=True, symlinks=True, clear=True).create(root)
    python = root / "bin" / "python"
    result = process.run(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", *TEMPLATE_PACKAGES],
        cwd=root, env={"PATH": f"{python.parent}:{BASE_PATH}", "HOME": str(root)},
        timeout_s=900, stdout_path=log_dir / "template-env.log", stderr_path=log_dir / "template-env.err",
    )
    if not result.ok:
        raise RunError(
            f"could not build the scoring environment in {root} (see {result.stderr_path})",
            "check network access to the package index, or set AGENTBENCH_CACHE to a writable folder",
        )
    site = _site_packages(root)
    for name in SHADOW_MODULES:
        (site / f"{name}.py").write_text(
            '"""Placed by AgentBench: shadows any such module an agent leaves on the import path."""\n',
            encoding="utf-8")
    (root / "READY").write_text(",".join(TEMPLATE_PACKAGES) + "\n")


def _site_packages(root: Path) -> Path:
    matches = sorted((root / "lib").glob("python3*/site-packages"))
    if not matches:
        raise RunError(f"{root} is not a Python virtual environment (no site-packages)")
    return matches[0]


def create_env(root: Path, template_site: Path) -> PythonEnv:
    """A fresh, pip-less virtual environment that also sees the template's packages."""
    venv.EnvBuilder(with_pip=False, symlinks=True, clear=True).create(root)
    site = _site_packages(root)
    (site / "00-agentbench-template.pth").write_text(f"{template_site}\n", encoding="utf-8")
    # NOTE: coverage starts in every Python process of this env, but only when the harness sets
    # COVERAGE_PROCESS_START (during the agent's test commands).
    (site / "zz-agentbench-coverage.pth").write_text(
        "import os; os.environ.get('COVERAGE_PROCESS_START') and "
        "__import__('coverage').process_startup()\n",
        encoding="utf-8",
    )
    return PythonEnv(root=root, python=root / "bin" / "python", site_packages=site)


def make_trial_dirs(base: Path) -> TrialDirs:
    """Create the empty folders of one trial under `base`."""
    dirs = TrialDirs(workspace=base / "workspace", home=base / "home", tmp=base / "tmp",
                     scratch=base / "harness")
    for path in (dirs.workspace, dirs.home, dirs.tmp, dirs.scratch):
        path.mkdir(parents=True, exist_ok=True)
    return dirs


def command_env(env: PythonEnv, dirs: TrialDirs, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The explicit environment of a setup/test command: nothing leaks in from AgentBench's own."""
    return {
        "PATH": f"{env.python.parent}:{BASE_PATH}",
        "HOME": str(dirs.home),
        "TMPDIR": str(dirs.tmp),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "VIRTUAL_ENV": str(env.root),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        # NOTE: pip reads this variable inverted: "0" turns build isolation *off*, so builds use the
        # template's setuptools/hatchling instead of downloading them for every trial.
        "PIP_NO_BUILD_ISOLATION": "0",
        "PIP_NO_INPUT": "1",
        **(extra or {}),
    }


def copy_tree(source: Path, dest: Path) -> None:
    """Copy a folder's regular files and folders (symlinks are skipped, never followed)."""
    for src in _walk_regular(source):
        target = dest / src.relative_to(source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, target)
        shutil.copymode(src, target)


def _walk_regular(root: Path) -> Iterator[Path]:
    for entry in sorted(os.scandir(root), key=lambda e: e.name):
        if entry.is_symlink():
            continue
        if entry.is_dir(follow_symlinks=False):
            yield from _walk_regular(Path(entry.path))
        elif entry.is_file(follow_symlinks=False):
            yield Path(entry.path)


def agent_files(workspace: Path, suffixes: tuple[str, ...] = ()) -> tuple[Path, ...]:
    """Regular files the agent produced, skipping harness, cache and environment folders."""
    found = []
    for dirpath, dirnames, filenames in os.walk(workspace, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIPPED_DIRS and not d.endswith(".egg-info"))
        for name in sorted(filenames):
            path = Path(dirpath) / name
            if not path.is_symlink() and (not suffixes or path.suffix in suffixes):
                found.append(path)
    return tuple(found)


def archive_workspace(workspace: Path, dest: Path, max_bytes: int = 50 * 1024 * 1024) -> tuple[str, ...]:
    """Copy the agent's files into the trial folder, up to `max_bytes`; return what was left out."""
    left_out = []
    used = 0
    for path in agent_files(workspace):
        size = path.stat().st_size
        rel = path.relative_to(workspace)
        if used + size > max_bytes:
            left_out.append(str(rel))
            continue
        used += size
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest / rel)
    return tuple(left_out)


def tree_digest(*roots: Path) -> str:
    """A SHA-256 over the relative paths and contents of every regular file under `roots`."""
    digest = hashlib.sha256()
    for root in roots:
        for path in _walk_regular(root):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def pack_tree(root: Path, *, extra: tuple[Path, ...] = ()) -> bytes:
    """A gzipped tar of `root`'s regular files (and of `extra` files, by name at the top)."""
    import io
    import tarfile

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path in _walk_regular(root) if root.is_dir() else ():
            tar.add(path, arcname=str(path.relative_to(root)), recursive=False)
        for path in extra:
            tar.add(path, arcname=path.name, recursive=False)
    return buffer.getvalue()


def unpack_tree(data: bytes, dest: Path) -> None:
    """Extract a `pack_tree` archive into `dest`, refusing links and paths that leave it."""
    import io
    import tarfile

    dest.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(dest, filter="data")


def remove_escaping_symlinks(workspace: Path) -> tuple[str, ...]:
    """Delete symlinks that point outside the workspace (so nothing measured reads host files)."""
    root = workspace.resolve()
    removed = []
    for dirpath, dirnames, filenames in os.walk(workspace, followlinks=False):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath) / name
            if path.is_symlink() and not path.resolve().is_relative_to(root):
                removed.append(f"{path.relative_to(workspace)} -> {os.readlink(path)}")
                path.unlink()
    return tuple(sorted(removed))
