"""The snapshot: regular files only, bounded, everything left out recorded (no subprocess needed)."""

from __future__ import annotations

import os
import socket
import time
from pathlib import Path

from agentbench.snapshot import SnapshotLimits, copy_regular, read_regular, take_snapshot


def _workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    (ws / "src" / "pkg").mkdir(parents=True)
    (ws / "src" / "pkg" / "a.py").write_text("x = 1\n")
    (ws / "run.sh").write_text("#!/bin/sh\n")
    (ws / "run.sh").chmod(0o755)
    (ws / ".venv" / "lib").mkdir(parents=True)
    (ws / ".venv" / "lib" / "big.py").write_text("y\n")
    return ws


def test_regular_files_are_copied_and_special_files_recorded(tmp_path):
    ws = _workspace(tmp_path)
    os.mkfifo(ws / "src" / "pkg" / "pipe.py")
    os.symlink("/dev/zero", ws / "src" / "pkg" / "zero.py")
    os.symlink("a.py", ws / "src" / "pkg" / "inside.py")
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind(str(ws / "sock"))
        snap = take_snapshot(ws, tmp_path / "snap")
    root = snap.root
    assert (root / "src" / "pkg" / "a.py").read_text() == "x = 1\n"
    assert os.access(root / "run.sh", os.X_OK)
    assert sorted(p.name for p in root.rglob("*")) == ["a.py", "pkg", "run.sh", "src"]
    kinds = {(s.kind, s.path) for s in snap.skipped}
    assert {("fifo", "src/pkg/pipe.py"), ("symlink", "src/pkg/zero.py"), ("socket", "sock"),
            ("symlink", "src/pkg/inside.py")} <= kinds
    assert "src/pkg/zero.py -> /dev/zero" in snap.links
    assert (root.stat().st_mode & 0o777) == 0o700 and snap.files == 2


def test_limits_cut_and_say_so(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    for i in range(30):
        (ws / f"z{i:02d}.txt").write_text("x")
    with open(ws / "sparse.bin", "wb") as f:
        f.truncate(2 * 1024 ** 3)
    deep = ws
    for _ in range(6):
        deep = deep / "d"
    deep.mkdir(parents=True)
    long = ws / ("n" * 200) / ("n" * 200)
    long.mkdir(parents=True)
    (long / "f.txt").write_text("x")
    limits = SnapshotLimits(files=10, depth=4, path_bytes=300, file_bytes=1024 * 1024)
    start = time.monotonic()
    snap = take_snapshot(ws, tmp_path / "snap", limits)
    assert time.monotonic() - start < 5
    text = "\n".join(snap.notes())
    assert snap.files == 10 and "over 10 files" in text  # 1 in the long path, 9 of the z files
    assert "sparse" in text and "too large sparse.bin" in text
    assert "too deep d/d/d/d/d" in text and "path too long" in text
    assert sum(1 for p in snap.root.rglob("*") if p.is_file()) == 10


def test_the_walk_has_a_time_limit(tmp_path):
    ws = tmp_path / "ws"
    ws.mkdir()
    for i in range(50):
        (ws / f"f{i}").write_text("x")
    snap = take_snapshot(ws, tmp_path / "snap", SnapshotLimits(seconds=0.0))
    assert snap.files == 0 and any("the walk took over" in n for n in snap.notes())


def test_defensive_reads_refuse_fifos_links_and_large_files(tmp_path):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    os.symlink("/dev/zero", tmp_path / "zero")
    (tmp_path / "ok").write_bytes(b"abc")
    assert read_regular(fifo, 100) is None and read_regular(tmp_path / "zero", 100) is None
    assert read_regular(tmp_path / "ok", 2) is None and read_regular(tmp_path / "ok", 3) == b"abc"
    assert copy_regular(tmp_path / "ok", tmp_path / "copy", 10) and (tmp_path / "copy").read_bytes() == b"abc"
    assert not copy_regular(fifo, tmp_path / "copy2", 10) and not (tmp_path / "copy2").exists()


def test_a_huge_folder_is_listed_only_up_to_the_entry_limit_and_names_are_capped(tmp_path):
    ws = tmp_path / "ws"
    (ws / "big").mkdir(parents=True)
    for i in range(300):
        os.mkfifo(ws / "big" / f"p{i:03d}")
    snap = take_snapshot(ws, tmp_path / "snap", SnapshotLimits(entries=100, recorded=10))
    notes = snap.notes()
    assert len(notes) <= 13 and snap.files == 0
    assert any("a folder of over 100 entries" in n or "more entries skipped" in n for n in notes)
    assert notes[-1].startswith("snapshot: limit .:")
