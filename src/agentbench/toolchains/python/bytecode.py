"""Bytecode the harness compiles itself, for a fresh copy of the agent's project the hidden tests run on.

Every Python process of a hidden-test run (pytest, and each `python -m <product>` a test starts:
about 26 on easy/password-gen once the canary twins run too) would otherwise compile the product's
modules again: the copy holds no `__pycache__` (the agent's folders of that name are never copied,
`workspace.SKIPPED_DIRS`) and the runs write none (PYTHONDONTWRITEBYTECODE). So before the run the
harness compiles each product module of the copy once, in its own process, from the copy's own text,
into the copy's `__pycache__`. Bytecode the agent wrote is never used: only the harness writes there,
before any product code runs, and the folder is the harness's (readable, not writable, by the run).

The files are checked-hash `.pyc` files (PEP 552): each import still reads the source and compares
its hash, so what runs is always exactly the source's code, as without them. Nothing is compiled when
the trial environments' interpreter is of another Python series than AgentBench's own (its bytecode
format differs; those processes compile as before), and files too large or not compilable are left
to the processes too (their errors are theirs to report).
"""

from __future__ import annotations

import importlib.util
import py_compile
import sys
from collections.abc import Iterable
from pathlib import Path

from agentbench.toolchains.python.interpreter import base_python

MAX_FILE_BYTES = 1024 * 1024
"""A larger module is not compiled by the harness (a file that size is not hand-written code)."""
MAX_TOTAL_BYTES = 8 * 1024 * 1024
"""The harness compiles at most this much source per run (the rest compiles in the processes)."""


def same_series() -> bool:
    """Whether the trial environments' interpreter reads the bytecode AgentBench's own writes."""
    version = tuple(int(part) for part in base_python().version.split(".")[:2])
    return sys.implementation.name == "cpython" and version == sys.version_info[:2]


def compile_modules(files: Iterable[Path]) -> int:
    """Compile each of `files` (fresh harness copies) into its `__pycache__`; return how many were."""
    if not same_series():
        return 0
    done, budget = 0, MAX_TOTAL_BYTES
    for path in files:
        try:
            size = path.stat().st_size
            if size > MAX_FILE_BYTES or size > budget:
                continue
            budget -= size
            py_compile.compile(str(path), cfile=importlib.util.cache_from_source(str(path), optimization=""),
                               doraise=True, optimize=0,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
        except (py_compile.PyCompileError, SyntaxError, ValueError, RecursionError, MemoryError, OSError):
            continue
        done += 1
    return done
