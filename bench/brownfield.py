"""Figures for brownfield tasks: importing and validating generated Exercism exercises, and the
per-trial overhead of a starting workspace against a greenfield one.

Run:
    python bench/brownfield.py import --count 200 [--jobs 2] [--validate]
    python bench/brownfield.py overhead --trials 5

`import` writes COUNT made-up Python exercises in Exercism's layout (nobody's exercises), times
`agentbench import exercism`, and with `--validate` times `agentbench validate --write-sets` over
all of them (reference + noop per exercise) and counts the valid ones.

`overhead` runs the `reference` agent on the same final project two ways: greenfield (an empty
workspace; the reference writes the whole tree) and brownfield (the workspace starts as a git
commit of the buggy tree: one-commit repository from the cached template, diff, protected files
put back), and prints the mean trial time of each and their ratio, plus the harness's own
brownfield steps (seed, diff and restore) timed alone.

Measured on the development machine (2 cores shared with other jobs, 2026-12-05):
- import of 200 generated exercises: 0.77 s (3.9 ms each; 2.5 s under heavier load);
  `validate --write-sets` of all 200 (reference + noop each, 2 jobs): 862 s, 4.3 s per exercise,
  200 valid;
- mean trial time, greenfield 4.86 s vs git-start brownfield 4.73 s over 8 trials each: ratio
  0.97 (0.87 over 5 in a noisier run): within noise; the brownfield steps alone cost 39-72 ms per
  trial (the first, which builds the cached one-commit template, 90-350 ms), about 1% of a trial.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from agentbench.cli import main as cli  # noqa: E402

PY_TEST = '''import unittest

from {module} import value


class ValueTest(unittest.TestCase):
    def test_value(self):
        self.assertEqual(value({n}), {n} * 3)

    def test_zero(self):
        self.assertEqual(value(0), 0)
'''


def _run_cli(*args: str) -> int:
    try:
        cli(list(args))
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def generate(root: Path, count: int) -> None:
    """COUNT exercises `ex-0001`... under root/python/exercises/practice, difficulties 1-10."""
    track = root / "python"
    practice = []
    for i in range(1, count + 1):
        slug, module = f"ex-{i:04d}", f"ex_{i:04d}"
        folder = track / "exercises" / "practice" / slug
        (folder / ".meta").mkdir(parents=True)
        (folder / ".docs").mkdir()
        (folder / ".docs" / "instructions.md").write_text(f"# {slug}\n\nReturn three times n.\n")
        (folder / f"{module}.py").write_text("def value(n):\n    pass\n")
        (folder / f"{module}_test.py").write_text(PY_TEST.format(module=module, n=i))
        (folder / ".meta" / "example.py").write_text("def value(n):\n    return n * 3\n")
        (folder / ".meta" / "config.json").write_text(json.dumps({"files": {
            "solution": [f"{module}.py"], "test": [f"{module}_test.py"], "example": [".meta/example.py"]}}))
        practice.append({"slug": slug, "difficulty": 1 + i % 10})
    (track / "config.json").write_text(json.dumps({"exercises": {"practice": practice}}))


def bench_import(count: int, jobs: int, validate: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="agentbench-bench-import-") as tmp:
        suite, out = Path(tmp) / "suite", Path(tmp) / "out"
        generate(suite, count)
        start = time.perf_counter()
        assert _run_cli("import", "exercism", str(suite), "--output", str(out)) == 0
        imported = time.perf_counter() - start
        print(f"import exercism: {count} exercises in {imported:.2f} s "
              f"({1000 * imported / count:.1f} ms each)")
        if not validate:
            return
        start = time.perf_counter()
        code = _run_cli("validate", "--write-sets", "--challenges", str(out), "--repeats", "0",
                        "--jobs", str(jobs), "--results", str(Path(tmp) / "v"),
                        *sorted(f"{p.parent.name}/{p.stem}" for p in out.glob("*/*.yaml")))
        took = time.perf_counter() - start
        print(f"validate --write-sets: {count} exercises (reference + noop each, {jobs} jobs) in "
              f"{took:.0f} s ({took / count:.2f} s per exercise), exit {code}")


def bench_overhead(trials: int) -> None:
    from tests.brownfield.fixtures import make_challenge
    from tests.conftest import write

    with tempfile.TemporaryDirectory(prefix="agentbench-bench-overhead-") as tmp:
        root = make_challenge(Path(tmp) / "challenges")
        green = (root / "medium" / "clamp.yaml").read_text().split("workspace:")[0]
        green += "acceptance:\n  files: clamp/acceptance\n"
        write(root / "medium" / "clamp-green.yaml", green)
        (root / "medium" / "clamp-green").symlink_to(root / "medium" / "clamp")
        means = {}
        for cid in ("medium/clamp-green", "medium/clamp"):
            results = Path(tmp) / cid.replace("/", "-")
            assert _run_cli("run", "--agent", "reference", "--challenge", cid, "--challenges",
                            str(root), "--results", str(results), "--trials", str(trials)) == 0
            data = json.loads((results / "reference.json").read_text())
            means[cid] = statistics.mean(t["duration_s"] for t in data["trials"])
        ratio = means["medium/clamp"] / means["medium/clamp-green"]
        print(f"mean trial time over {trials} trials: greenfield {means['medium/clamp-green']:.2f} s, "
              f"brownfield (git start) {means['medium/clamp']:.2f} s, ratio {ratio:.3f}")
        _steps(root)


def _steps(root: Path) -> None:
    from agentbench.loader import load_challenge
    from agentbench.starting import close_workspace, seed_workspace
    from agentbench.workspace import archive_workspace

    challenge = load_challenge(root / "medium" / "clamp.yaml")
    with tempfile.TemporaryDirectory(prefix="agentbench-bench-steps-") as tmp:
        times = []
        for n in range(20):
            ws, trial = Path(tmp) / f"ws{n}", Path(tmp) / f"trial{n}"
            ws.mkdir()
            start = time.perf_counter()
            pristine = seed_workspace(challenge, ws, Path(tmp) / "cache")
            archive_workspace(ws, trial / "workspace")
            close_workspace(challenge, trial, pristine, live=ws, measured=ws)
            times.append(time.perf_counter() - start)
        print(f"seed + diff + restore alone: first (builds the cached template) {times[0] * 1000:.0f} ms, "
              f"then median {statistics.median(times[1:]) * 1000:.1f} ms per trial")


def main() -> None:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    imp = sub.add_parser("import")
    imp.add_argument("--count", type=int, default=200)
    imp.add_argument("--jobs", type=int, default=2)
    imp.add_argument("--validate", action="store_true")
    over = sub.add_parser("overhead")
    over.add_argument("--trials", type=int, default=5)
    args = parser.parse_args()
    if args.what == "import":
        bench_import(args.count, args.jobs, args.validate)
    else:
        bench_overhead(args.trials)


if __name__ == "__main__":
    main()
