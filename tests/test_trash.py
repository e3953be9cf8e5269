"""Issue 22: deleting what a trial left is off the trial's clock, and a killed run's leftovers go at the
next start (`agentbench.trash`). Real folders, real processes killed with SIGKILL."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from agentbench import trash

FILES = 20_000


def _fill(folder: Path, count: int = FILES) -> None:
    for i in range(0, count, 1000):
        sub = folder / "workspace" / f"d{i}"
        sub.mkdir(parents=True)
        for j in range(1000):
            (sub / f"f{j}").write_bytes(b"x")


def test_leaving_a_trial_folder_takes_no_time_and_it_is_deleted_behind(tmp_path):
    with trash.trial_folder("agentbench-trial-", base=tmp_path) as folder:
        _fill(folder)
        (folder / "workspace" / "locked").mkdir(mode=0)  # an agent's mode-000 folder
        start = time.monotonic()
    left = time.monotonic() - start
    assert left < 0.5, left  # one rename, whatever the folder holds
    assert not folder.exists()
    assert trash.drain(120)
    assert [p.name for p in tmp_path.iterdir()] == [trash.TRASH_NAME]
    assert list((tmp_path / trash.TRASH_NAME).iterdir()) == []
    assert (tmp_path / trash.TRASH_NAME).stat().st_mode & 0o777 == 0o700


KILLED = textwrap.dedent('''
    import os, signal, sys
    from pathlib import Path
    from agentbench import trash

    base = Path(sys.argv[1])
    with trash.trial_folder("agentbench-trial-", base=base) as folder:  # deleted behind, never reached
        (folder / "workspace").mkdir()
        for i in range(3000):
            (folder / "workspace" / f"f{i}").write_bytes(b"x")
    with trash.trial_folder("agentbench-trial-", base=base) as folder:  # killed in the middle of it
        (folder / "workspace").mkdir()
        (folder / "workspace" / "solution.py").write_text("x = 1\\n")
        os.kill(os.getpid(), signal.SIGKILL)
    ''')


def test_a_killed_runs_leftovers_are_deleted_at_the_next_start(tmp_path):
    base = tmp_path / "tmp"
    base.mkdir()
    proc = subprocess.run([sys.executable, "-c", KILLED, str(base)], capture_output=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == -9, proc.stderr
    names = sorted(p.name for p in base.iterdir())

    assert any(n.startswith("agentbench-trial-") for n in names) and trash.TRASH_NAME in names
    with trash.trial_folder("agentbench-trial-", base=base):
        pass
    assert trash.drain(60)
    assert [p.name for p in base.iterdir()] == [trash.TRASH_NAME]
    assert list((base / trash.TRASH_NAME).iterdir()) == []


def test_a_live_processes_folder_is_left_alone(tmp_path):
    mine = tmp_path / f"agentbench-trial-{os.getppid()}-abc"  # a live process (the test's parent)
    older = tmp_path / "agentbench-trial-12345678"  # a TemporaryDirectory of an older AgentBench
    for folder in (mine, older):
        folder.mkdir()
    with trash.trial_folder("agentbench-trial-", base=tmp_path):
        pass
    assert trash.drain(60)
    assert mine.is_dir() and older.is_dir()


def test_a_trash_planted_by_someone_else_is_never_used(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    base = tmp_path / "tmp"
    base.mkdir()
    (base / trash.TRASH_NAME).symlink_to(elsewhere)
    with trash.trial_folder("agentbench-trial-", base=base) as folder:
        (folder / "secret.txt").write_text("a trial's work\n")
    assert trash.drain(60)
    assert list(elsewhere.iterdir()) == []  # nothing renamed through the link
    assert not folder.exists()
    private = [p for p in base.iterdir() if p.name.startswith(f"{trash.TRASH_NAME}-")]
    assert len(private) == 1 and private[0].stat().st_mode & 0o777 == 0o700
