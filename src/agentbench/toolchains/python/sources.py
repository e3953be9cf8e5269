"""Which Python files of a workspace are tests and which are product code (narrowly, and undodgeable).

A file is a test file when its name is `test_*.py`, `*_test.py` or `conftest.py`, or it lives under a
top-level `tests/` or `test/` folder, *and* no product file imports it (directly or through other
imports, `importlib.import_module("...")` and `__import__("...")` with a literal name included).
Everything else is product code, wherever it lives: `src/pkg/tests/impl.py` is product code, and so is
`tests/helpers.py` once product code imports it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePath

from agentbench.toolchains.base import SourceFiles
from agentbench.workspace import agent_files

TEST_DIRS = frozenset({"tests", "test"})
"""Top-level folders whose files are tests unless product code imports them."""


def is_test_like(relative: PurePath) -> bool:
    """Whether a file looks like a test by its name or top-level folder (before the import rule)."""
    name = relative.name
    return (name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"
            or (len(relative.parts) > 1 and relative.parts[0] in TEST_DIRS))


def classify_sources(workspace: Path) -> SourceFiles:
    """Split the workspace's `.py` files into product code and tests (see the module docstring)."""
    files = agent_files(workspace, (".py",))
    modules = _module_index(workspace, files)
    candidates = {f for f in files if is_test_like(f.relative_to(workspace))}
    product = [f for f in files if f not in candidates]
    queue = list(product)
    while queue:
        for target in _imported_files(queue.pop(), workspace, modules):
            if target in candidates:
                candidates.discard(target)
                product.append(target)
                queue.append(target)
    return SourceFiles(product=tuple(sorted(product)), tests=tuple(sorted(candidates)))


def _module_index(workspace: Path, files: Iterable[Path]) -> dict[str, Path]:
    """Dotted module name -> file, for imports rooted at the workspace and at `src/`."""
    index: dict[str, Path] = {}
    for path in files:
        rel = path.relative_to(workspace)
        for parts in (rel.parts, rel.parts[1:] if rel.parts[0] == "src" else ()):
            if parts:
                index.setdefault(_dotted(parts), path)
    return index


def _dotted(parts: tuple[str, ...]) -> str:
    names = [*parts[:-1], parts[-1].removesuffix(".py")]
    if names[-1] == "__init__":
        names.pop()
    return ".".join(names)


def _imported_files(path: Path, workspace: Path, modules: dict[str, Path]) -> Iterator[Path]:
    package = _package_of(path, workspace)
    for name in _imported_names(path, package):
        if name in modules:
            yield modules[name]


def _package_of(path: Path, workspace: Path) -> list[str]:
    rel = path.relative_to(workspace).parts
    parts = list(rel[1:] if rel[0] == "src" else rel)[:-1]
    return parts


MAX_PARSED_BYTES = 4 * 1024 * 1024
"""Larger files are not parsed for imports (a file that size is not hand-written code)."""


def _imported_names(path: Path, package: list[str]) -> Iterator[str]:
    try:
        if path.stat().st_size > MAX_PARSED_BYTES:
            return
        tree = ast.parse(path.read_bytes())
    except (SyntaxError, ValueError, RecursionError, MemoryError, OSError):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield from _prefixes(alias.name)
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node.module or "", node.level, package)
            yield from _prefixes(base)
            for alias in node.names:
                yield f"{base}.{alias.name}" if base else alias.name
        elif (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str) and _is_dynamic_import(node.func)):
            yield from _prefixes(node.args[0].value)


def _resolve(module: str, level: int, package: list[str]) -> str:
    if not level:
        return module
    base = package[: len(package) - (level - 1)] if level - 1 <= len(package) else []
    return ".".join([*base, *([module] if module else [])])


def _prefixes(name: str) -> Iterator[str]:
    parts = name.split(".")
    for n in range(1, len(parts) + 1):
        yield ".".join(parts[:n])


def _is_dynamic_import(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id in ("__import__", "import_module")
    return isinstance(func, ast.Attribute) and func.attr == "import_module"
