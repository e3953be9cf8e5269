"""Execution-engine benchmark: harness overhead, parallel speed-up (local and Dask), CLI start-up.

Run: python bench/engine.py [--quick]

Prints, measured side by side in one run:
1. harness overhead per trial (everything but the agent's own time) against the bare cost of
   running the challenge's setup and test commands once by hand in a ready virtual environment;
2. the speed-up of --jobs 4 over --jobs 1 on agents that wait (a fake agent that sleeps);
3. the same on the Dask executor (a local cluster of 4 single-threaded workers);
4. `agentbench --help` and `agentbench list` start-up against a bare `python -c pass`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from agentbench.loader import discover_challenges, select_challenges
from agentbench.records import loads_run
from agentbench.workspace import cache_dir, command_env, create_env, make_trial_dirs, template_site_packages

CHALLENGE = "easy/password-gen"


def bare_commands(repeats: int) -> float:
    """Median seconds of the challenge's setup + test commands, by hand, in a ready venv."""
    (challenge,) = select_challenges(discover_challenges(), ids=(CHALLENGE,))
    template = template_site_packages(cache_dir(), Path(tempfile.mkdtemp()))
    times = []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as tmp:
            dirs = make_trial_dirs(Path(tmp))
            shutil.copytree(challenge.reference_dir, dirs.workspace, dirs_exist_ok=True)
            env = create_env(dirs.scratch / "env", template)
            variables = command_env(env, dirs)
            start = time.perf_counter()
            for command in (*challenge.setup_commands, *challenge.test_commands):
                subprocess.run(command, shell=True, cwd=dirs.workspace, env=variables,  # noqa: S602
                               check=True, capture_output=True)
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def harness_trials(repeats: int) -> tuple[float, float]:
    """Median (trial seconds minus agent seconds, of which the hidden tests) through the harness."""
    results = Path(tempfile.mkdtemp())
    agentbench(["run", "--agent", "reference", "--challenge", CHALLENGE, "--trials", str(repeats),
                "--results", str(results)])
    run = loads_run((results / "reference.json").read_text())
    overheads = [t.duration_s - t.adapter.time_taken_seconds for t in run.trials]
    hidden = [t.measurements.acceptance.tests.commands[0].duration_s for t in run.trials]
    return statistics.median(overheads), statistics.median(hidden)


def agentbench(args: list[str], extra_env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "agentbench", *args], check=True, capture_output=True,
                   env={**os.environ, **(extra_env or {})})
    return time.perf_counter() - start


def sleeping_setup(root: Path, seconds: float) -> tuple[Path, Path]:
    """A challenge with cheap commands and an agent that only sleeps: the run is all waiting."""
    tier = root / "challenges" / "easy"
    tier.mkdir(parents=True)
    (tier / "wait.yaml").write_text(textwrap.dedent("""\
        name: Wait
        language: python
        prompt: Do nothing.
        expected_files: [a.txt]
        test_commands: ["python -c pass"]
        scoring_rubric: {min_files: 1}
        """))
    agent = root / "sleeper.py"
    agent.write_text(f"import time, pathlib\ntime.sleep({seconds})\npathlib.Path('a.txt').write_text('x')\n")
    config = root / "agents.toml"
    config.write_text(f'[agents.sleeper]\nadapter = "command"\ncommand = ["{sys.executable}", "{agent}"]\n')
    return root / "challenges", config


def parallel_speedup(trials: int, seconds: float, executor_args: list[str]) -> tuple[float, float]:
    """(jobs 1 wall seconds, jobs 4 wall seconds) for `trials` sleeping trials."""
    walls = []
    for jobs in (1, 4):
        root = Path(tempfile.mkdtemp())
        challenges, config = sleeping_setup(root, seconds)
        walls.append(agentbench(["run", "--agent", "sleeper", "--challenge", "easy/wait", "--trials",
                                 str(trials), "--jobs", str(jobs), "--challenges", str(challenges),
                                 "--agents-config", str(config), "--results", str(root / "r"),
                                 *executor_args]))
    return walls[0], walls[1]


def dask_speedup(trials: int, seconds: float) -> tuple[float, float] | None:
    try:
        from distributed import LocalCluster
    except ImportError:
        return None
    walls = []
    for workers in (1, 4):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                          dashboard_address=None) as cluster:
            root = Path(tempfile.mkdtemp())
            challenges, config = sleeping_setup(root, seconds)
            walls.append(agentbench(["run", "--agent", "sleeper", "--challenge", "easy/wait",
                                     "--trials", str(trials), "--challenges", str(challenges),
                                     "--agents-config", str(config), "--results", str(root / "r"),
                                     "--executor", "dask", "--address", cluster.scheduler_address]))
    return walls[0], walls[1]


def startup(repeats: int) -> dict[str, float]:
    """Best-of wall seconds per command."""
    exe = shutil.which("agentbench") or f"{sys.executable} -m agentbench"
    commands = {"python -c pass": [sys.executable, "-c", "pass"],
                "agentbench --help": [*exe.split(), "--help"],
                "agentbench list": [*exe.split(), "list", "--json"]}
    best = {}
    for name, argv in commands.items():
        runs = []
        for _ in range(repeats):
            start = time.perf_counter()
            subprocess.run(argv, check=True, capture_output=True)
            runs.append(time.perf_counter() - start)
        best[name] = min(runs)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    quick = parser.parse_args().quick
    repeats = 2 if quick else 5
    template_site_packages(cache_dir(), Path(tempfile.mkdtemp()))  # warm the cache first

    bare = bare_commands(repeats)
    overhead, hidden = harness_trials(repeats)
    print(f"1. per-trial overhead on {CHALLENGE} (median of {repeats})")
    print(f"   bare setup+test commands in a ready venv : {bare:6.2f} s")
    print(f"   harness (all but the agent's own time)   : {overhead:6.2f} s  ratio {overhead / bare:.2f}x")
    print(f"     of which the hidden tests (extra work) : {hidden:6.2f} s")
    print(f"   beyond the commands themselves           : {overhead - bare:6.2f} s "
          f"(excluding hidden tests: {overhead - bare - hidden:.2f} s)")

    trials, seconds = 8, 3.0
    one, four = parallel_speedup(trials, seconds, [])
    print(f"2. {trials} trials of an agent sleeping {seconds:.0f} s, local executor")
    print(f"   --jobs 1: {one:6.2f} s   --jobs 4: {four:6.2f} s   speed-up {one / four:.2f}x")
    dask = dask_speedup(trials, seconds)
    if dask:
        print("3. the same on Dask (local cluster, 1 vs 4 single-threaded workers)")
        print(f"   1 worker: {dask[0]:6.2f} s   4 workers: {dask[1]:6.2f} s   speed-up {dask[0] / dask[1]:.2f}x")
    else:
        print("3. Dask not installed (pip install 'agentbench[dask]')")
    best = startup(3 if quick else 10)
    base = best["python -c pass"]
    print("4. start-up (best of runs)")
    for name, value in best.items():
        print(f"   {name:20s}: {value:6.3f} s   (+{value - base:.3f} s over python)")


if __name__ == "__main__":
    main()
