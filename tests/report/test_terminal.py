"""The run table reads well at 80 and 120 columns: nothing cut, every score shown."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from agentbench.records import loads_run
from agentbench.report.terminal import run_table

EXAMPLE = Path(__file__).parents[2] / "examples" / "results" / "reference.json"


@pytest.mark.parametrize("width", [80, 120, 200])
def test_run_table_fits_the_terminal_without_cutting_cells(width):
    run = loads_run(EXAMPLE.read_text())
    console = Console(width=width, record=True, color_system=None)
    console.print(run_table(run, width))
    text = console.export_text()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width
    for trial in run.trials:
        assert f"{trial.score.total:.1f}" in text
        assert trial.challenge_id in text.replace("\n", "") or trial.challenge_id.split("/")[1] in text


@pytest.mark.parametrize("width", [80, 120, 170])
def test_tokens_and_cost_fit_too(width):
    from dataclasses import replace

    run = loads_run(EXAMPLE.read_text())
    trials = tuple(replace(t, adapter=replace(t.adapter, input_tokens=1234567, output_tokens=76543,
                                              cost_usd=12.3456), agent_seconds=1234.5)
                   for t in run.trials)
    console = Console(width=width, record=True, color_system=None)
    console.print(run_table(replace(run, trials=trials), width))
    text = console.export_text()
    assert "…" not in text and "1234567/76543" in text and "$12.3456" in text
