"""An agent CLI's version read from its package metadata, without running the CLI.

The version probe used to run `<cli> --version` unconfined before every run; an agent's executable is
untrusted code, so the version is read from files instead wherever the install layout allows:

- an npm CLI (`NpmPackage`): the `package.json` of the package that holds the executable's real path
  (`bin/claude` -> `.../node_modules/@anthropic-ai/claude-code/bin/claude.exe`: the nearest folder
  above it with a `package.json` whose `name` is the package's);
- a Python CLI in its own virtual environment (`PythonDistribution`): the `METADATA` of the
  distribution's `*.dist-info` in the environment that holds the executable (`<venv>/bin/aider`).

Only small regular files are read (never through a symlink the install tree could hold), and a
version must look like one; anything else gives None, and the caller falls back to a confined run.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

MAX_METADATA_BYTES = 1024 * 1024
"""Larger metadata files are not read."""

_VERSION = re.compile(r"[0-9][0-9A-Za-z.+-]{0,63}")
"""What a version looks like (e.g. `2.1.332`, `0.86.2`, `1.0.0-beta.3`)."""

_SEARCH_DEPTH = 6
"""How many folders above the executable's real path are searched for the package's manifest."""


@dataclass(frozen=True, slots=True)
class NpmPackage:
    """The CLI is the `bin` of this npm package."""

    name: str
    """The package name, e.g. `@openai/codex`."""


@dataclass(frozen=True, slots=True)
class PythonDistribution:
    """The CLI is a console script of this Python distribution, in its own virtual environment."""

    name: str
    """The distribution name, e.g. `aider-chat`."""


VersionSource = NpmPackage | PythonDistribution
"""Where an adapter's CLI keeps its version."""


def read_version(executable: str, source: VersionSource | None) -> str | None:
    """The version of the CLI at `executable` from its package metadata, or None."""
    if source is None:
        return None
    try:
        real = Path(executable).resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if isinstance(source, NpmPackage):
        return _npm_version(real, source.name)
    return _python_version(real.parent.parent, source.name)


def _read_small(path: Path) -> str | None:
    """The text of a small regular file (not a symlink), else None."""
    try:
        if path.is_symlink() or not path.is_file() or path.stat().st_size > MAX_METADATA_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def _checked(version: object) -> str | None:
    return version if isinstance(version, str) and _VERSION.fullmatch(version) else None


def _npm_version(real: Path, name: str) -> str | None:
    for folder in list(real.parents)[:_SEARCH_DEPTH]:
        text = _read_small(folder / "package.json")
        if text is None:
            continue
        try:
            manifest = json.loads(text)
        except ValueError:
            continue
        if isinstance(manifest, dict) and manifest.get("name") == name:
            return _checked(manifest.get("version"))
    return None


def _python_version(venv: Path, name: str) -> str | None:
    """`Version:` of `<venv>/lib/python*/site-packages/<name>-*.dist-info/METADATA`."""
    wanted = re.sub(r"[-_.]+", "_", name).lower()
    try:
        candidates = sorted(venv.glob("lib/python3*/site-packages/*.dist-info/METADATA"))
    except OSError:
        return None
    for metadata in candidates:
        if re.sub(r"[-_.]+", "_", metadata.parent.name.split("-")[0]).lower() != wanted:
            continue
        text = _read_small(metadata) or ""
        found = re.search(r"^Version:\s*(\S+)\s*$", text, re.MULTILINE)
        if found:
            return _checked(found.group(1))
    return None
