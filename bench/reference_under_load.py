"""Does a reference solution lose points when the machine is loaded? The reference agent under
artificial load, with each measuring step's duration set against the limit it runs under.

Load, combinable: `--busy N` busy-loop processes (default: one per core), and `--quota PCT` (root,
cgroup v1 `cpu` or v2) caps the whole run (harness, build, tests, hidden tests) to PCT % of one core,
which makes every step as slow as on a machine with a load of roughly 100 / PCT per core; `--io N`
writers that write and delete 256 MiB files in the trials' temporary folder without pause; `--tmpfs
MB --fill MB` (root) puts the trials' temporary folder on a tmpfs of MB MiB of which another program
holds `--fill` MiB (the machine out of disk: a reference must come out `infra_error`, never with a
lower score; `medium/go-cache` scored 37.86 that way when each Go trial copied a 113 MB build cache).

For each trial: its score, hidden-test pass rate, and the slowest build, own-test and hidden-test
command with its limit (600 s per command; the challenge's acceptance limit, 300 s by default).

Example: `python bench/reference_under_load.py --challenge medium/go-cache --jobs 2 --trials 2
--busy 4 --quota 2`; `... --busy 0 --io 1 --tmpfs 64 --fill 63`.
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
    parser.add_argument("--io", type=int, default=0, help="disk writers in the trials' temporary folder")
    parser.add_argument("--tmpfs", type=int, default=None, help="trials' temporary folder on a tmpfs of MB")
    parser.add_argument("--fill", type=int, default=0, help="MiB of that tmpfs held by another program")
    args = parser.parse_args()
    results = Path(tempfile.mkdtemp(prefix="load-results-"))
    temp = _small_temp(args.tmpfs, args.fill) if args.tmpfs else Path(tempfile.gettempdir())
    picked = [a for c in args.challenge or ["medium/go-cache"] for a in ("--challenge", c)]
    argv = [sys.executable, "-m", "agentbench", "run", "--agent", "reference", *picked,
            "--trials", str(args.trials), "--jobs", str(args.jobs), "--sandbox", args.sandbox,
            "--results", str(results)]
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    busy += [subprocess.Popen([sys.executable, "-c", WRITER, str(temp / f"load-io-{n}")]) for n in range(args.io)]
    group = _cpu_group(args.quota) if args.quota else None
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, check=False, env={**os.environ, "TMPDIR": str(temp)},
                              preexec_fn=(lambda: _join(group)) if group else None)
    finally:
        for child in busy:
            child.kill()
            child.wait()
        if group:
            group.rmdir()
        if args.tmpfs:
            subprocess.run(["umount", "-l", str(temp)], check=False)
    if proc.returncode != 0:
        print(proc.stderr[-2000:])
        return proc.returncode
    _report(json.loads((results / "reference.json").read_text()))
    print(f"(results in {results})")
    return 0


WRITER = """
import os, sys
while True:
    with open(sys.argv[1], "wb") as f:
        try:
            for _ in range(256):
                f.write(b"x" * (1 << 20))
            f.flush(); os.fsync(f.fileno())
        except OSError:
            pass
    os.unlink(sys.argv[1])
"""
"""A disk writer: 256 MiB written and synced, deleted, again."""


def _small_temp(size_mb: int, fill_mb: int) -> Path:
    """A tmpfs of `size_mb` MiB (root) with `fill_mb` MiB held by a file no trial wrote."""
    folder = Path(tempfile.mkdtemp(prefix="load-tmpfs-"))
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m,mode=1777", "tmpfs", str(folder)], check=True)
    with (folder / "held-by-another-program").open("wb") as handle:
        handle.write(b"\0" * (fill_mb * 1024 * 1024))
    return folder


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
        if m is None:
            print(f"{trial['challenge_id']} #{trial['trial']}: {trial['status']}: {trial.get('error')}")
            continue
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
