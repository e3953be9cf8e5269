"""Execution-engine benchmark: what a trial costs against the same work by hand, parallel speed-up,
start-up. Every figure times whole processes, pairs are interleaved (A B A B ...) so a change in the
machine's load hits both sides alike, and each line gives the median and the spread (min-max).

Run: python bench/engine.py [--quick] [--dask]

1. A trial through the harness (`agentbench run --agent reference --challenge easy/password-gen`,
   start-up, loading, results writing included) against the same work by hand (`bench/by_hand.py`:
   a fresh venv from the same template, copy the solution, the setup command, the test command under
   coverage, the hidden tests), and the ratio of each pair.
2. `--jobs 4` against `--jobs 1` on agents that only sleep.
3. With --dask: the same on a local Dask cluster of 4 single-threaded workers against 1.
4. Start-up: `agentbench --help` and `agentbench list` against `python -c pass`.
Every temporary folder is removed.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent
CHALLENGE = "easy/password-gen"


def timed(argv: list[str], **kwargs: object) -> float:
    """Wall seconds of one whole process (fails loudly if it fails)."""
    start = time.perf_counter()
    subprocess.run(argv, check=True, capture_output=True, **kwargs)  # type: ignore[call-overload]
    return time.perf_counter() - start


def spread(values: list[float]) -> str:
    return f"median {statistics.median(values):7.3f} s  ({min(values):.3f}-{max(values):.3f})"


@contextlib.contextmanager
def scratch() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="agentbench-bench-"))
    path.chmod(0o755)  # as root, trials run as their own user, who must read the agents written here
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def interleaved(a: Callable[[], float], b: Callable[[], float], rounds: int) -> tuple[list[float], list[float]]:
    """`rounds` pairs, A then B, after one warm-up pair that is not counted."""
    a(), b()
    pairs = [(a(), b()) for _ in range(rounds)]
    return [x for x, _ in pairs], [y for _, y in pairs]


def agentbench(*args: str) -> list[str]:
    return [sys.executable, "-m", "agentbench", *args]


def trial_cost(rounds: int) -> None:
    with scratch() as root:
        def harness() -> float:
            shutil.rmtree(root / "r", ignore_errors=True)
            return timed(agentbench("run", "--agent", "reference", "--challenge", CHALLENGE,
                                    "--results", str(root / "r")))

        def by_hand() -> float:
            return timed([sys.executable, str(HERE / "by_hand.py"), CHALLENGE])

        a, b = interleaved(harness, by_hand, rounds)
    ratios = [x / y for x, y in zip(a, b, strict=True)]
    print(f"1. one trial of the reference on {CHALLENGE}, {rounds} interleaved pairs")
    print(f"   harness (whole `agentbench run`) : {spread(a)}")
    print(f"   the same commands by hand         : {spread(b)}")
    print(f"   ratio per pair                    : median {statistics.median(ratios):.2f}x "
          f"({min(ratios):.2f}-{max(ratios):.2f})")


def sleeping_setup(root: Path, seconds: float) -> tuple[Path, Path]:
    """A challenge with cheap commands and an agent that only sleeps: the run is all waiting."""
    tier = root / "challenges" / "easy"
    tier.mkdir(parents=True)
    (tier / "wait.yaml").write_text(textwrap.dedent("""\
        name: Wait
        language: python
        prompt: Do nothing.
        expected_files: [a.txt]
        test_commands: ["python -m pytest -q"]
        scoring_rubric: {min_files: 1}
        """))
    agent = root / "sleeper.py"
    agent.write_text(f"import time, pathlib\ntime.sleep({seconds})\npathlib.Path('a.txt').write_text('x')\n")
    config = root / "agents.toml"
    config.write_text(f'[agents.sleeper]\nadapter = "command"\ncommand = ["{sys.executable}", "{agent}"]\n')
    return root / "challenges", config


def sleepers(trials: int, seconds: float, *extra: str) -> Callable[[], float]:
    def run() -> float:
        with scratch() as root:
            challenges, config = sleeping_setup(root, seconds)
            return timed(agentbench("run", "--agent", "sleeper", "--challenge", "easy/wait", "--trials",
                                    str(trials), "--challenges", str(challenges), "--agents-config",
                                    str(config), "--results", str(root / "r"), *extra))
    return run


def parallel(rounds: int, trials: int = 8, seconds: float = 3.0) -> None:
    four, one = interleaved(sleepers(trials, seconds, "--jobs", "4"), sleepers(trials, seconds, "--jobs", "1"),
                            rounds)
    print(f"2. {trials} trials of an agent sleeping {seconds:.0f} s, local executor, {rounds} pairs")
    print(f"   --jobs 1: {spread(one)}\n   --jobs 4: {spread(four)}")
    print(f"   speed-up: median {statistics.median([o / f for o, f in zip(one, four, strict=True)]):.2f}x")


def dask(rounds: int, trials: int = 8, seconds: float = 3.0) -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=4, threads_per_worker=1, dashboard_address=None) as four_c, \
            LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=None) as one_c:
        four, one = interleaved(
            sleepers(trials, seconds, "--executor", "dask", "--address", four_c.scheduler_address),
            sleepers(trials, seconds, "--executor", "dask", "--address", one_c.scheduler_address), rounds)
    print(f"3. the same on Dask, 4 workers against 1, {rounds} pairs")
    print(f"   1 worker : {spread(one)}\n   4 workers: {spread(four)}")
    print(f"   speed-up: median {statistics.median([o / f for o, f in zip(one, four, strict=True)]):.2f}x")


def startup(rounds: int) -> None:
    exe = shutil.which("agentbench")
    base = [exe] if exe else agentbench()
    commands = {"python -c pass": [sys.executable, "-c", "pass"],
                "agentbench --help": [*base, "--help"], "agentbench list": [*base, "list"]}
    for argv in commands.values():
        timed(argv)
    runs: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, argv in commands.items():
            runs[name].append(timed(argv, env={**os.environ, "COLUMNS": "120"}))
    print(f"4. start-up, {rounds} interleaved rounds")
    for name, values in runs.items():
        print(f"   {name:18s}: {spread(values)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--dask", action="store_true", help="also measure the Dask executor")
    args = parser.parse_args()
    rounds = 3 if args.quick else 7
    trial_cost(rounds)
    parallel(2 if args.quick else 3)
    if args.dask:
        dask(2 if args.quick else 3)
    startup(5 if args.quick else 10)


if __name__ == "__main__":
    main()
