"""Does a reference solution lose points when the machine is loaded? The reference agent under
artificial load, with each measuring step's duration set against the limit it runs under.

Load, combinable: `--busy N` busy-loop processes (default: one per core), and `--quota PCT` (root,
cgroup v1 `cpu` or v2) caps the whole run (harness, build, tests, hidden tests) to PCT % of one core,
which makes every step as slow as on a machine with a load of roughly 100 / PCT per core.

For each trial: its score, hidden-test pass rate, and the slowest build, own-test and hidden-test
command with its limit (600 s per command; the challenge's acceptance limit, 300 s by default).

Example: `python bench/reference_under_load.py --challenge medium/go-cache --jobs 2 --trials 2
--busy 4 --quota 2`.
"""
# ruff: noqa: T201, TID251 - a script that prints and starts processes of its own

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

CPU_V1 = Path("/sys/fs/cgroup/cpu")
CPU_V2 = Path("/sys/fs/cgroup")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--challenge", action="append", default=None, help="default: medium/go-cache")
    parser.add_argument("--trials", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sandbox", default="none")
    parser.add_argument("--busy", type=int, default=os.cpu_count() or 1, help="busy-loop processes")
    parser.add_argument("--quota", type=float, default=None, help="cap the run to PCT %% of one core")
    args = parser.parse_args()
    results = Path(tempfile.mkdtemp(prefix="agentbench-load-"))
    picked = [a for c in args.challenge or ["medium/go-cache"] for a in ("--challenge", c)]
    argv = [sys.executable, "-m", "agentbench", "run", "--agent", "reference", *picked,
            "--trials", str(args.trials), "--jobs", str(args.jobs), "--sandbox", args.sandbox,
            "--results", str(results)]
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    group = _cpu_group(args.quota) if args.quota else None
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, check=False,
                              preexec_fn=(lambda: _join(group)) if group else None)
    finally:
        for child in busy:
            child.kill()
            child.wait()
        if group:
            group.rmdir()
    if proc.returncode != 0:
        print(proc.stderr[-2000:])
        return proc.returncode
    _report(json.loads((results / "reference.json").read_text()))
    print(f"(results in {results})")
    return 0


def _cpu_group(percent: float) -> Path:
    """A cpu cgroup capped to `percent` % of one core."""
    period = 100_000
    quota = max(1000, int(period * percent / 100))
    if (CPU_V1 / "cpu.cfs_quota_us").exists():
        group = Path(tempfile.mkdtemp(prefix="agentbench-load-", dir=CPU_V1))
        (group / "cpu.cfs_period_us").write_text(str(period))
        (group / "cpu.cfs_quota_us").write_text(str(quota))
        return group
    group = Path(tempfile.mkdtemp(prefix="agentbench-load-", dir=CPU_V2))
    (group / "cpu.max").write_text(f"{quota} {period}")
    return group


def _join(group: Path) -> None:
    (group / "cgroup.procs").write_text(str(os.getpid()))


def _report(run: dict) -> None:
    for trial in run["trials"]:
        m = trial["measurements"]
        steps = {"build": m["build"]["commands"], "own tests": m["tests"]["commands"],
                 "hidden tests": m["acceptance"]["tests"]["commands"] if m.get("acceptance") else []}
        slowest = {name: max((c["duration_s"] for c in cmds), default=0.0) for name, cmds in steps.items()}
        hidden = m["acceptance"]["tests"] if m.get("acceptance") else None
        rate = f"{hidden['passed']}/{hidden['passed'] + hidden['failed']}" if hidden else "-"
        print(f"{trial['challenge_id']} #{trial['trial']}: {trial['status']} seed "
              f"{_total(trial['seed_score'])} verified {_total(trial['verified_score'])} hidden {rate}; "
              f"slowest step (s): " + ", ".join(f"{k} {v:.1f}" for k, v in slowest.items())
              + f"; trial {trial['duration_s']:.0f} s")
        for name, cmds in steps.items():
            for c in cmds:
                if c["returncode"] != 0 or c["timed_out"]:
                    print(f"    {name} failed: {c['command']}: {c.get('ending') or 'no ending recorded'}")
        for failure in m.get("failures", []):
            print(f"    measuring step {failure['step']} raised {failure['error']}")


def _total(score: dict | None) -> str:
    if score is None:
        return "n/a"
    parts = ("build", "tests", "coverage", "quality", "completeness", "efficiency")
    return f"{sum(score[k] for k in parts):.1f}"


if __name__ == "__main__":
    sys.exit(main())
