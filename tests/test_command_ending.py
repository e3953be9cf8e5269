"""Issue 22: the record says why each measuring command ended (`CommandResult.ending`), real processes."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from agentbench.models import CommandResult
from agentbench.sandbox import Confinement, Limits
from agentbench.toolchains import MeasureContext
from agentbench.toolchains.base import CommandSpec, run_command
from agentbench.workspace import make_trial_dirs


def _ctx(tmp_path: Path) -> MeasureContext:
    return MeasureContext(dirs=make_trial_dirs(tmp_path / "trial"), trial_dir=tmp_path / "t",
                          assets=tmp_path, command_timeout_s=20)


def _run(tmp_path: Path, code: str, **extra) -> CommandResult:
    spec = CommandSpec(command="python -c ...", env={"PATH": os.environ["PATH"]}, log_name="c",
                       argv=(sys.executable, "-c", code), **extra)
    return run_command(spec, _ctx(tmp_path), Confinement())


def test_an_exit_status_is_said(tmp_path):
    assert _run(tmp_path, "import sys; sys.exit(3)").ending == "exited with status 3"
    assert _run(tmp_path, "pass").ending == "exited with status 0"


def test_a_time_limit_is_said(tmp_path):
    result = _run(tmp_path, "import time; time.sleep(30)", timeout_s=0.5)
    assert result.timed_out and result.ending == "killed at its 0.5 s time limit"


def test_a_signal_is_named(tmp_path):
    result = _run(tmp_path, "import os, signal; os.kill(os.getpid(), signal.SIGKILL)")
    assert result.ending == "killed by signal SIGKILL"
    shell = run_command(CommandSpec(command="sh", env={"PATH": os.environ["PATH"]}, log_name="s",
                                    argv=("/bin/sh", "-c", f"{sys.executable} -c 'import os; os.abort()'")),
                        _ctx(tmp_path), Confinement())
    assert shell.ending == "exited with status 134 (a process it waited for was killed by signal SIGABRT)"


def test_a_failure_to_start_is_said(tmp_path):
    spec = CommandSpec(command="nowhere", env={"PATH": os.environ["PATH"]}, log_name="n",
                       argv=("/bin/true",), cwd=tmp_path / "no-such-folder")
    result = run_command(spec, _ctx(tmp_path), Confinement())
    assert result.ending.startswith("could not start: FileNotFoundError")


def test_the_output_cap_is_said(tmp_path):
    result = _run(tmp_path, "import sys; sys.stdout.write('x' * (21 * 1024 * 1024))")
    assert result.ending.startswith("exited with status 0; output cap hit (")


def test_a_limit_that_stopped_it_is_said(tmp_path):
    spec = CommandSpec(command="dd", env={"PATH": os.environ["PATH"]}, log_name="dd",
                       argv=("dd", "if=/dev/zero", f"of={tmp_path / 'big'}", "bs=1M", "count=3"))
    result = run_command(spec, _ctx(tmp_path), Confinement(limits=Limits(file_size_mb=1)))
    assert result.ending == ("killed by signal SIGXFSZ; limit: file size: a file went over the 1 MiB "
                             "limit (SIGXFSZ)")
