"""The bytecode the harness compiles for the hidden run's copy: always the source's code, never the agent's."""

from __future__ import annotations

import importlib.util
import os
import struct
import subprocess
import sys
from pathlib import Path

from agentbench.models import AcceptanceSpec
from agentbench.toolchains.python import PythonToolchain
from agentbench.toolchains.python.bytecode import MAX_FILE_BYTES, compile_modules

from .conftest import context

CHECKED_HASH = 0b11
"""PEP 552 flags of a checked-hash `.pyc`."""


def _value(folder: Path) -> str:
    result = subprocess.run([sys.executable, "-B", "-S", "-c", "import mod; print(mod.VALUE)"], cwd=folder,
                            capture_output=True, text=True, check=True, env={"PYTHONPATH": str(folder)})
    return result.stdout.strip()


def test_the_bytecode_is_checked_against_the_source_on_every_import(tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text("VALUE = 'aaa'\n", encoding="utf-8")
    assert compile_modules([source]) == 1
    cached = Path(importlib.util.cache_from_source(str(source), optimization=""))
    assert struct.unpack("<I", cached.read_bytes()[4:8])[0] == CHECKED_HASH
    assert _value(tmp_path) == "aaa"
    stat = source.stat()
    source.write_text("VALUE = 'bbb'\n", encoding="utf-8")  # same size, same time stamp
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert _value(tmp_path) == "bbb"


def test_large_or_broken_modules_are_left_to_the_processes(tmp_path: Path) -> None:
    broken, large = tmp_path / "broken.py", tmp_path / "large.py"
    broken.write_text("def f(:\n", encoding="utf-8")
    large.write_text("X = 1\n" * (MAX_FILE_BYTES // 6 + 1), encoding="utf-8")
    assert compile_modules([broken, large, tmp_path / "missing.py"]) == 0
    assert not (tmp_path / "__pycache__").exists() or not any((tmp_path / "__pycache__").iterdir())


GOOD = "def double(x):\n    return 2 * x\n"
STUB = "def double(x):\n    return 0 * x\n"
HIDDEN = "from pkg.core import double\n\n\ndef test_double():\n    assert double(21) == 42\n"


def test_bytecode_the_agent_planted_for_a_stub_is_never_run(tmp_path: Path, template: Path) -> None:
    """A stub whose `__pycache__` holds the bytecode of a working module, stamped to match the stub
    (its size and time): Python alone would run the planted bytecode; the hidden run runs the stub."""
    ctx = context(tmp_path, template, {"src/pkg/__init__.py": "", "src/pkg/core.py": STUB})
    core = ctx.dirs.workspace / "src" / "pkg" / "core.py"
    good = tmp_path / "good" / "core.py"
    good.parent.mkdir()
    good.write_text(GOOD, encoding="utf-8")
    compile_modules([good])
    planted = Path(importlib.util.cache_from_source(str(core), optimization=""))
    planted.parent.mkdir()
    data = Path(importlib.util.cache_from_source(str(good), optimization="")).read_bytes()
    stat = core.stat()
    planted.write_bytes(data[:4] + struct.pack("<III", 0, int(stat.st_mtime), stat.st_size) + data[16:])
    assert _planted_works(core.parent.parent)
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "test_core.py").write_text(HIDDEN, encoding="utf-8")
    run = PythonToolchain().run_hidden(AcceptanceSpec(files_dir=hidden), ctx, ctx.dirs.workspace)
    assert (run.measurement.tests.passed, run.measurement.tests.failed) == (0, 1)


def _planted_works(src: Path) -> bool:
    """Whether a plain interpreter would run the planted bytecode (the attack is real)."""
    result = subprocess.run([sys.executable, "-B", "-S", "-c", "from pkg.core import double; print(double(21))"],
                            cwd=src, capture_output=True, text=True, check=True, env={"PYTHONPATH": str(src)})
    return result.stdout.strip() == "42"


def test_the_template_s_shadow_modules_are_compiled_once(template: Path) -> None:
    """Every Python process of every trial imports the template's `sitecustomize`: it is compiled
    once, not in each of them (they write no bytecode)."""
    for name in ("sitecustomize", "usercustomize"):
        assert list((template / "__pycache__").glob(f"{name}.*.pyc"))
