"""Measuring cost per trial by language: a TypeScript (and a Go) trial against a Python one of similar
size, interleaved, whole processes.

Run: python bench/measure_languages.py [--runs N] [--python ID] [--typescript ID] [--go ID]

Each round runs `agentbench run --agent reference --challenge ID` once per language, in turn
(Python, TypeScript, Go, Python, ...), so a drift in the machine's speed hits all alike. Printed per
language: the median and spread of the whole process and of the trial's own `duration_s` (workspace,
hidden tests, build, the agent's tests, coverage, quality: what measuring costs), then each
language's ratio to Python (ratio of medians). The toolchains' cached assets are built before the
first round (not measured). Temporary folders are removed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_once(challenge: str, results: Path) -> tuple[float, float]:
    """(whole-process seconds, trial duration_s) of one reference run."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "agentbench", "run", "--agent", "reference", "--challenge",
                    challenge, "--results", str(results)], check=True, capture_output=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT / "src")}, cwd=ROOT)
    wall = time.perf_counter() - start
    trial = json.loads((results / "reference.json").read_text())["trials"][0]
    return wall, float(trial["duration_s"])


def describe(values: list[float]) -> str:
    return f"median {statistics.median(values):6.3f} s  (min {min(values):.3f}, max {max(values):.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--python", default="easy/password-gen")
    parser.add_argument("--typescript", default="easy/ts-word-count")
    parser.add_argument("--go", default="easy/go-roman")
    args = parser.parse_args()
    challenges = {"python": args.python, "typescript": args.typescript, "go": args.go}
    timings: dict[str, list[tuple[float, float]]] = {name: [] for name in challenges}
    with tempfile.TemporaryDirectory(prefix="agentbench-bench-") as tmp:
        for name, challenge in challenges.items():  # warm-up round: builds cached assets, not measured
            run_once(challenge, Path(tmp) / f"warm-{name}")
        for index in range(args.runs):
            for name, challenge in challenges.items():
                timings[name].append(run_once(challenge, Path(tmp) / f"{name}-{index}"))
    for column, label in ((1, "trial duration_s"), (0, "whole process")):
        print(f"{label}:")
        base = statistics.median(t[column] for t in timings["python"])
        for name, challenge in challenges.items():
            values = [t[column] for t in timings[name]]
            print(f"  {name:<10} {challenge:<20} {describe(values)}   x{statistics.median(values) / base:.2f}"
                  " of Python")


if __name__ == "__main__":
    main()
