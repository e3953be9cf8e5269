"""The command-line interface, driven in-process through ``jobq.cli.main``."""

from __future__ import annotations

import io
import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import FakeClock
from jobq import Scheduler
from jobq.cli import main


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def populated(db_path: Path, clock: FakeClock) -> Path:
    with Scheduler(db_path, clock) as scheduler:
        scheduler.register("noop", lambda payload: None)
        scheduler.register("boom", lambda payload: 1 / 0)
        scheduler.submit("noop", {"a": 1})
        scheduler.submit("boom", None, max_attempts=1)
        scheduler.submit("noop", None, run_at=clock.now + 100)
        scheduler.run_pending()
    return db_path


def test_list(populated: Path) -> None:
    code, out, _ = run_cli("--db", str(populated), "list")
    assert code == 0
    assert out.splitlines() == ["1\tsucceeded\tnoop\t1/3", "2\tfailed\tboom\t1/1", "3\tpending\tnoop\t0/3"]


def test_list_by_state(populated: Path) -> None:
    assert run_cli("--db", str(populated), "list", "--state", "failed")[1] == "2\tfailed\tboom\t1/1\n"
    assert run_cli("--db", str(populated), "list", "--state", "cancelled")[1] == ""


def test_status_json(populated: Path) -> None:
    code, out, _ = run_cli("--db", str(populated), "status", "2")
    data = json.loads(out)
    assert code == 0
    assert data["state"] == "failed"
    assert data["last_error"] == "ZeroDivisionError: division by zero"
    assert data["depends_on"] == []


def test_cancel(populated: Path) -> None:
    assert run_cli("--db", str(populated), "cancel", "3") == (0, "cancelled 3\n", "")
    assert run_cli("--db", str(populated), "cancel", "3") == (0, "job 3 is cancelled; nothing to cancel\n", "")


def test_unknown_job(populated: Path) -> None:
    assert run_cli("--db", str(populated), "status", "9") == (1, "", "error: job 9 not found\n")


def test_missing_database(tmp_path: Path) -> None:
    path = tmp_path / "nope.db"
    code, _, err = run_cli("--db", str(path), "list")
    assert (code, err) == (1, f"error: database not found: {path}\n")
    assert not path.exists()


def test_usage_error_exits_2(populated: Path) -> None:
    with pytest.raises(SystemExit) as info:
        run_cli("--db", str(populated), "status", "abc")
    assert info.value.code == 2


def test_module_entry_point(populated: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "jobq", "--db", str(populated), "list", "--state", "succeeded"],
        capture_output=True, text=True, check=False,
    )
    assert (proc.returncode, proc.stdout) == (0, "1\tsucceeded\tnoop\t1/3\n")


def test_module_entry_point_in_process(populated: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`python -m jobq` once more, in the test process (where coverage is measured)."""
    monkeypatch.setattr(sys, "argv", ["jobq", "--db", str(populated), "list", "--state", "succeeded"])
    monkeypatch.delitem(sys.modules, "jobq.__main__", raising=False)
    with pytest.raises(SystemExit) as info:
        runpy.run_module("jobq", run_name="__main__")
    assert (info.value.code, capsys.readouterr().out) == (0, "1\tsucceeded\tnoop\t1/3\n")
