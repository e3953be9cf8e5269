"""Which Python the trial environments are made from: one the trial users can run.

Each trial's virtual environments point at a base interpreter that runs as the trial's unprivileged
user. AgentBench's own interpreter is used when that user can reach it. When it cannot (e.g. a
Python from pyenv or uv under /root, mode 0700), the first of these that works *as the trial user*
is used instead, and the choice is said once in the run header:

1. the system's Python 3.11+ (`python3`, `python3.13` ... in /usr/local/bin, /usr/bin, /bin);
2. a copy of AgentBench's own interpreter (its binary and standard library, without site-packages or
   the test suite) placed in the shared cache, when the interpreter does not load a libpython from an
   unreachable folder.

When nothing works the own interpreter is kept: the runner then finds it unreachable and runs the
trials as root, with a one-line warning saying what to fix.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agentbench import process
from agentbench.sandbox import Confinement, TrialUser
from agentbench.users import TRIAL_UID_BASE, reachable, trial_user, trial_users_problem
from agentbench.workspace import cache_dir, cache_lock

MIN_VERSION = (3, 11)
"""The oldest Python the trial environments may be made from (what AgentBench itself needs)."""

SYSTEM_DIRS = ("/usr/local/bin", "/usr/bin", "/bin")
SYSTEM_NAMES = ("python3", "python3.13", "python3.12", "python3.11")

COPY_SKIPPED = frozenset({"site-packages", "dist-packages", "test", "idlelib", "turtledemo"})
"""Standard-library folders the copy leaves out (installed packages, the test suite, IDLE)."""

_CHECK = ("import sys, venv; v = sys.version_info; "
          f"print('.'.join(map(str, v[:3])) if v >= {MIN_VERSION} else 'old')")


@dataclass(frozen=True, slots=True, kw_only=True)
class BasePython:
    """The interpreter trial environments are made from."""

    executable: Path
    """Its binary (what each venv's `bin/python` links to)."""
    version: str
    """`X.Y.Z`."""
    note: str = ""
    """Why it is not AgentBench's own interpreter, for the run header; "" when it is."""

    @property
    def site_dir(self) -> str:
        """`pythonX.Y`, the folder name under a venv's `lib`."""
        return "python" + ".".join(self.version.split(".")[:2])


def running_python() -> Path:
    """AgentBench's own base interpreter."""
    return Path(getattr(sys, "_base_executable", sys.executable))


def own_python(running: Path | None = None) -> BasePython:
    """AgentBench's own interpreter (or `running`, standing for it), as a `BasePython`."""
    return BasePython(executable=running or running_python(),
                      version=".".join(map(str, sys.version_info[:3])))


@functools.cache
def base_python() -> BasePython:
    """The interpreter of this machine's trial environments (chosen once per process)."""
    if trial_users_problem() is not None:
        return own_python()
    # NOTE: a uid of its own for the probes: run as a uid a trial may hold, they would be a way out
    # of that trial's mount namespace (/proc/<pid>/root) while they ran
    with trial_user() as user:
        return choose(user or TrialUser(TRIAL_UID_BASE, TRIAL_UID_BASE), running_python(), cache_dir())


def choose(user: TrialUser, running: Path, cache: Path,
           candidates: Sequence[Path] | None = None) -> BasePython:
    """The first interpreter `user` can run: `running`, a system one, or a copy of `running` in
    `cache` (see the module docstring); `running` when none works."""
    own = own_python(running)
    problem = _reach_problem(user, running)
    if problem is None:
        return own
    why = f"AgentBench's Python {running} is out of the trial users' reach ({problem})"
    for candidate in system_pythons() if candidates is None else candidates:
        version = works_as(user, candidate)
        if version:
            return BasePython(executable=candidate, version=version,
                              note=f"{why}: trial environments use Python {version} at {candidate}")
    copied = copy_python(user, running, cache)
    if copied is not None:
        return BasePython(executable=copied, version=own.version,
                          note=f"{why}: trial environments use a copy of it at {copied}")
    return own


def _reach_problem(user: TrialUser, python: Path) -> str | None:
    stdlib = Path(sys.base_prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}"
    return reachable(user, python, execute=True) or reachable(user, stdlib)


def system_pythons() -> list[Path]:
    """Python 3 interpreters in the system's folders, each real file once, in order of preference."""
    found: dict[str, Path] = {}
    for folder in SYSTEM_DIRS:
        for name in SYSTEM_NAMES:
            path = Path(folder) / name
            if path.is_file() and os.access(path, os.X_OK):
                found.setdefault(os.path.realpath(path), path)
    return list(found.values())


def works_as(user: TrialUser, python: Path) -> str | None:
    """`python`'s version when `user` can run it (3.11+, with `venv`); None otherwise."""
    if reachable(user, python, execute=True) is not None:
        return None
    with tempfile.TemporaryDirectory(prefix="agentbench-python-check-") as tmp:
        out = Path(tmp) / "out"
        result = process.run(
            [str(python), "-I", "-c", _CHECK], cwd=Path("/"),
            env={"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}, timeout_s=60,
            stdout_path=out, stderr_path=Path(tmp) / "err", confinement=Confinement(user=user))
        version = out.read_text(encoding="utf-8", errors="replace").strip() if result.ok else ""
    return version if version[:1].isdigit() else None


def copy_python(user: TrialUser, running: Path, cache: Path) -> Path | None:
    """A copy of the running interpreter in `cache` that `user` can run (made once); None when
    no copy can work here (a shared libpython elsewhere, an unreachable cache, a failed check)."""
    if _shared_libpython() or reachable(user, cache) is not None:
        return None
    series = f"python{sys.version_info[0]}.{sys.version_info[1]}"
    key = hashlib.sha256(f"{sys.version}|{sys.base_prefix}".encode()).hexdigest()[:12]
    root = cache / "python" / f"{series}-{key}"
    binary = root / "bin" / series
    if not (root / "READY").exists():
        with cache_lock(root.parent / f"{root.name}.lock"):
            if not (root / "READY").exists():
                _copy_prefix(Path(os.path.realpath(running)), Path(sys.base_prefix) / "lib" / series,
                             root, series)
    return binary if works_as(user, binary) else None


def _shared_libpython() -> bool:
    """Whether this process loaded a libpython (a copy would still load the original)."""
    try:
        maps = Path("/proc/self/maps").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True
    return "/libpython" in maps


def _copy_prefix(binary: Path, stdlib: Path, root: Path, series: str) -> None:
    staging = root.with_name(root.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    (staging / "bin").mkdir(parents=True)
    shutil.copy2(binary, staging / "bin" / series)
    shutil.copytree(stdlib, staging / "lib" / series, symlinks=True,
                    ignore=lambda _d, names: [n for n in names if n in COPY_SKIPPED])
    (staging / "lib" / series / "site-packages").mkdir()
    for path in [staging, *staging.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o755 if path.is_dir() or os.access(path, os.X_OK) else 0o644)
    shutil.rmtree(root, ignore_errors=True)
    staging.rename(root)
    (root / "READY").write_text(f"{binary}\n", encoding="utf-8")
