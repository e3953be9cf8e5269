"""Third-party adapters from the `agentbench.adapters` entry-point group (tests/data/example_plugin)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from agentbench.records import loads_run
from tests.cli.helpers import invoke

EXAMPLE = Path(__file__).parents[1] / "data" / "example_plugin"


def install_as_distribution(site: Path, name: str, entry_points: str, package: Path | None) -> None:
    """What `pip install` leaves: the package and a .dist-info with its entry points."""
    info = site / f"{name}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    if package is not None:
        shutil.copytree(package, site / package.name)


@pytest.fixture
def plugin_site(tmp_path, monkeypatch):
    site = tmp_path / "site"
    entry = (EXAMPLE / "pyproject.toml").read_text().split('[project.entry-points."agentbench.adapters"]')[1]
    entry = entry.strip().replace('"', "")  # TOML string -> entry_points.txt value
    install_as_distribution(site, "my_agentbench_plugin", "[agentbench.adapters]\n" + entry + "\n",
                            EXAMPLE / "my_agentbench_plugin")
    install_as_distribution(site, "broken_plugin", "[agentbench.adapters]\nbroken = no_such_module:Adapter\n",
                            None)
    monkeypatch.syspath_prepend(str(site))
    return site


def test_plugin_adapter_is_listed_and_runs(capsys, tmp_path, tiny_challenges, plugin_site):
    r = invoke(capsys, "agents", "--json")
    rows = {row["name"]: row for row in json.loads(r.out)}
    assert rows["echo-agent"]["installed"] is True, rows["echo-agent"]
    assert not rows["broken"]["installed"] and "no_such_module" in rows["broken"]["note"]
    r = invoke(capsys, "run", "--agent", "echo-agent", "--challenge", "easy/adder", "--challenges",
               str(tiny_challenges), "--results", str(tmp_path / "r"))
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((tmp_path / "r" / "echo-agent.json").read_text()).trials
    assert trial.adapter.final_message == "echoed the prompt"


def test_a_broken_plugin_is_a_clear_error_when_used(capsys, tmp_path, tiny_challenges, plugin_site):
    r = invoke(capsys, "run", "--agent", "broken", "--challenge", "easy/adder", "--challenges",
               str(tiny_challenges), "--results", str(tmp_path / "r"))
    assert r.exit_code == 2
    assert "adapter plugin 'broken' failed to load" in r.err and "Traceback" not in r.err
