"""A FIFO, socket or link an agent leaves in a brownfield workspace's `.git` never stalls the harness
(`starting.git_dir_changes` reads the live `.git` after the agent): it is noted, never opened to block."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path


def test_special_files_in_git_are_noted_without_blocking(tmp_path: Path):
    pristine, live = tmp_path / "pristine", tmp_path / "live"
    for root in (pristine, live):
        (root / ".git").mkdir(parents=True)
        (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    os.mkfifo(live / ".git" / "fifo")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(live / ".git" / "sock"))
    (live / ".git" / "zero").symlink_to("/dev/zero")
    code = textwrap.dedent(f"""
        from pathlib import Path
        from agentbench.starting import git_dir_changes
        print(git_dir_changes(Path({str(live)!r}), Path({str(pristine)!r})))
        """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0, proc.stderr
    for name in ("fifo", "sock", "zero"):
        assert f".git/{name} (added)" in proc.stdout
