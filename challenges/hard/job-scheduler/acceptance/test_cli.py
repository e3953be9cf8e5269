"""The ``python -m jobq`` command-line interface."""

import json
import subprocess
import sys

import pytest


def cli(*args):
    return subprocess.run([sys.executable, "-m", "jobq", *map(str, args)], capture_output=True, text=True,
                          timeout=60)


@pytest.fixture
def filled(db, clock, make_handler):
    from jobq import Scheduler

    with Scheduler(db, clock) as scheduler:
        scheduler.register("ok", lambda payload: {"sum": sum(payload)})
        scheduler.register("bad", make_handler(failures=9))
        scheduler.register("wait", lambda payload: None)
        scheduler.submit("ok", [1, 2, 3], priority=2)
        scheduler.submit("bad", None, max_attempts=1)
        scheduler.submit("wait", {"k": "v"}, depends_on=[2])
        scheduler.submit("wait", None, run_at=9e9, max_attempts=5)
        scheduler.submit("bad", None, max_attempts=2)
        scheduler.run_pending()
    return db


def test_list_prints_tab_separated_lines_in_id_order(filled):
    proc = cli("--db", filled, "list")
    assert proc.returncode == 0
    assert proc.stdout.splitlines() == [
        "1\tsucceeded\tok\t1/3",
        "2\tfailed\tbad\t1/1",
        "3\tcancelled\twait\t0/3",
        "4\tpending\twait\t0/5",
        "5\tpending\tbad\t1/2",
    ]


def test_list_state_filter_and_empty_output(filled):
    proc = cli("--db", filled, "list", "--state", "pending")
    assert (proc.returncode, proc.stdout) == (0, "4\tpending\twait\t0/5\n5\tpending\tbad\t1/2\n")
    proc = cli("--db", filled, "list", "--state", "running")
    assert (proc.returncode, proc.stdout) == (0, "")


def test_status_prints_sorted_indented_json(filled, clock):
    proc = cli("--db", filled, "status", 1)
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert list(data) == sorted(data)
    assert data == {
        "id": 1, "name": "ok", "payload": [1, 2, 3], "state": "succeeded", "priority": 2, "run_at": 1000.0,
        "attempts": 1, "max_attempts": 3, "backoff_base": 2.0, "depends_on": [], "last_error": None,
        "result": {"sum": 6}, "created_at": 1000.0, "finished_at": 1000.0,
    }
    assert proc.stdout.startswith('{\n  "attempts": 1,')
    third = json.loads(cli("--db", filled, "status", 3).stdout)
    assert (third["state"], third["depends_on"], third["payload"]) == ("cancelled", [2], {"k": "v"})
    fifth = json.loads(cli("--db", filled, "status", 5).stdout)
    assert (fifth["last_error"], fifth["run_at"]) == ("ValueError: boom 2", 1002.0)


def test_cancel_prints_and_persists(filled, clock):
    from jobq import Scheduler

    proc = cli("--db", filled, "cancel", 5)
    assert (proc.returncode, proc.stdout) == (0, "cancelled 5\n")
    proc = cli("--db", filled, "cancel", 5)
    assert (proc.returncode, proc.stdout) == (0, "job 5 is cancelled; nothing to cancel\n")
    proc = cli("--db", filled, "cancel", 1)
    assert (proc.returncode, proc.stdout) == (0, "job 1 is succeeded; nothing to cancel\n")
    with Scheduler(filled, clock) as scheduler:
        assert scheduler.status(5).state == "cancelled"
        assert scheduler.status(4).state == "pending"


@pytest.mark.parametrize("command", ["status", "cancel"])
def test_unknown_job_exits_1(filled, command):
    proc = cli("--db", filled, command, 77)
    assert proc.returncode == 1
    assert proc.stderr.strip() == "error: job 77 not found"
    assert proc.stdout == ""


def test_missing_database_exits_1_without_creating_it(tmp_path):
    path = tmp_path / "absent.db"
    proc = cli("--db", path, "list")
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"error: database not found: {path}"
    assert not path.exists()


@pytest.mark.parametrize(
    "args",
    [("list",), ("--db", "X"), ("--db", "X", "status", "abc"), ("--db", "X", "list", "--state", "done"),
     ("--db", "X", "frobnicate")],
)
def test_usage_errors_exit_2(filled, args):
    proc = cli(*[filled if a == "X" else a for a in args])
    assert proc.returncode == 2


def test_cli_does_not_recover_running_jobs(db, clock):
    from jobq import Scheduler

    class Crash(BaseException):
        pass

    def die(payload):
        raise Crash()

    worker = Scheduler(db, clock)
    worker.register("die", die)
    worker.submit("die", None)
    with pytest.raises(Crash):
        worker.run_pending()
    worker.close()
    assert cli("--db", db, "list").stdout == "1\trunning\tdie\t1/3\n"
    proc = cli("--db", db, "cancel", 1)
    assert (proc.returncode, proc.stdout) == (0, "job 1 is running; nothing to cancel\n")
    with Scheduler(db, clock, recover=False) as observer:
        assert observer.status(1).state == "running"
