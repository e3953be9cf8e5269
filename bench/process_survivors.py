"""Cost of the survivor check after every command: the command's own cgroup versus a scan of /proc.

After each command the harness makes sure nothing of it is left alive. Before, it always scanned
/proc (every process's stat and environ, three times per command), which costs more as the host runs
more processes. Now a tree that runs as a trial user inside its own cgroup (which it cannot leave) is
checked by reading the cgroup's process list only; /proc is scanned only where there is no such
cgroup.

Measured side by side, interleaved (one "before", one "after", repeated), at the host's own process
count and with extra idle processes started by this script:
- the survivor check alone, on a real command that has just exited inside its cgroups;
- a whole `process.run` of `/bin/true` as the trial user ("before" = the same call with the tree
  treated as able to leave its cgroup, which is what forces the /proc scan).

Run as root (cgroups and trial users): `python bench/process_survivors.py [--runs 100]`.
"""
# ruff: noqa: T201, TID251 - a script that prints, and starts idle processes of its own

from __future__ import annotations

import argparse
import dataclasses
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from agentbench import process, users
from agentbench.sandbox import Confinement, TrialUser


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=100, help="pairs per figure (default 100)")
    parser.add_argument("--extra", type=int, nargs="*", default=[0, 1000],
                        help="idle processes to add to the host for each row (default 0 1000)")
    args = parser.parse_args()
    problem = users.trial_users_problem() or (None if process.cgroups_available() else "no cgroups")
    if problem:
        print(f"cannot measure the cgroup path here: {problem} (run as root on a machine with cgroups)")
        return 1
    with users.trial_user() as user, tempfile.TemporaryDirectory() as tmp:
        assert user is not None
        print(f"{'host processes':>15} | {'check: /proc scan':>19} | {'check: cgroup':>15} | "
              f"{'run true: before':>17} | {'run true: after':>16}")
        for extra in args.extra:
            with idle_processes(extra):
                host = count_processes()
                row = measure(user, Path(tmp), args.runs)
            print(f"{host:>15} | {row[0]:>19} | {row[1]:>15} | {row[2]:>17} | {row[3]:>16}")
    print(f"medians of {args.runs} interleaved pairs, [10th-90th percentile], milliseconds")
    return 0


def measure(user: TrialUser, tmp: Path, runs: int) -> tuple[str, ...]:
    check_scan, check_cgroup, run_before, run_after = [], [], [], []
    for _ in range(runs):
        check_scan.append(time_check(user, contained=False))
        check_cgroup.append(time_check(user, contained=True))
        run_before.append(time_run(user, tmp, contained=False))
        run_after.append(time_run(user, tmp, contained=True))
    return tuple(summary(v) for v in (check_scan, check_cgroup, run_before, run_after))


def time_check(user: TrialUser, *, contained: bool) -> float:
    """The survivor check alone, after a real command exited inside its cgroups as the trial user."""
    tree = dataclasses.replace(process._Tree.make(Confinement(user=user)), contained=contained)
    argv = tree.join_argv(["setpriv", f"--reuid={user.uid}", f"--regid={user.gid}", "--clear-groups",
                           "--", "/bin/true"])
    proc = subprocess.Popen(argv, start_new_session=True, env={"PATH": "/usr/bin:/bin"})
    proc.wait()
    began = time.perf_counter()
    tree.kill(proc.pid)
    elapsed = time.perf_counter() - began
    tree.remove()
    return elapsed


def time_run(user: TrialUser, tmp: Path, *, contained: bool) -> float:
    """A whole `process.run` of /bin/true as the trial user."""
    make = process._Tree.make
    with patched(lambda c: dataclasses.replace(make(c), contained=contained)):
        began = time.perf_counter()
        process.run(["/bin/true"], cwd=Path("/"), env={"PATH": "/usr/bin:/bin"}, timeout_s=10,
                    stdout_path=tmp / "o", stderr_path=tmp / "e", confinement=Confinement(user=user))
        return time.perf_counter() - began


@contextmanager
def patched(make: Callable[[Confinement | None], process._Tree]) -> Iterator[None]:
    original = process._Tree.make
    process._Tree.make = staticmethod(make)  # type: ignore[assignment,method-assign]
    try:
        yield
    finally:
        process._Tree.make = original  # type: ignore[method-assign]


@contextmanager
def idle_processes(count: int) -> Iterator[None]:
    procs = [subprocess.Popen(["sleep", "3600"], stdin=subprocess.DEVNULL) for _ in range(count)]
    try:
        yield
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()


def count_processes() -> int:
    return sum(1 for entry in os.scandir("/proc") if entry.name.isdigit())


def summary(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    deciles = statistics.quantiles(ms, n=10)
    return f"{statistics.median(ms):.2f} [{deciles[0]:.2f}-{deciles[-1]:.2f}]"


if __name__ == "__main__":
    sys.exit(main())
