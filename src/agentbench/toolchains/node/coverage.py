"""Line coverage of every product JS/TS file by the agent's tests, from Node's own V8 coverage.

While the agent's test commands run, NODE_V8_COVERAGE makes every Node process of the trial write
its V8 coverage (JSON) into a folder those processes may write. The harness then copies the data
files (regular files only) into a fresh folder of its own and works the figures out itself: a
product line counts when it holds code once TypeScript types are stripped (`js/lines.mjs`: types and
comments do not count), and it is covered when the innermost V8 range around its first character ran
in some process. Every product file counts, loaded or not; a file no process loaded is 0% covered.
There is nothing like a pragma to exclude code.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from agentbench.models import CoverageMeasurement
from agentbench.toolchains.base import (
    CommandSpec,
    MeasureContext,
    read_log,
    run_command,
    write_coverage_report,
)
from agentbench.toolchains.node.tools import NodeTools, command_env

LINES_SCRIPT = Path(__file__).parent / "js" / "lines.mjs"
MAX_DATA_FILE_BYTES = 256 * 1024 * 1024
MAX_DATA_FILES = 2000

Range = tuple[int, int, int]


def measure_coverage(data_dir: Path | None, product: Sequence[Path], ctx: MeasureContext,
                     tools: NodeTools) -> CoverageMeasurement:
    """Covered / countable lines over every file in `product` (see the module docstring)."""
    ranges = _ranges(_copy_data(data_dir, ctx.private_dir("coverage")) if data_dir else [], product)
    lines = _countable_lines(product, ctx, tools)
    per_file: dict[str, tuple[int, int]] = {}
    for path in product:
        offsets = lines.get(str(path))
        if offsets is None:
            per_file[str(path.relative_to(ctx.dirs.workspace))] = (0, _non_blank(path))
            continue
        covered = sum(1 for _, offset in offsets if _covered(offset, ranges.get(str(path), [])))
        per_file[str(path.relative_to(ctx.dirs.workspace))] = (covered, len(offsets))
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
        if (entry.suffix == ".json" and entry.is_file() and not entry.is_symlink()
                and entry.stat().st_size <= MAX_DATA_FILE_BYTES):
            target = dest / f"data-{len(copied)}.json"
            shutil.copyfile(entry, target, follow_symlinks=False)
            copied.append(target)
    return copied


def _ranges(files: Iterable[Path], product: Sequence[Path]) -> dict[str, list[list[Range]]]:
    """Per product file: one list of (start, end, count) ranges per process that loaded it."""
    wanted = {str(p) for p in product} | {str(p.resolve()) for p in product}
    by_resolved = {str(p.resolve()): str(p) for p in product}
    found: dict[str, list[list[Range]]] = {}
    for file in files:
        for script in _scripts(file):
            path = _path_of(script.get("url"))
            if path not in wanted:
                continue
            ranges = [(int(r["startOffset"]), int(r["endOffset"]), int(r["count"]))
                      for fn in script.get("functions", []) for r in fn.get("ranges", [])]
            found.setdefault(by_resolved.get(path, path), []).append(ranges)
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


def _countable_lines(product: Sequence[Path], ctx: MeasureContext,
                     tools: NodeTools) -> dict[str, list[tuple[int, int]]]:
    if not product:
        return {}
    work = ctx.private_dir("lines")
    names = work / "files.json"
    names.write_text(json.dumps([str(p) for p in product]), encoding="utf-8")
    ctx.let_read(work)
    result = run_command(CommandSpec(
        command="node lines.mjs <every product file>", env=command_env(tools, ctx.dirs),
        log_name="coverage-lines", argv=(str(tools.node), "--no-warnings", str(LINES_SCRIPT)),
        stdin_path=names, cwd=work), ctx, ctx.confinement(readable=(LINES_SCRIPT.parent, work)))
    try:
        data = json.loads(read_log(ctx, result)) if result.ok else {}
    except ValueError:
        data = {}
    return {name: [(int(a), int(b)) for a, b in pairs] for name, pairs in data.items()
            if isinstance(pairs, list)}


def _non_blank(path: Path) -> int:
    try:
        return sum(1 for line in path.read_bytes().splitlines() if line.strip())
    except OSError:
        return 0


def _write_report(ctx: MeasureContext, per_file: dict[str, tuple[int, int]], problem: str | None) -> None:
    write_coverage_report(ctx, per_file, problem, unit="lines")
