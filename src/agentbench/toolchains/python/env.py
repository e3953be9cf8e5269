"""Python environments of a trial: a cached template with the scoring tools, and fresh venvs seeing it.

Each trial gets fresh virtual environments made in milliseconds with `venv` (no pip inside). They see
a shared, cached *template* environment holding the scoring tools (pytest, coverage, setuptools,
wheel, hatchling) through a `.pth` line, so setup and test commands need no per-trial download;
`pip install` goes into the trial's own environment. Every environment is made in a fresh folder the
harness just created (never at a path the agent could have prepared).
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
import venv
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from agentbench import process
from agentbench.errors import RunError
from agentbench.toolchains.python.interpreter import BasePython, base_python
from agentbench.workspace import TrialDirs, cache_lock

TEMPLATE_PACKAGES: tuple[str, ...] = ("pytest", "coverage", "setuptools", "wheel", "hatchling")
"""What every trial environment can import without downloading anything."""

TEMPLATE_LAYOUT = 2
"""Bumped whenever what the template holds changes, so caches are rebuilt."""

SHADOW_MODULES = ("sitecustomize", "usercustomize")
"""Empty modules in the template that shadow any an agent plants on the import path."""

BASE_PATH = "/usr/local/bin:/usr/bin:/bin"
"""PATH after the environment's own bin folder."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PythonEnv:
    """A virtual environment a command runs in."""

    root: Path
    """The environment's folder."""
    python: Path
    """Its interpreter."""
    site_packages: Path
    """Its site-packages folder."""


def template_site_packages(cache: Path, log_dir: Path,
                           announce: Callable[[str], None] = lambda _: None) -> Path:
    """The cached template environment's site-packages, built once (under a lock) if missing."""
    base = base_python()
    key = hashlib.sha256(
        f"{_identity(base)}|{','.join(TEMPLATE_PACKAGES)}|{TEMPLATE_LAYOUT}".encode()
    ).hexdigest()[:12]
    root = cache / "envs" / f"template-{key}"
    if not (root / "READY").exists():
        with cache_lock(root.parent / f"template-{key}.lock"):
            if not (root / "READY").exists():
                announce(f"building the Python scoring environment once ({', '.join(TEMPLATE_PACKAGES)}) "
                         f"in {root}; later runs reuse it")
                _build_template(root, log_dir)
    site = _site_packages(root)
    if not _shadows_compiled(site):  # a template built before they were compiled
        with cache_lock(root.parent / f"template-{key}.lock"):
            if not _shadows_compiled(site):
                _compile_shadows(root, log_dir)
    return site


def _identity(base: BasePython) -> str:
    if base.executable == Path(getattr(sys, "_base_executable", sys.executable)):
        return f"{sys.version}|{sys.base_prefix}"  # NOTE: the key caches built before the choice
    return f"{base.version}|{base.executable}"


def _build_template(root: Path, log_dir: Path) -> None:
    import shutil

    shutil.rmtree(root, ignore_errors=True)
    python = root / "bin" / "python"
    base = base_python()
    if base.note:  # another interpreter: a pip-less venv, filled by AgentBench's own pip
        _make_venv(base, root)
        pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "pip"]
    else:
        venv.EnvBuilder(with_pip=True, symlinks=True, clear=True).create(root)
        pip = [str(python), "-m", "pip", "install"]
    result = process.run(
        [*pip, "--disable-pip-version-check", "-q", *TEMPLATE_PACKAGES],
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
    _compile_shadows(root, log_dir)
    (root / "READY").write_text(",".join(TEMPLATE_PACKAGES) + "\n")


def _shadows_compiled(site: Path) -> bool:
    return all(any((site / "__pycache__").glob(f"{name}.*.pyc")) for name in SHADOW_MODULES)


def _compile_shadows(root: Path, log_dir: Path) -> None:
    """Bytecode of the shadow modules, by the template's own interpreter: every Python process of
    every trial environment imports `sitecustomize`, and would compile it each time (the trials'
    processes write no bytecode). A failure leaves them to compile as before."""
    site = _site_packages(root)
    process.run([str(root / "bin" / "python"), "-I", "-m", "compileall", "-q", "--invalidation-mode",
                 "checked-hash", *(str(site / f"{name}.py") for name in SHADOW_MODULES)],
                cwd=root, env={"PATH": BASE_PATH, "LANG": "C.UTF-8"}, timeout_s=120,
                stdout_path=log_dir / "template-env-compile.log",
                stderr_path=log_dir / "template-env-compile.err")


def _site_packages(root: Path) -> Path:
    matches = sorted((root / "lib").glob("python3*/site-packages"))
    if not matches:
        raise RunError(f"{root} is not a Python virtual environment (no site-packages)")
    return matches[0]


def create_env(root: Path, template_site: Path, *, appended: Sequence[Path] = ()) -> PythonEnv:
    """A fresh, pip-less virtual environment in the new folder `root`, seeing the template's packages.

    `appended` folders go on the import path after the standard library and the template (so they
    can shadow neither). (coverage.py is started by the probe, in the pytest process only.)
    """
    root.mkdir(exist_ok=False)
    base = base_python()
    if base.note:
        _make_venv(base, root)
    else:
        venv.EnvBuilder(with_pip=False, symlinks=True).create(root)
    site = _site_packages(root)
    (site / "00-agentbench-template.pth").write_text(f"{template_site}\n", encoding="utf-8")
    if appended:
        (site / "zz-agentbench-project.pth").write_text(
            "".join(f"{path}\n" for path in appended), encoding="utf-8")
    return PythonEnv(root=root, python=root / "bin" / "python", site_packages=site)


def _make_venv(base: BasePython, root: Path) -> None:
    """A pip-less venv in `root` made by `base` itself (its version may differ from AgentBench's)."""
    with tempfile.TemporaryDirectory(prefix="agentbench-venv-") as tmp:
        result = process.run([str(base.executable), "-I", "-m", "venv", "--without-pip", str(root)],
                             cwd=Path(tmp), env={"PATH": BASE_PATH, "LANG": "C.UTF-8"}, timeout_s=120,
                             stdout_path=Path(tmp) / "out", stderr_path=Path(tmp) / "err")
        if not result.ok:
            detail = (Path(tmp) / "err").read_text(encoding="utf-8", errors="replace").strip()
            raise RunError(f"could not make a virtual environment with {base.executable}: "
                           f"{detail.splitlines()[-1] if detail else f'exit {result.returncode}'}",
                           "install that Python's venv module (Debian/Ubuntu: apt-get install python3-venv)")


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
