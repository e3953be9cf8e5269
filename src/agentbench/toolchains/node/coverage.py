"""Line coverage of every product JS/TS file by the agent's tests, from Node's own V8 coverage.

While the agent's test commands run, NODE_V8_COVERAGE makes every Node process of the trial write
its V8 coverage (JSON) into a folder those processes may write. The harness then copies the data
files (regular files only) into a fresh folder of its own and works the figures out itself: a
product line counts when it holds code once TypeScript types are stripped (`js/lines.mjs`: types and
comments do not count), and it is covered when the innermost V8 range around its first character ran
in some process. Every product file counts, loaded or not; a file no process loaded is 0% covered.
There is nothing like a pragma to exclude code.
The data name the files of the workspace the tests ran in; each is mapped onto the snapshot's file of
the same relative path, and the countable lines are worked out on a fresh copy of the snapshot's
files: nothing the tests could have rewritten is read. Data files are copied regular files only.

Those data are claims of the test processes themselves (a test can plant a file in the folder), so
they are cross-checked (`confirm.py`): a line counts as covered only when the harness's own collector,
in a second run of the `node --test` commands, also saw it run, in a script whose compiled source is
the snapshot's file (its SHA-256 once types are stripped). A script named like a product file but
compiled from other text (`vm` with that file name, a loader hook) confirms nothing.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from agentbench.models import CoverageMeasurement
from agentbench.snapshot import copy_regular
from agentbench.toolchains.base import (
    CommandSpec,
    MeasureContext,
    SourceFiles,
    read_log,
    run_command,
    write_coverage_report,
)
from agentbench.toolchains.node.confirm import Confirmed
from agentbench.toolchains.node.tools import NodeTools, command_env

LINES_SCRIPT = Path(__file__).parent / "js" / "lines.mjs"
MAX_DATA_FILE_BYTES = 256 * 1024 * 1024
MAX_DATA_FILES = 2000

Range = tuple[int, int, int]


def measure_coverage(data_dir: Path | None, sources: SourceFiles, ctx: MeasureContext,
                     tools: NodeTools, confirmed: Confirmed | None = None,
                     groundwork: Path | None = None) -> CoverageMeasurement:
    """Covered / countable lines over every product file (see the module docstring); with
    `confirmed` (the second collector's scripts), a line is covered only when both saw it run; with
    `groundwork` (`countable_lines_file` of the same files, worked out earlier), the countable lines
    are read from there."""
    root, product = sources.root or ctx.dirs.workspace, sources.product
    names = {str(p): p.relative_to(root) for p in product}
    ranges = _ranges(_copy_data(data_dir, ctx.private_dir("coverage")) if data_dir else [],
                     names, ctx.dirs.workspace)
    lines = _load_lines(groundwork, names) if groundwork else None
    if lines is None:
        lines = _countable_lines(product, root, ctx, tools)
    per_file: dict[str, tuple[int, int]] = {}
    for path in product:
        counted = lines.get(str(path))
        if counted is None:
            per_file[str(names[str(path)])] = (0, _non_blank(path))
            continue
        offsets, digest = counted
        second = None if confirmed is None else _confirming(
            confirmed, os.path.realpath(ctx.dirs.workspace / names[str(path)]), digest)
        covered = sum(1 for _, offset in offsets if _covered(offset, ranges.get(str(path), []))
                      and (second is None or _covered(offset, second)))
        per_file[str(names[str(path)])] = (covered, len(offsets))
    covered_lines = sum(c for c, _ in per_file.values())
    problem = None if ranges else "no coverage data: no Node process of the tests wrote any"
    _write_report(ctx, per_file, problem)
    return CoverageMeasurement(covered_lines=covered_lines, total_lines=sum(t for _, t in per_file.values()),
                               files=len(per_file), problem=problem if not covered_lines else None)


def _copy_data(data_dir: Path, dest: Path) -> list[Path]:
    copied: list[Path] = []
    try:
        entries = sorted(data_dir.iterdir()) if data_dir.is_dir() and not data_dir.is_symlink() else []
    except OSError:
        entries = []
    for entry in entries[:MAX_DATA_FILES]:
        target = dest / f"data-{len(copied)}.json"
        if entry.suffix == ".json" and copy_regular(entry, target, MAX_DATA_FILE_BYTES):
            copied.append(target)
    return copied


def _ranges(files: Iterable[Path], names: dict[str, Path], ran: Path) -> dict[str, list[list[Range]]]:
    """Per product file (its name in the snapshot): one list of (start, end, count) ranges per
    process that loaded its copy in `ran`, the workspace the tests ran in."""
    wanted = {str(folder / rel): name for name, rel in names.items()
              for folder in (ran, Path(os.path.realpath(ran)))}
    found: dict[str, list[list[Range]]] = {}
    for file in files:
        for script in _scripts(file):
            path = _path_of(script.get("url"))
            if path not in wanted:
                continue
            ranges = [(int(r["startOffset"]), int(r["endOffset"]), int(r["count"]))
                      for fn in script.get("functions", []) for r in fn.get("ranges", [])]
            found.setdefault(wanted[path], []).append(ranges)
    return found


def _scripts(file: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(file.read_bytes())
    except (OSError, ValueError, RecursionError):
        return []
    result = data.get("result") if isinstance(data, dict) else None
    return [s for s in result if isinstance(s, dict)] if isinstance(result, list) else []


def _path_of(url: object) -> str | None:
    if not isinstance(url, str) or not url.startswith("file://"):
        return None
    return unquote(urlparse(url).path)


def _covered(offset: int, processes: list[list[Range]]) -> bool:
    """Whether the innermost range around `offset` ran, in any process."""
    for ranges in processes:
        inside = [r for r in ranges if r[0] <= offset < r[1]]
        if inside and min(inside, key=lambda r: r[1] - r[0])[2] > 0:
            return True
    return False


def _confirming(confirmed: Confirmed, ran: str, digest: str) -> list[list[Range]]:
    """The second collector's ranges for the file that ran at `ran`, from scripts compiled from the
    snapshot's text only."""
    found: list[list[Range]] = []
    for script in confirmed.get(ran, []):
        if script.get("sha256") != digest:
            continue
        try:
            found.append([(int(s), int(e), int(c)) for s, e, c in script.get("ranges", [])])
        except (TypeError, ValueError):
            continue
    return found


Countable = dict[str, tuple[list[tuple[int, int]], str]]
"""Per product file: (line, offset) of each countable line, and the digest of the text V8 compiles."""


def countable_lines_file(product: Sequence[Path], root: Path, ctx: MeasureContext, tools: NodeTools) -> Path:
    """Work out the countable lines of `product` (files of the snapshot `root`) and write them to a
    harness-private file for `measure_coverage`'s `groundwork` (so it can be done while the tests
    run: the command runs undumpable, out of reach of the trial's other processes)."""
    found = _countable_lines(product, root, ctx, tools)
    out = ctx.private_dir("lines-found") / "lines.json"
    out.write_text(json.dumps({name: [lines, digest] for name, (lines, digest) in found.items()}),
                   encoding="utf-8")
    return out


def _load_lines(path: Path, names: dict[str, Path]) -> Countable | None:
    """What `countable_lines_file` wrote, when it was written for the same files (else None)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        found = {name: ([(int(a), int(b)) for a, b in lines], str(digest))
                 for name, (lines, digest) in data.items()}
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    return found if set(found) <= set(names) else None


def _countable_lines(product: Sequence[Path], root: Path, ctx: MeasureContext,
                     tools: NodeTools) -> Countable:
    """Per product file: (line, offset) of each countable line and the digest of the text V8
    compiles, worked out on a fresh copy."""
    if not product:
        return {}
    work = ctx.private_dir("lines")
    copies = {str(work / "src" / p.relative_to(root)): str(p) for p in product}
    for copy, original in copies.items():
        Path(copy).parent.mkdir(parents=True, exist_ok=True)
        Path(copy).write_bytes(Path(original).read_bytes())
    names = work / "files.json"
    names.write_text(json.dumps(list(copies)), encoding="utf-8")
    ctx.let_read(work)
    result = run_command(CommandSpec(
        command="node lines.mjs <every product file>", env=command_env(tools, ctx.dirs),
        log_name="coverage-lines", argv=(str(tools.node), "--no-warnings", str(LINES_SCRIPT)),
        stdin_path=names, cwd=work), ctx,
        replace(ctx.confinement(readable=(LINES_SCRIPT.parent, work)), undumpable=True))
    try:
        data = json.loads(read_log(ctx, result)) if result.ok else {}
    except ValueError:
        data = {}
    return {copies[name]: ([(int(a), int(b)) for a, b in found["lines"]], str(found["sha256"]))
            for name, found in data.items()
            if isinstance(found, dict) and isinstance(found.get("lines"), list) and name in copies}


def _non_blank(path: Path) -> int:
    try:
        return sum(1 for line in path.read_bytes().splitlines() if line.strip())
    except OSError:
        return 0


def _write_report(ctx: MeasureContext, per_file: dict[str, tuple[int, int]], problem: str | None) -> None:
    write_coverage_report(ctx, per_file, problem, unit="lines")
