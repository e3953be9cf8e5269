"""A measuring command that fails while the machine is out of disk is the machine's failure
(`infra_error`), never the agent's; bytes any trial wrote are counted back, so an agent that fills
the disk itself (or from another trial) stays scored (`agentbench.diskroom`)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentbench import diskroom
from agentbench.models import CommandResult, TrialRecord, TrialStatus
from agentbench.records import loads_run
from agentbench.toolchains import MeasureContext
from agentbench.toolchains.base import CommandSpec, run_command
from agentbench.users import TRIAL_UID_BASE
from agentbench.workspace import make_trial_dirs
from tests.attacks.agents import CHALLENGES, agent_config, defined
from tests.requirements import require

GIB = 1024 * 1024 * 1024
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def temp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The temporary folder the harness sees (its trial folders live there); no other shared folder."""
    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    monkeypatch.setattr(diskroom, "SHARED_TEMP", ())
    monkeypatch.setattr(diskroom, "LOW_WATER_SHARE", 1)  # NOTE: low water above the free space here
    return folder


def free_bytes(path: Path) -> int:
    info = os.statvfs(path)
    return info.f_bavail * info.f_frsize


def sparse(path: Path, size: int) -> Path:
    """A file of `size` apparent bytes that takes no disk (what is counted back is the larger)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


def test_full_without_the_trials_files_is_a_shortage(temp: Path) -> None:
    trial = temp / "agentbench-trial-1-x"
    (trial / "workspace").mkdir(parents=True)
    (trial / "workspace" / "main.go").write_text("package main\n")
    low = free_bytes(temp) + 512 * 1024 * 1024  # NOTE: the machine counts as full below this
    found = diskroom.shortage([trial / "workspace"], own_uid=False, low_water=low)
    assert found is not None
    assert found.trials_bytes < 1024 * 1024
    assert "out of disk" in found.describe()


def test_room_enough_is_no_shortage(temp: Path) -> None:
    assert diskroom.shortage([temp], own_uid=False, low_water=1) is None


@pytest.mark.parametrize("where", ["own trial", "another trial", "the trash"])
def test_what_a_trial_wrote_is_counted_back(temp: Path, where: str) -> None:
    folder = {"own trial": "agentbench-trial-1-x/workspace", "another trial": "agentbench-trial-2-y/tmp",
              "the trash": "agentbench-trash/agentbench-trial-3-z/workspace"}[where]
    sparse(temp / folder / "junk.bin", 2 * GIB)
    low = free_bytes(temp) + 512 * 1024 * 1024
    assert diskroom.shortage([temp], own_uid=False, low_water=low) is None


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (a file owned by a trial uid)")
def test_a_trial_users_files_in_the_shared_folders_are_counted_back(temp: Path) -> None:
    junk = sparse(temp / "left-by-the-agent.bin", 2 * GIB)
    low = free_bytes(temp) + 512 * 1024 * 1024
    assert diskroom.shortage([temp], own_uid=False, low_water=low) is not None  # root's: not a trial's
    os.chown(junk, TRIAL_UID_BASE + 7, TRIAL_UID_BASE + 7)
    assert diskroom.shortage([temp], own_uid=False, low_water=low) is None


def test_without_trial_users_agentbenchs_own_files_are_counted_back(temp: Path) -> None:
    sparse(temp / "left-by-the-agent.bin", 2 * GIB)
    low = free_bytes(temp) + 512 * 1024 * 1024
    assert diskroom.shortage([temp], own_uid=True, low_water=low) is None


def test_a_folder_it_cannot_read_is_no_excuse(temp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (temp / "agentbench-trial-1-x" / "hidden").mkdir(parents=True)
    real = diskroom._listing
    monkeypatch.setattr(diskroom, "_listing", lambda f: None if f.endswith("hidden") else real(f))
    low = free_bytes(temp) + 512 * 1024 * 1024
    assert diskroom.shortage([temp], own_uid=False, low_water=low) is None


def measure_context(temp: Path) -> MeasureContext:
    dirs = make_trial_dirs(temp / "agentbench-trial-1-x")
    return MeasureContext(dirs=dirs, trial_dir=temp / "results", assets=temp)


def run(ctx: MeasureContext, script: str) -> CommandResult:
    spec = CommandSpec(command="go test ./...", argv=("/bin/sh", "-c", script),
                       env={"PATH": "/usr/bin:/bin"}, log_name="test-1")
    return run_command(spec, ctx, ctx.confinement())


def test_a_failing_command_on_a_full_machine_is_the_machines(temp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = measure_context(temp)
    monkeypatch.setattr(diskroom, "LOW_WATER_BYTES", free_bytes(temp) + 512 * 1024 * 1024)
    with pytest.raises(OSError) as raised:
        run(ctx, "echo 'link: mapping output file failed: no space left on device' >&2; exit 1")
    assert raised.value.errno == errno.ENOSPC
    assert "out of disk" in str(raised.value)
    assert run(ctx, "exit 0").ok


def test_an_agent_that_fills_the_disk_itself_is_scored(temp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ctx = measure_context(temp)
    sparse(ctx.dirs.workspace / "fill.bin", 2 * GIB)
    monkeypatch.setattr(diskroom, "LOW_WATER_BYTES", free_bytes(temp) + 512 * 1024 * 1024)
    result = run(ctx, "exit 1")
    assert not result.ok


def test_a_failing_command_with_room_is_the_agents(temp: Path) -> None:
    result = run(measure_context(temp), "echo FAIL; exit 1")
    assert result.returncode == 1


@pytest.fixture
def small_tmp(tmp_path: Path) -> Iterator[Path]:
    """A 64 MiB file system of its own for the run's trial folders (root: a tmpfs)."""
    folder = tmp_path / "small"
    folder.mkdir(mode=0o1777)
    folder.chmod(0o1777)
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64m,mode=1777", "tmpfs",
                                            str(folder)], capture_output=True, check=False).returncode:
        pytest.skip("needs root and a tmpfs mount (a file system that can be filled)")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def run_go_calc(small: Path, tmp_path: Path, agent: str, *extra: str) -> TrialRecord:
    require("go")
    results = tmp_path / f"results-{agent}"
    proc = subprocess.run(
        [sys.executable, "-m", "agentbench", "run", "--agent", agent, "--challenge", "easy/go-calc",
         "--challenges", str(CHALLENGES), "--results", str(results), "--retries", "0", *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "TMPDIR": str(small), "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-2000:]
    (trial,) = loads_run((results / f"{agent}.json").read_text()).trials
    return trial


def test_the_reference_on_a_machine_out_of_disk_is_excused_not_scored(small_tmp: Path, tmp_path: Path) -> None:
    filler = small_tmp / "filled-by-another-program"
    with filler.open("wb") as handle:  # NOTE: root's, in no trial folder: nothing a trial wrote
        handle.write(b"\0" * (63 * 1024 * 1024))
    trial = run_go_calc(small_tmp, tmp_path, "reference")
    assert trial.status == TrialStatus.INFRA_ERROR
    assert "out of disk" in (trial.error or "")
    assert trial.score is None


def test_an_agent_that_fills_the_disk_is_scored_not_excused(small_tmp: Path, tmp_path: Path) -> None:
    files = {p.name: p.read_text() for p in (CHALLENGES / "easy" / "go-calc" / "reference").iterdir()}
    files["__python__"] = ("f = open('junk.bin', 'wb')\ntry:\n    while True:\n"
                           "        f.write(b'x' * (1 << 20)); f.flush()\nexcept OSError:\n    pass\n")
    with defined({"disk-filler": files}):
        config = agent_config(tmp_path, ["disk-filler"])
    trial = run_go_calc(small_tmp, tmp_path, "disk-filler", "--agents-config", str(config))
    assert trial.status != TrialStatus.INFRA_ERROR, trial.error
    assert trial.score is not None
    assert trial.verified_score is not None and trial.verified_score.total == 0.0
