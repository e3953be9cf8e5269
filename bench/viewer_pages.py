"""How fast the viewer serves its pages: a run of 1,000 trials and a trial with a 20 MB transcript.

Makes one real trial (the reference agent on easy/semver) and copies its folder into a synthetic run
of 4 agents x 25 challenges x 10 trials (each copy gets its own record and a 30-step trajectory),
plus one trial whose Claude Code transcript is 20 MB (4,000 tool calls with 4 KB results), parsed by
the real parser. Then serves the folder with `agentbench view`'s server on a loopback port and times
each page over HTTP: the first load (records not yet cached) and the median of 5 later loads.

    python bench/viewer_pages.py
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

from agentbench.adapters.trajectory import Header, StepList, Trajectory, dumps
from agentbench.adapters.transcripts import build_trajectory
from agentbench.records import dumps_trial, loads_trial
from agentbench.viewer.server import start

AGENTS = ("alpha", "bravo", "charlie", "delta")
CHALLENGES = tuple(f"easy/c{i:02d}" for i in range(25))
TRIALS = 10
BIG_MB = 20


def real_trial(root: Path) -> Path:
    """A real finished trial folder (reference on easy/semver)."""
    subprocess.run([sys.executable, "-m", "agentbench", "run", "--agent", "reference", "--challenge",
                    "easy/semver", "--results", str(root / "seed"), "--run-id", "seed"],
                   check=True, capture_output=True)
    return root / "seed" / "seed" / "trials" / "reference" / "easy" / "semver" / "trial-1"


def small_trajectory() -> str:
    steps = StepList()
    for i in range(10):
        steps.model(text=f"step {i}: writing the next file", input_tokens=1000, output_tokens=200,
                    time=f"2026-01-01T00:00:{i:02d}Z")
        steps.call("Write", {"file_path": f"src/m{i}.py", "content": "x = 1\n" * 50}, call_id=str(i),
                   target=f"src/m{i}.py")
        steps.result(str(i), "File created successfully")
        steps.call("Bash", {"command": "python -m pytest -q"}, call_id=f"b{i}", target="python -m pytest -q")
        steps.result(f"b{i}", "1 passed", exit_code=0)
    return dumps(Trajectory(header=Header(agent="x", parser="claude-code", parsed=True), steps=tuple(steps.steps)))


def big_transcript(size_mb: int) -> str:
    """A Claude Code stream-JSON transcript of about `size_mb` MB."""
    lines, total, i = [], 0, 0
    result = "output line of a long test run\n" * 130
    while total < size_mb * 1024 * 1024:
        call = {"type": "assistant", "timestamp": "2026-01-01T00:00:00Z", "message": {
            "id": f"m{i}", "content": [{"type": "text", "text": f"Turn {i}: running the tests again."},
                                       {"type": "tool_use", "id": f"t{i}", "name": "Bash",
                                        "input": {"command": f"python -m pytest -q -k case_{i}"}}],
            "usage": {"input_tokens": 5000, "output_tokens": 100}}}
        answer = {"type": "user", "message": {"content": [
            {"type": "tool_result", "tool_use_id": f"t{i}", "content": result}]}}
        for event in (call, answer):
            line = json.dumps(event)
            lines.append(line)
            total += len(line) + 1
        i += 1
    lines.append(json.dumps({"type": "result", "subtype": "success", "result": "done"}))
    return "\n".join(lines) + "\n"


def build(root: Path) -> Path:
    seed = real_trial(root)
    record = loads_trial((seed / "record.json").read_text())
    results = root / "results"
    run = results / "big"
    trajectory = small_trajectory()
    for agent in AGENTS:
        for n_c, cid in enumerate(CHALLENGES):
            for trial in range(1, TRIALS + 1):
                folder = run / "trials" / agent / cid / f"trial-{trial}"
                shutil.copytree(seed, folder, ignore=shutil.ignore_patterns("record.json"))
                (folder / "trajectory.jsonl").write_text(trajectory)
                score = replace(record.score, efficiency=max(0.0, record.score.efficiency - n_c * 0.3 - trial * 0.1))
                copy = replace(record, agent=agent, challenge_id=cid, trial=trial, score=score,
                               seed_score=score, logs_dir=f"trials/{agent}/{cid}/trial-{trial}")
                (folder / "record.json").write_text(dumps_trial(copy))
    plan = {"run_id": "big", "agents": list(AGENTS), "challenge_ids": list(CHALLENGES), "challenge_dirs": [],
            "trials": TRIALS, "rubric": "seed", "model": None, "agents_config": None, "sandbox": "none",
            "agent_timeout_s": None, "created_at": "2026-01-01T00:00:00+00:00"}
    (run / "run.json").write_text(json.dumps(plan))
    big = run / "trials" / "alpha" / CHALLENGES[0] / "trial-1"
    (big / "agent").mkdir(exist_ok=True)
    (big / "agent" / "stdout.log").write_text(big_transcript(BIG_MB))
    started = time.perf_counter()
    parsed = build_trajectory(agent="alpha", adapter="claude-code", prompt="p", trial_dir=big)
    parse_s = time.perf_counter() - started
    (big / "trajectory.jsonl").write_text(dumps(parsed))
    print(f"20 MB transcript: {len(parsed.steps)} steps, parsed in {parse_s:.2f} s, trajectory.jsonl "
          f"{(big / 'trajectory.jsonl').stat().st_size / 1e6:.1f} MB")
    return results


def timed(url: str) -> tuple[float, int]:
    started = time.perf_counter()
    with urllib.request.urlopen(url) as response:
        body = response.read()
    return time.perf_counter() - started, len(body)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="agentbench-viewer-bench-") as tmp:
        results = build(Path(tmp))
        cold = start(results, "127.0.0.1", 0, warm=False)
        threading.Thread(target=cold.serve_forever, daemon=True).start()
        cold_s, _ = timed(f"http://127.0.0.1:{cold.port}/runs/big")
        print(f"run of 1,000 trials, nothing cached (no start-up indexing): {cold_s:.3f} s")
        cold.shutdown()
        cold.server_close()
        started = time.perf_counter()
        server = start(results, "127.0.0.1", 0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.port}"
        server.app.library.warmed.wait()  # type: ignore[attr-defined]
        print(f"start-up indexing of every run, in the background: {time.perf_counter() - started:.2f} s")
        big = "/runs/big/trials/alpha/easy/c00/1"
        pages = [("runs", "/"), ("run of 1,000 trials", "/runs/big"),
                 ("run, trials page 10", "/runs/big?page=9"),
                 ("an ordinary trial", "/runs/big/trials/bravo/easy/c07/3"),
                 ("20 MB trial, first steps", big), ("20 MB trial, steps 4000+", f"{big}?from=4000"),
                 ("20 MB trial, one step", f"{big}?step=6000"),
                 ("20 MB transcript log, middle", f"{big}/log/agent/stdout.log?offset=10000000"),
                 ("side by side (20 MB trial)", "/runs/big/compare/easy/c00?a=alpha&b=bravo"),
                 ("live progress JSON", "/runs/big/progress.json")]
        print(f"{'page':34} {'first load':>11} {'median of 5':>12} {'bytes':>10}")
        worst = 0.0
        for name, path in pages:
            first, size = timed(base + path)
            median = statistics.median(timed(base + path)[0] for _ in range(5))
            worst = max(worst, first, median)
            print(f"{name:34} {first:10.3f}s {median:11.3f}s {size:10d}")
        print(f"slowest: {worst:.3f} s (target: under 1 s per page)")
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
