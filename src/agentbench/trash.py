"""A trial's folders are removed off the trial's clock: renamed into a harness trash, deleted behind.

Deleting what an agent left (110,000 files, say) takes minutes. Done at the end of the trial, it
counted in the trial's duration and held the worker from the next trial. `trial_folder` instead gives
a fresh private folder and, when the trial is done with it, renames it into the harness's trash
folder (one `rename`, instant) and hands it to one background deleter thread per process.

A run that is killed (or ends before the deleter is through) leaves its trash behind; the first
`trial_folder` of the next AgentBench process sweeps it, and also every trial folder of a harness
process that is no longer alive (`agentbench-trial-<pid>-*`), before anything else is deleted.

The trash is private: a real folder (never a link) owned by AgentBench's user, mode 0700, checked
before every use, so a trial's user that made `/tmp/agentbench-trash` first gets nothing renamed into
its folder (then a fresh private trash of a random name is used).
"""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import shutil
import stat
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

TRASH_NAME = "agentbench-trash"
"""The trash's name in the temporary folder (or `agentbench-trash-<random>` when that one is not ours)."""

EXIT_WAIT_SECONDS = 20.0
"""How long a finishing AgentBench process waits for the deleter (the rest goes at the next start)."""

_lock = threading.Lock()
_state: dict[str, object] = {}


@contextlib.contextmanager
def trial_folder(prefix: str, base: Path | None = None) -> Iterator[Path]:
    """A fresh private folder `<base>/<prefix><pid>-<random>` (base: the temporary folder), moved to
    the trash and deleted in the background once the block ends."""
    base = base or Path(tempfile.gettempdir())
    _start(base)
    folder = Path(tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=base))
    try:
        yield folder
    finally:
        discard(folder)


def discard(folder: Path) -> None:
    """Rename `folder` into the trash (same file system) and delete it in the background; where it
    cannot be renamed, delete it now."""
    trash = _trash(folder.parent)
    target = trash / folder.name if trash is not None else None
    try:
        if target is None:
            raise OSError("no private trash folder")
        folder.rename(target)
    except OSError:
        remove_tree(folder)
        return
    _queue().put(target)


def remove_tree(path: Path) -> None:
    """Delete `path` whatever its modes (a folder of mode 000 left by an agent included)."""
    def retry(function: object, name: str, _: object) -> None:
        with contextlib.suppress(OSError):
            os.chmod(os.path.dirname(name), stat.S_IRWXU)
            if os.path.isdir(name) and not os.path.islink(name):
                os.chmod(name, stat.S_IRWXU)
                shutil.rmtree(name, ignore_errors=True)
            else:
                os.unlink(name)

    if path.is_symlink() or not path.is_dir():
        with contextlib.suppress(OSError):
            path.unlink()
        return
    shutil.rmtree(path, onerror=retry)


def drain(timeout_s: float) -> bool:
    """Wait up to `timeout_s` for the deleter to empty its queue; whether it did."""
    pending = _state.get("queue")
    if not isinstance(pending, queue.Queue):
        return True
    done = threading.Event()
    pending.put(done)
    return done.wait(timeout_s)


def _trash(base: Path) -> Path | None:
    """The private trash folder in `base` (made when missing), None when none can be had."""
    key = f"trash:{base}"
    with _lock:
        found = _state.get(key)
        if isinstance(found, Path) and _private(found):
            return found
        candidate = base / TRASH_NAME
        with contextlib.suppress(FileExistsError):
            candidate.mkdir(mode=0o700)
        if not _private(candidate):
            try:
                candidate = Path(tempfile.mkdtemp(prefix=f"{TRASH_NAME}-", dir=base))
            except OSError:
                return None
        _state[key] = candidate
        return candidate


def _private(folder: Path) -> bool:
    try:
        info = folder.lstat()
    except OSError:
        return False
    return (stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()
            and stat.S_IMODE(info.st_mode) == 0o700)


def _start(base: Path) -> None:
    """Start the deleter (once per process) and sweep what earlier processes left in `base`."""
    with _lock:
        swept = _state.setdefault("swept", set())
        first = isinstance(swept, set) and str(base) not in swept
        if first and isinstance(swept, set):
            swept.add(str(base))
    if first:
        for leftover in _leftovers(base):
            _queue().put(leftover)


def _leftovers(base: Path) -> list[Path]:
    """Trash of earlier processes, and trial folders of harness processes no longer alive."""
    found: list[Path] = []
    with contextlib.suppress(OSError):
        for entry in base.iterdir():
            if entry.name.startswith(TRASH_NAME) and _private(entry):
                found.extend(_entries(entry))
            elif _orphan(entry):
                trash = _trash(base)
                with contextlib.suppress(OSError):
                    if trash is not None:
                        entry.rename(trash / entry.name)
                        found.append(trash / entry.name)
    return found


def _entries(folder: Path) -> list[Path]:
    try:
        return list(folder.iterdir())
    except OSError:
        return []


FOLDER_PREFIXES = ("agentbench-trial-", "agentbench-reference-check-", "agentbench-regrade-")
"""The prefixes of the folders `trial_folder` makes (swept when their process is gone)."""


def _orphan(entry: Path) -> bool:
    """A folder `trial_folder` made (`<prefix><pid>-<random>`, ours, a real folder) whose harness
    process is gone."""
    prefix = next((p for p in FOLDER_PREFIXES if entry.name.startswith(p)), None)
    pid_text, dash, _ = entry.name[len(prefix):].partition("-") if prefix else ("", "", "")
    if not dash or not pid_text.isdigit() or int(pid_text) == os.getpid():
        return False
    try:
        info = entry.lstat()
    except OSError:
        return False
    ours = stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()
    return ours and not Path(f"/proc/{pid_text}").exists()


def _queue() -> queue.Queue[Path | threading.Event]:
    with _lock:
        pending = _state.get("queue")
        if not isinstance(pending, queue.Queue):
            pending = queue.Queue()
            _state["queue"] = pending
            threading.Thread(target=_delete_forever, args=(pending,), name="agentbench-trash",
                             daemon=True).start()
            atexit.register(drain, EXIT_WAIT_SECONDS)
        return pending


def _delete_forever(pending: queue.Queue[Path | threading.Event]) -> None:
    while True:
        item = pending.get()
        if isinstance(item, threading.Event):
            item.set()
        else:
            with contextlib.suppress(OSError):
                remove_tree(item)
