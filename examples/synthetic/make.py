"""Write the SYNTHETIC six-agent example: results files, run plans, reports and a screenshot.

No agent ran to make these files. `tests/synthetic.py` invents six agents (fictional names and
models, seeded random scores) on the IDs of the 13 built-in challenges, 3 trials each, with a few
timeouts and infrastructure errors; this script writes them where `agentbench run` would, then
reports on them with the real `agentbench report`, and photographs the HTML report in a
1400-pixel-wide headless Chromium, as `tests/report/test_html.py` does.

    python examples/synthetic/make.py          # from the repository root; needs Chromium
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from agentbench.cli import main  # noqa: E402
from agentbench.records import dumps_run  # noqa: E402
from agentbench.store import RunDir, RunPlan  # noqa: E402
from tests.report.test_html import load_in_browser  # noqa: E402
from tests.synthetic import CHALLENGES, example_runs  # noqa: E402

HERE = Path(__file__).resolve().parent


def write_results(folder: Path) -> None:
    """Each fictional agent's results file, and its run plan (which names its model)."""
    folder.mkdir(parents=True, exist_ok=True)
    for run, model in example_runs():
        name = run.agent if run.agent != "delta-agent" else f"{run.agent}-{model}"
        (folder / f"{name}.json").write_text(dumps_run(run), encoding="utf-8")
        RunDir(folder / run.run_id).write_plan(RunPlan(
            run_id=run.run_id, agents=(run.agent,), challenge_ids=CHALLENGES, challenge_dirs=(),
            trials=3, rubric="seed", model=model, agents_config=None, sandbox="none",
            agent_timeout_s=None, created_at=run.created_at))


def report(*args: str) -> None:
    """Run `agentbench report ...` in this process."""
    try:
        main(["report", *args])
    except SystemExit as stop:
        if stop.code:
            raise


def make() -> None:
    results = HERE / "results"
    write_results(results)
    for name in ("comparison.md", "report.html", "trials.csv"):
        report(str(results), "--output", str(HERE / name), "--power", "5")
    load_in_browser(HERE / "report.html", HERE / "report.png", Path("/tmp/agentbench-chromium"),
                    width=1400)


if __name__ == "__main__":
    make()
