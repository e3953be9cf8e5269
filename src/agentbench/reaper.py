"""The run's watchdog (`python -m agentbench.reaper MARKER`), started by `process.RunGuard`.

It reads the harness's announcements on standard input (`tree PGID CGROUP...`, `done PGID`) until
end-of-file, which comes when the harness ends in any way, SIGKILL included; then it kills whatever
of the run is left (see `process.reap`), and any command's escapees (tagged processes whose
supervisor is gone, see `supervise.escapees`), and exits. It ignores the terminal's signals: Ctrl-C and a
hang-up are the harness's to handle, and the watchdog must outlive the harness to sweep after it.
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path
from typing import BinaryIO

from agentbench.process import reap


def read_trees(stream: BinaryIO) -> dict[int, tuple[Path, ...]]:
    """The trees announced and not yet over when `stream` ends."""
    trees: dict[int, tuple[Path, ...]] = {}
    for raw in stream:
        words = raw.decode(errors="surrogateescape").split()
        try:
            if words[:1] == ["tree"]:
                trees[int(words[1])] = tuple(Path(w) for w in words[2:])
            elif words[:1] == ["done"]:
                trees.pop(int(words[1]), None)
        except (IndexError, ValueError):
            continue
    return trees


def main() -> None:
    """Wait for the harness to go, then sweep."""
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)
    marker = sys.argv[1] if len(sys.argv) > 1 else ""
    trees = read_trees(sys.stdin.buffer)
    if marker:
        reap(marker, trees)


if __name__ == "__main__":
    main()
