"""Which JavaScript/TypeScript files of a workspace are tests, which are product code.

A file is a test file when its name is `*.test.*`, `*.spec.*`, `*_test.*` or `test-*.*`, or it lives
under a top-level `test/`, `tests/` or `__tests__/` folder; files under a top-level `dist/`, `build/`
or `coverage/` folder are generated output. Either kind is product code once a product file imports
it (`import ... from`, `export ... from`, `import()`, `require()` with a literal relative path,
followed transitively). Declaration files (`*.d.ts`) hold no code and are left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path, PurePath

from agentbench.toolchains.base import SourceFiles
from agentbench.workspace import agent_files

SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
TEST_DIRS = frozenset({"test", "tests", "__tests__"})
GENERATED_DIRS = frozenset({"dist", "build", "coverage"})
_TEST_NAME = re.compile(r"(\.(test|spec)\.[^.]+$)|(_test\.[^.]+$)|(^test-)")
_SPECIFIER = re.compile(
    rb"""(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])(\.{1,2}/[^'"\n]*)\1""")
MAX_PARSED_BYTES = 4 * 1024 * 1024


def is_test_like(relative: PurePath) -> bool:
    """Whether a file looks like a test by its name or top-level folder (before the import rule)."""
    return bool(_TEST_NAME.search(relative.name)) or (
        len(relative.parts) > 1 and relative.parts[0] in TEST_DIRS)


def _is_generated(relative: PurePath) -> bool:
    return len(relative.parts) > 1 and relative.parts[0] in GENERATED_DIRS


def classify_sources(workspace: Path) -> SourceFiles:
    """Split the workspace's JS/TS files into product code and tests (see the module docstring)."""
    files = [f for f in agent_files(workspace, SUFFIXES) if not f.name.endswith(".d.ts")]
    rel = {f: f.relative_to(workspace) for f in files}
    tests = {f for f in files if is_test_like(rel[f])}
    generated = {f for f in files if _is_generated(rel[f])} - tests
    product = [f for f in files if f not in tests and f not in generated]
    known = set(files)
    queue = list(product)
    while queue:
        for target in _imported_files(queue.pop(), known):
            if target in tests or target in generated:
                tests.discard(target)
                generated.discard(target)
                product.append(target)
                queue.append(target)
    return SourceFiles(product=tuple(sorted(product)), tests=tuple(sorted(tests)))


def _imported_files(path: Path, known: set[Path]) -> Iterator[Path]:
    try:
        if path.stat().st_size > MAX_PARSED_BYTES:
            return
        text = path.read_bytes()
    except OSError:
        return
    for match in _SPECIFIER.finditer(text):
        spec = match.group(2).decode("utf-8", "replace").split("?")[0]
        for candidate in _candidates(path.parent / spec):
            if candidate in known:
                yield candidate
                break


def _candidates(target: Path) -> Iterator[Path]:
    """The files a relative specifier may name (TypeScript maps `.js` to `.ts`, folders to index)."""
    import os

    base = Path(os.path.normpath(target))
    yield base
    stem, suffix = os.path.splitext(str(base))
    mapped = {".js": (".ts", ".tsx"), ".mjs": (".mts",), ".cjs": (".cts",), ".jsx": (".tsx",)}
    for other in mapped.get(suffix, ()):
        yield Path(stem + other)
    for ext in SUFFIXES:
        yield Path(str(base) + ext)
        yield base / f"index{ext}"
