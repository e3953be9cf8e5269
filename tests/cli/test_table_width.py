"""Every table of the README's commands fits an 80-column terminal and keeps its identifiers whole.

Each command runs in a real pseudo-terminal of 80 columns (so the output is what a user sees), after
one real run of two agents on a tiny challenge.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from tests.conftest import make_tiny_challenge

COLUMNS = 80
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


def in_terminal(args: list[str], cwd: Path) -> list[str]:
    """Output lines of `agentbench ARGS` run in an 80-column pseudo-terminal."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, COLUMNS, 0, 0))
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.Popen([sys.executable, "-m", "agentbench", *args], cwd=cwd, stdin=slave,
                            stdout=slave, stderr=slave, env={**env, "TERM": "xterm"}, close_fds=True)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert proc.wait(timeout=300) == 0, b"".join(chunks).decode(errors="replace")[-2000:]
    text = ANSI.sub("", b"".join(chunks).decode("utf-8", errors="replace"))
    # a carriage return sends the cursor back: what follows the last one is what the line shows
    return [line.rsplit("\r", 1)[-1] for line in text.replace("\r\n", "\n").split("\n")]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    folder = tmp_path_factory.mktemp("widths")
    challenges = make_tiny_challenge(folder / "challenges")
    results = folder / "results"
    proc = subprocess.run(
        [sys.executable, "-m", "agentbench", "run", "--agent", "reference", "--agent", "noop",
         "--challenge", "easy/adder", "--challenges", str(challenges), "--results", str(results)],
        cwd=folder, capture_output=True, text=True, timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    (run_id,) = [p.parent.name for p in results.glob("*/run.json")]
    return results, run_id


COMMANDS = [
    ["list"],
    ["agents"],
    ["runs", "--results", "{results}"],
    ["show", "{run}", "--results", "{results}"],
    ["history", "noop", "--results", "{results}"],
    ["compare", "{results}/{run}/reference.json", "{results}/{run}/noop.json"],
    ["show", "latest", "--results", "{results}"],
    ["doctor", "--agent", "reference"],
    # last: a second run, whose isolation header and "replaced ..." lines must wrap too
    ["run", "--agent", "noop", "--challenge", "easy/adder", "--challenges", "{challenges}",
     "--results", "{results}"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_fits_80_columns_with_ids_whole(command: list[str], results: tuple[Path, str]) -> None:
    folder, run_id = results
    args = [part.format(results=folder, run=run_id, challenges=folder.parent / "challenges")
            for part in command]
    lines = in_terminal(args, folder.parent)
    too_wide = [line for line in lines if len(line.rstrip()) > COLUMNS]
    assert not too_wide, "\n".join(too_wide)
    text = "\n".join(lines)
    if command[0] in ("runs", "show", "history"):
        assert run_id in text or command[0] == "show", text
    if command[0] == "show":
        assert "reference/easy/adder/1" in text and "noop/easy/adder/1" in text, text
    if command[0] == "compare":
        assert re.search(r"\breference\b", text) and re.search(r"\bnoop\b", text), text
    if command[0] == "run":
        assert "isolation per trial" in text and f"replaced {folder / 'noop.json'}" in " ".join(text.split())
    if command[0] == "list":
        assert "easy/contacts-api" in text and "medium/bank-ledger" in text, text
