"""Measuring cost per trial: this checkout against another git revision, interleaved, whole processes.

Run: python bench/measure_cost.py [--against REV] [--runs N] [--challenge ID] [--jobs N --trials N]

Each round runs `agentbench run --agent reference --challenge ID` once with this checkout's code and
once with REV's (a temporary `git worktree`, imported through PYTHONPATH), alternating A B A B so a
drift in the machine's speed hits both alike. It prints the median and spread of the whole process
(start-up, loading, the trial, results writing), of the trial's own `duration_s` (the mean over the
trials) and of the CPU time of the whole process tree (user + system, every descendant the run waited
for), and the ratio A/B of the medians and the median of the per-round ratios. `--jobs` as many as
the machine's cores leaves none free, so the hidden tests run after the build and own tests, not
beside them. A run whose hidden tests did not run stops the bench (REV's harness files must be
readable by the trial users: the temporary folder is 0755). Temporary folders are removed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_once(src: Path, args: argparse.Namespace, results: Path) -> tuple[float, float, float]:
    """(whole-process seconds, mean trial duration_s, CPU seconds) of one reference run with the code
    in `src`. CPU is user+sys of the whole process tree (every waited-for descendant): what the run
    costs the machine, far less sensitive than wall time to what else runs on a shared machine."""
    shutil.rmtree(results, ignore_errors=True)
    env = {**{k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}, "PYTHONPATH": str(src)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "agentbench", "run", "--agent", "reference", "--challenge",
                    args.challenge, "--results", str(results), "--jobs", str(args.jobs),
                    "--trials", str(args.trials)], check=True, capture_output=True, env=env, cwd=src.parent)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    trials = json.loads((results / "reference.json").read_text())["trials"]
    for trial in trials:
        hidden = (trial["measurements"].get("acceptance") or {}).get("tests") or {}
        if not hidden.get("collected") or hidden.get("problem"):
            raise SystemExit(f"{src}: the hidden tests did not run ({hidden.get('problem')}): a trial that skips "
                             f"them costs less and the comparison would mean nothing; see {results}")
    return wall, statistics.mean(float(t["duration_s"]) for t in trials), cpu


def describe(values: list[float]) -> str:
    return f"median {statistics.median(values):6.3f} s  (min {min(values):.3f}, max {max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD~1", help="git revision to compare with")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--challenge", default="easy/password-gen")
    parser.add_argument("--jobs", type=int, default=1, help="agentbench run --jobs")
    parser.add_argument("--trials", type=int, default=1, help="agentbench run --trials")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="agentbench-bench-") as tmp:
        Path(tmp).chmod(0o755)  # as root, trials run as their own user, who must read REV's harness files
        old = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(old), args.against],
                       check=True)
        try:
            rounds = [(run_once(ROOT / "src", args, Path(tmp) / "a"),
                       run_once(old / "src", args, Path(tmp) / "b")) for _ in range(args.runs + 1)][1:]
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)], check=True)
    for index, label in ((0, "whole process"), (1, "trial duration_s"), (2, "CPU (user+sys, whole tree)")):
        a = [r[0][index] for r in rounds]
        b = [r[1][index] for r in rounds]
        ratios = [x / y for x, y in zip(a, b, strict=True)]
        print(f"{label}:\n  this checkout  {describe(a)}\n  {args.against:<14} {describe(b)}\n"
              f"  ratio of medians {statistics.median(a) / statistics.median(b):.3f}, "
              f"median of per-round ratios {statistics.median(ratios):.3f}")


if __name__ == "__main__":
    main()
