"""Which Go files of a workspace are tests and which are product code, and where packages live.

`*_test.go` files are tests (the go command builds them only into test binaries, so product code
cannot import them); every other `.go` file is product code, wherever it lives, build constraints or
not. Folders the go command ignores for packages (`testdata`, `vendor`, names starting with `.` or
`_`) hold no product code.
"""

from __future__ import annotations

import re
from pathlib import Path

from agentbench.toolchains.base import SourceFiles
from agentbench.workspace import agent_files

IGNORED_DIRS = frozenset({"testdata", "vendor"})
_MODULE = re.compile(r"^\s*module\s+(\"[^\"]+\"|\S+)", re.MULTILINE)


def _ignored(relative: Path) -> bool:
    return any(part in IGNORED_DIRS or part.startswith((".", "_")) for part in relative.parts[:-1])


def classify_sources(workspace: Path) -> SourceFiles:
    """Split the workspace's `.go` files into product code and tests (see the module docstring)."""
    files = [f for f in agent_files(workspace, (".go",)) if not _ignored(f.relative_to(workspace))]
    tests = tuple(f for f in files if f.name.endswith("_test.go"))
    return SourceFiles(product=tuple(f for f in files if f not in tests), tests=tests)


def module_path(project: Path) -> str | None:
    """The module path declared in `project/go.mod` (None without one)."""
    try:
        match = _MODULE.search((project / "go.mod").read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    return match.group(1).strip('"') if match else None


def package_dir(package: str, module: str | None) -> str | None:
    """The folder (relative to the module root) of an import path of `module`."""
    if module is None:
        return None
    if package == module:
        return "."
    return package[len(module) + 1:] if package.startswith(module + "/") else None


def test_files_of(packages: tuple[str, ...], project: Path) -> tuple[str, ...]:
    """The `_test.go` files (relative paths) of the packages whose tests ran."""
    module = module_path(project)
    found = []
    for package in packages:
        folder = package_dir(package, module)
        if folder is not None and (project / folder).is_dir():
            found += [str((project / folder / f.name).relative_to(project))
                      for f in sorted((project / folder).glob("*_test.go"))
                      if f.is_file() and not f.is_symlink()]
    return tuple(sorted(found))
