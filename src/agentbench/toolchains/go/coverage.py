"""Statement coverage of every product Go file by the agent's tests, from `go test -coverprofile`.

The harness adds `-coverpkg=./...` to every `go test` command, so each package of the module is
instrumented in every test binary, and gets each binary's coverage data through its own `-exec`
program over a channel, never from a file the go command or a binary could write where the harness
reads (`collect.py`); it makes the one profile read here itself, in a folder of its own.
A block counts its statements, covered when any
test binary ran it; a block that does not lie inside its file's lines, or claims more statements
than its lines hold, is not a statement that exists and is dropped. A product file no profile mentions (never compiled into a test binary,
e.g. excluded by a build constraint) counts every non-blank, non-comment line as one uncovered
statement. There is nothing like a pragma to exclude code. Profiles are read as regular files only
(`read_regular`); the module path and the source lines are the snapshot's (`SourceFiles.root`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from agentbench.models import CoverageMeasurement
from agentbench.snapshot import read_regular
from agentbench.toolchains.base import MeasureContext, SourceFiles, write_coverage_report
from agentbench.toolchains.go.sources import module_path

_BLOCK = re.compile(r"^(.+\.go):(\d+)\.(\d+),(\d+)\.(\d+) (\d+) (\d+)$")
MAX_PROFILE_BYTES = 256 * 1024 * 1024


def measure_coverage(profiles: Iterable[Path], sources: SourceFiles, ctx: MeasureContext) -> CoverageMeasurement:
    """Covered / total statements over every product file (see the module docstring)."""
    root = sources.root or ctx.dirs.workspace
    blocks = _existing(_blocks(profiles, module_path(root)), root)
    per_file: dict[str, tuple[int, int]] = {}
    for path in sources.product:
        rel = str(path.relative_to(root))
        mine = blocks.get(rel)
        if mine is None:
            per_file[rel] = (0, _code_lines(path))
        else:
            per_file[rel] = (sum(s for s, hit in mine.values() if hit), sum(s for s, _ in mine.values()))
    covered = sum(c for c, _ in per_file.values())
    problem = None if blocks else "no coverage profile: no go test command wrote one"
    _write_report(ctx, per_file, problem)
    return CoverageMeasurement(covered_lines=covered, total_lines=sum(t for _, t in per_file.values()),
                               files=len(per_file), problem=problem if not covered else None)


def expected_profiles(names: Path) -> list[Path]:
    """The profiles the harness listed in `names` (the one it made from the channel's data)."""
    try:
        return [Path(line) for line in names.read_text(encoding="utf-8").splitlines() if line]
    except OSError:
        return []


def _blocks(profiles: Iterable[Path], module: str | None) -> dict[str, dict[str, tuple[int, bool]]]:
    """Per file (relative to the module root): block -> (statements, covered)."""
    found: dict[str, dict[str, tuple[int, bool]]] = {}
    for profile in profiles:
        for line in _lines(profile):
            match = _BLOCK.match(line)
            if match is None or module is None or not match.group(1).startswith(module + "/"):
                continue
            rel = match.group(1)[len(module) + 1:]
            key = ",".join(match.group(2, 3, 4, 5))
            statements, hit = int(match.group(6)), int(match.group(7)) > 0
            old = found.setdefault(rel, {}).get(key, (statements, False))
            found[rel][key] = (statements, old[1] or hit)
    return found


def _existing(blocks: dict[str, dict[str, tuple[int, bool]]],
              workspace: Path) -> dict[str, dict[str, tuple[int, bool]]]:
    """Only blocks inside their file's lines, claiming no more statements than those lines hold."""
    kept: dict[str, dict[str, tuple[int, bool]]] = {}
    for rel, found in blocks.items():
        try:
            lines = (workspace / rel).read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            continue
        for key, (statements, hit) in found.items():
            start, _, end, _ = (int(n) for n in key.split(","))
            code = sum(1 for line in lines[start - 1:end] if line.strip())
            if 1 <= start <= end <= len(lines) and 0 <= statements <= max(code, 1):
                kept.setdefault(rel, {})[key] = (statements, hit)
    return kept


def _lines(profile: Path) -> list[str]:
    data = read_regular(profile, MAX_PROFILE_BYTES)
    return data.decode("utf-8", errors="replace").splitlines() if data is not None else []


def _code_lines(path: Path) -> int:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return 0
    return sum(1 for line in lines if line.strip() and not line.strip().startswith("//"))


def _write_report(ctx: MeasureContext, per_file: dict[str, tuple[int, int]], problem: str | None) -> None:
    write_coverage_report(ctx, per_file, problem, unit="statements")
