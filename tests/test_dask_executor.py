"""Trials fanned out over a real Dask cluster (a local one) land in the same run folder."""

from __future__ import annotations

import pytest

from agentbench.records import loads_run
from tests.cli.helpers import invoke

distributed = pytest.importorskip("distributed", reason="the [dask] extra (installed by .ci/run)")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as local:
        yield local.scheduler_address


def test_dask_executor_runs_trials_and_collects_their_folders(capsys, tmp_path, tiny_challenges, cluster):
    r = invoke(capsys, "run", "--agent", "reference", "--agent", "noop", "--challenge", "easy/adder",
               "--trials", "2", "--challenges", str(tiny_challenges), "--results", str(tmp_path),
               "--executor", "dask", "--address", cluster, "--run-id", "dk")
    assert r.exit_code == 0, r.err
    reference = loads_run((tmp_path / "reference.json").read_text())
    assert sorted(t.trial for t in reference.trials) == [1, 2]
    assert all(t.score.total > 80 for t in reference.trials)
    noop = loads_run((tmp_path / "noop.json").read_text())
    assert all(t.score.total <= 10 for t in noop.trials)
    for trial in reference.trials:
        folder = tmp_path / "dk" / trial.logs_dir
        assert (folder / "record.json").is_file() and (folder / "logs" / "test-1.log").is_file()
        assert (folder / "workspace" / "src" / "adder" / "__init__.py").is_file()


def test_unreachable_scheduler_is_a_clear_error(capsys, tmp_path, tiny_challenges):
    r = invoke(capsys, "run", "--agent", "noop", "--challenge", "easy/adder", "--challenges",
               str(tiny_challenges), "--results", str(tmp_path), "--executor", "dask",
               "--address", "tcp://127.0.0.1:9")
    assert r.exit_code == 1 and "cannot reach the Dask scheduler" in r.err


def test_doctor_runs_on_every_dask_worker(capsys, cluster):
    import json

    r = invoke(capsys, "doctor", "--agent", "noop", "--executor", "dask", "--address", cluster, "--json")
    assert r.exit_code == 0, r.err
    rows = json.loads(r.out)
    workers = {row["where"] for row in rows}
    assert len(workers) == 2 and all(w.startswith("tcp://") for w in workers)
    assert {row["subject"] for row in rows} == {"machine", "noop"}
