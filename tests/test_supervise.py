"""The per-command supervisor is invisible to what the harness reads: exit codes (of commands that
end at once too), deaths by signal, start errors, inherited descriptors and standard input."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

from agentbench import process, supervise

ENV = {"PATH": os.environ["PATH"]}


def run(tmp_path: Path, argv: list[str], **kwargs) -> process.ProcessResult:
    return process.run(argv, cwd=tmp_path, env=ENV, timeout_s=30, stdout_path=tmp_path / "o",
                       stderr_path=tmp_path / "e", **kwargs)


def test_commands_that_end_at_once_keep_their_exit_code(tmp_path: Path):
    """A child that exits before the supervisor waits for it is still its to reap (not Popen's)."""
    codes = [run(tmp_path, ["/bin/sh", "-c", f"exit {n % 4 + 3}"]).returncode for n in range(30)]
    assert codes == [n % 4 + 3 for n in range(30)]


def test_a_death_by_signal_is_passed_on(tmp_path: Path):
    for sig in (signal.SIGKILL, signal.SIGSEGV, signal.SIGXFSZ):
        result = run(tmp_path, ["/bin/sh", "-c", f"kill -{int(sig)} $$"])
        assert result.returncode == -sig
    assert not list(tmp_path.glob("core*"))


def test_a_missing_executable_is_a_start_error_as_before(tmp_path: Path):
    result = run(tmp_path, [str(tmp_path / "nowhere")])
    assert result.returncode is None and result.start_error and "FileNotFoundError" in result.start_error


def test_descriptors_and_stdin_reach_the_command_but_not_the_status_pipe(tmp_path: Path):
    (tmp_path / "in").write_text("from stdin\n")
    read, write = os.pipe()
    try:
        code = ("import os, sys; os.write(int(sys.argv[1]), b'through'); print(sys.stdin.read().strip()); "
                "print(sorted(int(f) for f in os.listdir('/proc/self/fd')))")
        result = run(tmp_path, [sys.executable, "-c", code, str(write)], stdin_path=tmp_path / "in",
                     pass_fds=(write,))
    finally:
        os.close(write)
    assert result.returncode == 0, (tmp_path / "e").read_text()
    assert os.read(read, 100) == b"through"
    os.close(read)
    lines = (tmp_path / "o").read_text().splitlines()
    assert lines[0] == "from stdin"
    assert set(json.loads(lines[1])) - {0, 1, 2, write} <= {3}  # 3: listdir's own


def test_the_command_is_tagged_and_its_supervisor_is_not(tmp_path: Path):
    code = ("import os, resource; print(resource.getrlimit(10)[1]); "
            "print(open(f'/proc/{os.getppid()}/limits').read())")
    result = run(tmp_path, [sys.executable, "-c", code])
    out = (tmp_path / "o").read_text()
    assert result.returncode == 0 and int(out.split()[0]) == supervise.TAG
    assert "Max file locks            unlimited            unlimited" in out


def test_a_tagged_process_outside_any_supervisor_is_killed_with_or_without_pidfds(monkeypatch):
    """The escapee rule on its own: a tagged process whose parent (this test) is not a supervisor."""
    import errno
    import subprocess
    import time

    def refused(pid: int) -> int:
        raise OSError(errno.EPERM, "pidfd_open refused (seccomp)")

    for patched in (False, True):
        if patched:
            monkeypatch.setattr(supervise.os, "pidfd_open", refused)
        sleeper = subprocess.Popen(["prlimit", "--locks=7:7", "sleep", "30"])
        try:
            deadline = time.monotonic() + 10
            while supervise.tag_of(sleeper.pid) != 7 and time.monotonic() < deadline:
                time.sleep(0.02)
            assert sleeper.pid in supervise.escapees()
            assert supervise.kill_escapees(seconds=5) >= 1
            assert sleeper.wait(timeout=10) == -signal.SIGKILL
        finally:
            sleeper.kill()
            sleeper.wait()
