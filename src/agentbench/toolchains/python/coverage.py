"""Line coverage of every product source file by the agent's tests, measured by coverage.py.

During the agent's test commands the probe starts coverage in the pytest process (the configuration
named by COVERAGE_PROCESS_START) as it loads, where and when the second collector (below) sees lines
in its run; no other process (a subprocess of the tests, `pip`) pays for a collector whose lines would
not count. It writes data into a folder the test processes may write.
The harness then copies the data files (regular files only) into a fresh folder of its own and
analyses them in-process with a configuration it builds itself (never a file the agent could edit):
every product file counts, imported or not, and exclusion pragmas are ignored (`# pragma: no cover`
earns nothing). A file coverage.py cannot parse counts with all its non-blank lines uncovered.

coverage.py's live data sits in the test processes, where product code can add lines through
coverage's public API, and its data folder is writable by them. So its claims are cross-checked: the
harness runs the test commands once more with coverage.py off and its probe's own line collector on
(a trace function in a randomly named module, reporting over the probe's channel), and a statement
counts as covered only when both saw it run. Lines forged into coverage.py's data, or data files
planted in its folder, earn nothing. (Lines run only in a subprocess of the tests are not seen by the
second collector and do not count: see docs/scoring-integrity.md.)

The data name the files of the workspace the tests ran in; they are mapped onto the snapshot's files
(coverage.py's `[paths]`), so the statements counted are the snapshot's, never a file the tests could
have rewritten. Data files are copied without following links, regular files only (`copy_regular`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agentbench.models import CoverageMeasurement
from agentbench.snapshot import copy_regular
from agentbench.toolchains.base import MeasureContext, SourceFiles, write_coverage_report

MAX_DATA_FILE_BYTES = 256 * 1024 * 1024
"""Coverage data files larger than this are not read."""
MAX_ANALYSED_BYTES = 4 * 1024 * 1024
"""A larger product file is not parsed (its syntax tree would take the harness gigabytes): every
non-blank line of it counts as an uncovered statement."""
MAX_DATA_FILES = 2000
"""Data files read (the rest, in name order, are not)."""


def coverage_config(work: Path, workspace: Path) -> Path:
    """Write the configuration the agent's test processes start coverage with; return its path."""
    data_dir = work / "coverage"
    data_dir.mkdir(exist_ok=True)
    rc = work / "coveragerc"
    rc.write_text(
        "[run]\nparallel = true\n"
        f"data_file = {data_dir / '.coverage'}\n"
        f"source =\n    {workspace.resolve()}\n",
        encoding="utf-8",
    )
    return rc


def measure_coverage(data_dir: Path | None, sources: SourceFiles, ctx: MeasureContext,
                     confirmed: Mapping[str, frozenset[int]] | None = None) -> CoverageMeasurement:
    """Covered / total statements over every product file (see the module docstring); with
    `confirmed` (resolved path where the tests ran -> lines the second collector saw), a statement is
    covered only when both collectors saw it run."""
    import coverage

    files = _copy_data(data_dir, ctx.private_dir("coverage")) if data_dir else []
    cov = _coverage()
    root, product = sources.root or ctx.dirs.workspace, sources.product
    ran = ctx.dirs.workspace
    cov.set_option("paths", {"snapshot": [str(root), str(ran), os.path.realpath(ran)]})
    problem = None
    try:
        cov.combine([str(f) for f in files], strict=True, keep=True)
    except coverage.CoverageException as exc:
        problem = f"no coverage data: {exc}"
        cov.get_data()
    second = _second(confirmed, sources, ran, ctx) if confirmed is not None else None
    per_file = {str(path.relative_to(root)): _both(cov, second, path) for path in product}
    covered = sum(c for c, _ in per_file.values())
    total = sum(t for _, t in per_file.values())
    _write_report(ctx, per_file, problem)
    return CoverageMeasurement(covered_lines=covered, total_lines=total, files=len(per_file),
                               problem=problem if not covered else None)


def _copy_data(data_dir: Path, dest: Path) -> list[Path]:
    copied: list[Path] = []
    try:
        entries = sorted(data_dir.iterdir()) if data_dir.is_dir() and not data_dir.is_symlink() else []
    except OSError:
        entries = []
    for entry in entries[:MAX_DATA_FILES]:
        target = dest / f"data-{len(copied)}"
        if entry.name.startswith(".coverage") and copy_regular(entry, target, MAX_DATA_FILE_BYTES):
            copied.append(target)
    return copied


def _coverage(data_file: Path | None = None) -> Any:
    """A coverage.py object of the harness's own configuration (no pragma excludes anything)."""
    import coverage

    cov = coverage.Coverage(data_file=str(data_file) if data_file else None, config_file=False)
    cov.set_option("report:exclude_lines", [])
    cov.set_option("report:exclude_also", [])
    return cov


def _second(confirmed: Mapping[str, frozenset[int]], sources: SourceFiles, ran: Path,
            ctx: MeasureContext) -> Any:
    """A coverage.py object holding the second collector's lines, keyed by the snapshot's files (so
    coverage.py maps a line inside a multi-line statement to the statement exactly as it does for its
    own data). The collector saw the files where the tests ran (`ran`)."""
    from coverage import CoverageData

    root = sources.root or ran
    data_file = ctx.private_dir("coverage-confirmed") / "data"
    data = CoverageData(basename=str(data_file))
    lines = {str(p): sorted(confirmed.get(os.path.realpath(ran / p.relative_to(root)), ()))
             for p in sources.product}
    data.add_lines({name: found for name, found in lines.items() if found})
    data.write()
    cov = _coverage(data_file)
    cov.load()
    return cov


def _both(cov: Any, second: Any, path: Path) -> tuple[int, int]:
    """(covered, statements) of one file: covered by coverage.py's data (and the second collector's,
    when there is one)."""
    executed, statements = _analyse(cov, path)
    if second is not None:
        executed &= _analyse(second, path)[0]
    return len(executed), statements


def _analyse(cov: Any, path: Path) -> tuple[set[int], int]:
    """(executed statements, statements) of one file; unparsable files count every non-blank line
    as missed."""
    import coverage

    try:
        if path.stat().st_size > MAX_ANALYSED_BYTES:  # NOTE: parsing it would take gigabytes
            raise ValueError("too large to parse")
        _, statements, _, missing, _ = cov.analysis2(str(path))
    except (coverage.CoverageException, SyntaxError, ValueError, RecursionError, MemoryError, OSError):
        try:
            lines = path.read_bytes().splitlines()
        except OSError:
            return set(), 0
        return set(), sum(1 for line in lines if line.strip())
    return set(statements) - set(missing), len(statements)


def _write_report(ctx: MeasureContext, per_file: dict[str, tuple[int, int]], problem: str | None) -> None:
    write_coverage_report(ctx, per_file, problem, unit="statements")
