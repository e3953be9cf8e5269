"""AgentBench's `go test -exec` program: runs one test binary and sends its coverage to the harness.

The go command starts it as `python3 -I -S <this file> <test binary> <args...>` for every test binary,
before the binary (the only process running the project's code) exists. It makes itself undumpable
(so the binary, same user, can neither ptrace it nor read its memory or descriptors through /proc),
reads the channel's descriptor and the run's secret from the key pipe (see channel.py) and closes
it, then runs the binary with no descriptor but stdio, in its own process group, with
`-test.gocoverdir` set to a fresh folder. Once the binary exited, every process left in its group is
killed and the folder is read: exactly one meta-data file and one counters file, both regular, or
the binary's coverage is void. Their bytes go to the harness over the channel with the secret; the
harness turns them into a profile itself. No profile the go command holds is read by anyone.
"""

import base64
import contextlib
import ctypes
import json
import os
import re
import signal
import stat
import subprocess  # noqa: TID251 (runs standalone, under the system's Python: no agentbench)
import sys
import tempfile
from typing import Any

KEY_RECORD_BYTES = 256
MAX_FILE_BYTES = 64 * 1024 * 1024
PR_SET_DUMPABLE = 4
META = re.compile(r"^covmeta\.[0-9a-f]{32}$")
COUNTERS = re.compile(r"^covcounters\.[0-9a-f]{32}\.\d+\.\d+$")


def undumpable() -> None:
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def fifo(fd: int, inode: object) -> bool:
    try:
        info = os.fstat(fd)
    except OSError:
        return False
    return stat.S_ISFIFO(info.st_mode) and str(info.st_ino) == str(inode)


def read_key(value: str) -> dict[str, Any] | None:
    parts = value.split(":")
    if len(parts) != 2 or not parts[0].isdigit() or not fifo(int(parts[0]), parts[1]):
        return None
    try:
        record = os.read(int(parts[0]), KEY_RECORD_BYTES)
        os.close(int(parts[0]))
        key = json.loads(record)
    except (OSError, ValueError):
        return None
    if not isinstance(key, dict) or not fifo(int(key.get("fd", -1)), key.get("inode")):
        return None
    return dict(key)


def send(key: dict[str, Any], event: dict[str, Any]) -> None:
    data = (json.dumps({**event, "nonce": key["nonce"]}) + "\n").encode()
    while data:
        data = data[os.write(int(key["fd"]), data):]


def run(argv: list[str], folder: str) -> int:
    args = [a for a in argv[1:] if not a.startswith(("-test.gocoverdir=", "-test.gocoverdir"))]
    proc = subprocess.Popen([argv[0], f"-test.gocoverdir={folder}", *args], close_fds=True,
                            start_new_session=True)
    try:
        code = proc.wait()
    except KeyboardInterrupt:
        code = proc.wait()
    with contextlib.suppress(OSError):
        os.killpg(proc.pid, signal.SIGKILL)
    return code


def read_regular(path: str) -> bytes | None:
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_nlink != 1 or info.st_size > MAX_FILE_BYTES:
            return None
        chunks: list[bytes] = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def collected(folder: str) -> dict[str, Any]:
    names = sorted(os.listdir(folder))
    metas = [n for n in names if META.match(n)]
    counters = [n for n in names if COUNTERS.match(n)]
    if len(names) != 2 or len(metas) != 1 or len(counters) != 1:
        return {"e": "void", "reason": f"the coverage folder held {len(names)} file(s), not one meta-data "
                                       "and one counters file"}
    files: dict[str, str] = {}
    for name in names:
        data = read_regular(os.path.join(folder, name))
        if data is None:
            return {"e": "void", "reason": f"{name} is not a regular file of its own"}
        files[name] = base64.b64encode(data).decode()
    return {"e": "cover", "files": files}


def main() -> int:
    undumpable()
    key = read_key(os.environ.pop("AGENTBENCH_GOCOVER_KEY", ""))
    argv = sys.argv[1:]
    if not argv:
        return 2
    folder = tempfile.mkdtemp(prefix="agentbench-gocover-")
    code = run(argv, folder)
    if key is not None:
        with contextlib.suppress(OSError):
            send(key, {"binary": os.path.basename(argv[0]), **collected(folder)})
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    sys.exit(main())
