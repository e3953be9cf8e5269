"""Setup commands: pip (what trials run) against uv, side by side, to decide whether an opt-in
`uv` installer is worth offering (issue 18).

Run: python bench/installers.py [--rounds 6] [--challenge easy/password-gen]

Each round makes three fresh trial venvs exactly as the Python toolchain does (a pip-less venv seeing
the cached template through a `.pth`), copies the challenge's reference solution, and times its
setup command (`pip install -e ".[dev]"`) three ways, interleaved (A B C A B C ...):

- pip, with the harness's settings (no build isolation: the template's setuptools/hatchling build);
- uv with build isolation, offline, from a wheelhouse of the template's exact versions;
- uv without build isolation (the build backend installed into the venv from the wheelhouse first),
  with uv's cache shared by every trial (warm);
- the same with a fresh uv cache per trial (what a trial could safely be given).

Why the last line matters: uv cannot use a read-only cache (it takes a lock and writes temporary
files in it: "Could not acquire lock ... Permission denied" as an unprivileged user), so a cache shared
across trials would have to be writable by every trial user, and one trial could then plant wheels
that a later trial's environment installs. Only a fresh cache per trial keeps trials apart.

uv does not see the template's packages (it reads only the venv's own site-packages, not the
folders a `.pth` adds), so both uv variants install pytest, coverage... into every venv from the
wheelhouse and its cache: the resulting packages and versions are the template's. Needs `uv` (from
PyPI) and the package registry once, to download the wheelhouse. Every folder is removed.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from agentbench.loader import discover_challenges, select_challenges
from agentbench.toolchains.python.env import command_env, create_env, template_site_packages
from agentbench.workspace import cache_dir, make_trial_dirs


def timed(argv: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr.decode()[-2000:]}")
    return time.perf_counter() - start


def wheelhouse(template: Path, folder: Path) -> Path:
    """The template's exact distributions as wheels (downloaded once from the registry)."""
    python = template.parents[2] / "bin" / "python"
    frozen = subprocess.run([str(python), "-m", "pip", "freeze", "--all"], capture_output=True,
                            text=True, check=True).stdout
    (folder / "requirements.txt").write_text(frozen)
    subprocess.run([str(python), "-m", "pip", "download", "-q", "-d", str(folder / "wheels"), "-r",
                    str(folder / "requirements.txt")], check=True, capture_output=True)
    return folder / "wheels"


def trial(root: Path, template: Path, reference: Path) -> tuple[Path, dict[str, str], Path]:
    """A fresh trial layout: workspace with the reference, venv, the command environment."""
    root.mkdir()
    dirs = make_trial_dirs(root)
    shutil.copytree(reference, dirs.workspace, dirs_exist_ok=True)
    env = create_env(root / "venv", template)
    return dirs.workspace, command_env(env, dirs), env.python


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--challenge", default="easy/password-gen")
    args = parser.parse_args()
    uv = shutil.which("uv") or str(Path(sys.executable).parent / "uv")
    if not os.access(uv, os.X_OK):
        raise SystemExit("uv is not installed: pip install uv")
    (challenge,) = select_challenges(discover_challenges(), ids=(args.challenge,))
    assert challenge.reference_dir is not None
    with tempfile.TemporaryDirectory(prefix="agentbench-installers-") as tmp:
        base = Path(tmp)
        template = template_site_packages(cache_dir(), base / "logs")
        wheels = wheelhouse(template, base)
        offline = ["--offline", "--no-index", "--find-links", str(wheels), "-q"]
        counter = iter(range(10**6))

        def way(build: Callable[[Path, dict[str, str], Path], float], fresh: bool = False) -> Callable[[], float]:
            def run() -> float:
                name = f"t{next(counter)}"
                workspace, env, python = trial(base / name, template, challenge.reference_dir)
                cache = base / name / "uv-cache" if fresh else base / "uv-cache"
                return build(workspace, {**env, "UV_CACHE_DIR": str(cache)}, python)
            return run

        def pip(w: Path, env: dict[str, str], py: Path) -> float:
            return timed([str(py), "-m", "pip", "install", "-q", "-e", ".[dev]"], w, env)

        def uv_isolated(w: Path, env: dict[str, str], py: Path) -> float:
            return timed([uv, "pip", "install", "--python", str(py), *offline, "-e", ".[dev]"], w, env)

        def uv_shared_backend(w: Path, env: dict[str, str], py: Path) -> float:
            return (timed([uv, "pip", "install", "--python", str(py), *offline, "setuptools", "hatchling"], w, env)
                    + timed([uv, "pip", "install", "--python", str(py), *offline, "--no-build-isolation",
                             "-e", ".[dev]"], w, env))

        ways = {"pip (what trials run)": way(pip), "uv, build isolation": way(uv_isolated),
                "uv, no build isolation": way(uv_shared_backend),
                "the same, fresh cache": way(uv_shared_backend, fresh=True)}
        for run in ways.values():
            run()  # warm-up: fills uv's cache, pip's compiled files
        times: dict[str, list[float]] = {name: [] for name in ways}
        for _ in range(args.rounds):
            for name, run in ways.items():
                times[name].append(run())
    pip_median = statistics.median(times["pip (what trials run)"])
    print(f"setup command of {args.challenge} (`pip install -e \".[dev]\"`), {args.rounds} interleaved rounds")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"   {name:24s}: median {median:.3f} s ({min(values):.3f}-{max(values):.3f}), "
              f"pip / this = {pip_median / median:.2f}x")


if __name__ == "__main__":
    main()
