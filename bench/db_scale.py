"""Results-database benchmark: 100,000 trials inserted, then `runs`, `history` and a 10-agent `compare`
answered from the database, and the same questions answered from JSON results files.

Run: python bench/db_scale.py [--runs 770] [--db postgresql://...] [--skip-json]

The data is SYNTHETIC (no agent runs): 10 fictional agents x the 13 challenge IDs x 1 trial per run,
770 runs = 100,100 trials, each a full trial record (adapter, measurements, both scores). Figures:

1. insert: every run indexed with `ResultsIndex.sync_run` (one transaction per run, as `run` does
   at its end), and separately 500 trials one transaction each (as `run` does after each trial);
2. from the database, median of 5: `runs` (every run with its per-agent aggregates, and the CLI's
   default 50 newest), `history AGENT` (a point with its interval for each of its 770 runs),
   `compare` of 10 agents `@latest` (the records fetched and the full comparison built);
3. the same three from JSON files, timed once (`<run-id>/<agent>.json`, the per-run results files): every
   file read for `runs`, the agent's 770 files for `history`, every file for the 10 latest views.
Temporary files are removed. With `--db postgresql://...` the figures are taken in a scratch
database made on that server for the run (the URL's role must be allowed to create databases) and
dropped afterwards, so the database the URL names is never written.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
import urllib.parse
import uuid
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.synthetic import AGENTS, CHALLENGES, MORE_AGENTS, breakdown, example_runs  # noqa: E402

from agentbench.comparison import CompareOptions, compare_both  # noqa: E402
from agentbench.models import RunRecord  # noqa: E402
from agentbench.records import dumps_run, loads_run  # noqa: E402
from agentbench.scoring import aggregate_score, challenge_means  # noqa: E402
from agentbench.stats import mean_interval  # noqa: E402
from agentbench.store.database import locate  # noqa: E402
from agentbench.store.opening import connect  # noqa: E402
from agentbench.store.history import history  # noqa: E402
from agentbench.store.index import ResultsIndex, RunInfo  # noqa: E402
from agentbench.store.views import RunFilter, latest, list_runs  # noqa: E402

NAMES = tuple(f"{a.agent}-{i}" for i, a in enumerate((*AGENTS, *MORE_AGENTS, *AGENTS[:2])))[:10]


def templates() -> dict[str, list]:
    """One synthetic run (13 challenges, 1 trial) per agent, reused with varied scores."""
    pool = [*AGENTS, *MORE_AGENTS, *AGENTS[:2]][:10]
    out = {}
    for name, who in zip(NAMES, pool, strict=True):
        ((run, _),) = example_runs(seed=len(out), trials=1, agents=(who,))
        out[name] = [replace(t, agent=name) for t in run.trials]
    return out


def run_trials(base: dict[str, list], rng: random.Random, run_id: str) -> dict[str, list]:
    out = {}
    for agent, trials in base.items():
        varied = []
        for t in trials:
            if t.score is not None:
                points = breakdown(max(1.0, min(99.0, t.score.total + rng.gauss(0, 8))))
                t = replace(t, score=points, seed_score=points)
            varied.append(t)
        out[agent] = varied
    return out


def info(run_id: str, n: int) -> RunInfo:
    day = f"2026-{1 + n // 28 % 12:02d}-{1 + n % 28:02d}T{n % 24:02d}:00:00+00:00"
    return RunInfo(run_id=run_id, results_dir="/bench", started_at=f"{2024 + n // 336}{day[4:]}",
                   status="finished", agents=NAMES, challenges=CHALLENGES, trials_per=1,
                   rubric="seed", model=None, options=(), agentbench_version="bench",
                   isolation="bench", agent_models=tuple((a, f"model-{n // 200}", f"1.{n // 100}")
                                                         for a in NAMES))


def median_of(fn: Callable[[], object], times: int = 5) -> tuple[float, object]:
    samples, result = [], None
    for _ in range(times):
        start = time.perf_counter()
        result = fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=770)
    parser.add_argument("--db", default=None, help="database URL (default: a temporary SQLite file)")
    parser.add_argument("--skip-json", action="store_true")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="agentbench-bench-db-"))
    try:
        if args.db and args.db.startswith(("postgresql://", "postgres://")):
            with scratch_postgres(args.db) as url:
                bench(argparse.Namespace(**{**vars(args), "db": url}), tmp)
        else:
            bench(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


@contextlib.contextmanager
def scratch_postgres(url: str) -> Iterator[str]:
    """A new database on the server of `url`, dropped on the way out: its URL."""
    import psycopg
    from psycopg import sql

    name = f"agentbench_bench_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield urllib.parse.urlunsplit(urllib.parse.urlsplit(url)._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def bench(args: argparse.Namespace, tmp: Path) -> None:
    rng = random.Random(1)
    base = templates()
    index = ResultsIndex(connect(locate(args.db or str(tmp / "agentbench.db"), tmp), create=True))
    runs_json = tmp / "json"
    total, insert_s, json_s = 0, 0.0, 0.0
    for n in range(args.runs):
        run_id = f"run-{n:05d}"
        trials = run_trials(base, rng, run_id)
        rows = [(t, Path("/bench") / run_id / t.logs_dir) for ts in trials.values() for t in ts]
        start = time.perf_counter()
        index.sync_run(info(run_id, n), rows)
        insert_s += time.perf_counter() - start
        total += len(rows)
        if not args.skip_json:
            start = time.perf_counter()
            write_json(runs_json, run_id, info(run_id, n), trials)
            json_s += time.perf_counter() - start
    one_by_one = single_inserts(index, base)
    print(f"database: {index.shown.split('/')[-1] if index.connection.kind == 'sqlite' else index.shown}"
          f" ({index.connection.kind})")
    print(f"insert {total:,} trials, one transaction per run of {len(NAMES) * len(CHALLENGES)}: "
          f"{insert_s:.1f} s ({total / insert_s:,.0f} trials/s)")
    print(f"insert 500 trials, one transaction each (as after each trial): {one_by_one * 1000:.2f} ms per trial")
    conn = index.connection
    figures = [
        ("runs (all runs, per-agent aggregates)", lambda: list_runs(conn)),
        ("runs (default: 50 newest)", lambda: list_runs(conn, RunFilter(limit=50))),
        (f"history {NAMES[0]}", lambda: history(conn, NAMES[0])),
        ("compare 10 agents @latest", lambda: compare_latest(conn)),
    ]
    for label, fn in figures:
        seconds, result = median_of(fn)
        print(f"  database  {label}: {seconds * 1000:.0f} ms ({size(result)})")
    if not args.skip_json:
        print(f"(writing the same as {args.runs * len(NAMES):,} JSON results files took {json_s:.1f} s)")
        for label, fn in (("runs", lambda: json_runs(runs_json)),
                          (f"history {NAMES[0]}", lambda: json_history(runs_json, NAMES[0])),
                          ("compare 10 agents @latest", lambda: json_compare(runs_json))):
            seconds, result = median_of(fn, times=1)  # NOTE: minutes each at full scale
            print(f"  JSON files {label}: {seconds * 1000:.0f} ms ({size(result)})")
    index.close()


def size(result: object) -> str:
    if isinstance(result, tuple) and result and hasattr(result[0], "verdicts"):
        return f"{len(result[0].agents)} agents, {len(result[0].challenges)} challenges"
    if hasattr(result, "points"):
        return f"{len(result.points)} points"  # type: ignore[attr-defined]
    return f"{len(result)} rows" if hasattr(result, "__len__") else ""  # type: ignore[arg-type]


def single_inserts(index: ResultsIndex, base: dict[str, list]) -> float:
    run = replace(info("single", 0), agents=(NAMES[0],))
    index.start_run(run)
    trials = [replace(t, trial=n + 1) for n in range(40) for t in base[NAMES[0]]][:500]
    start = time.perf_counter()
    for t in trials:
        index.add_trial("single", t, Path("/bench/single") / t.logs_dir, None)
    return (time.perf_counter() - start) / len(trials)


def compare_latest(conn) -> object:  # type: ignore[no-untyped-def]
    views = [latest(conn, a) for a in NAMES]
    return compare_both([v.record for v in views], sources=[f"{a}@latest" for a in NAMES],
                        models=[v.model for v in views], options=CompareOptions())


def write_json(root: Path, run_id: str, run: RunInfo, trials: dict[str, list]) -> None:
    folder = root / run_id
    folder.mkdir(parents=True)
    (folder / "run.json").write_text(json.dumps({"run_id": run_id, "created_at": run.started_at,
                                                 "agents": list(run.agents)}))
    for agent, ts in trials.items():
        record = RunRecord(agent=agent, run_id=run_id, rubric="seed", created_at=run.started_at,
                           agentbench_version="bench", trials=tuple(ts))
        (folder / f"{agent}.json").write_text(dumps_run(record))


def json_runs(root: Path) -> list[tuple[str, str, dict[str, float | None]]]:
    out = []
    for folder in sorted(root.iterdir()):
        plan = json.loads((folder / "run.json").read_text())
        scores = {a: aggregate_score(loads_run((folder / f"{a}.json").read_text()).trials)
                  for a in plan["agents"]}
        out.append((plan["run_id"], plan["created_at"], scores))
    return sorted(out, key=lambda r: r[1], reverse=True)


def json_history(root: Path, agent: str) -> list[tuple[str, float, object]]:
    points = []
    for folder in sorted(root.iterdir()):
        path = folder / f"{agent}.json"
        if path.is_file():
            means = list(challenge_means(loads_run(path.read_text()).trials).values())
            points.append((folder.name, statistics.fmean(means), mean_interval(means)))
    return points


def json_compare(root: Path) -> object:
    records = []
    for agent in NAMES:
        newest: dict[str, tuple[str, list]] = {}
        for folder in sorted(root.iterdir()):
            run = loads_run((folder / f"{agent}.json").read_text())
            created = json.loads((folder / "run.json").read_text())["created_at"]
            for t in run.trials:
                if t.challenge_id not in newest or created >= newest[t.challenge_id][0]:
                    newest.setdefault(t.challenge_id, (created, []))
                    if created > newest[t.challenge_id][0]:
                        newest[t.challenge_id] = (created, [])
                    newest[t.challenge_id][1].append(t)
        trials = tuple(t for _, ts in newest.values() for t in ts)
        records.append(RunRecord(agent=agent, run_id="latest", rubric="seed", created_at="",
                                 agentbench_version="bench", trials=trials))
    return compare_both(records, sources=list(NAMES), models=[None] * len(NAMES), options=CompareOptions())


if __name__ == "__main__":
    main()
