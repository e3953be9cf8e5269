"""The task-format seam: a draft challenge any importer builds, and writing it as AgentBench YAML.

An importer (one module per format: `exercism`, `swe`, `repo`) reads the user's local copy of a
suite and returns `ChallengeDraft`s plus the items it could not convert, each with its reason; it
never downloads or bundles anyone's tasks. `write_draft` lays a draft out the way `loader` reads
it: `<output>/<tier>/<name>.yaml` beside `<name>/start/` (the starting workspace, unless it is a git
commit), `<name>/reference/` (the reference tree) and `<name>/acceptance/` (the hidden tests).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentbench.errors import ChallengeError, UsageError
from agentbench.loader import dump_challenge, load_challenge
from agentbench.models import TIERS

_NAME_UNSAFE = re.compile(r"[^a-z0-9._-]+")

Files = Mapping[str, bytes]
"""Relative path -> content."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChallengeDraft:
    """A challenge ready to write: its YAML fields and the trees beside it."""

    tier: str
    """easy, medium or hard."""
    name: str
    """The file name (the ID is `tier/name`)."""
    fields: Mapping[str, Any]
    """The YAML fields, in the order to write them (without `workspace`, `acceptance`)."""
    start: Files | None = None
    """The starting workspace's files (None: `repo` and `commit` give it)."""
    repo: Path | None = None
    """A git repository the workspace starts from, at `commit`."""
    commit: str | None = None
    """The starting commit in `repo`."""
    reference: Files = field(default_factory=dict)
    """The reference tree (the solved project, whole)."""
    acceptance: Files = field(default_factory=dict)
    """The hidden tests, laid out as the language's toolchain expects."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Skipped:
    """An item of the source that was not converted, and why."""

    source: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ImportReport:
    """What an import wrote and what it left out."""

    written: tuple[str, ...] = ()
    """Challenge IDs written."""
    skipped: tuple[Skipped, ...] = ()
    """Items not converted, with the reason."""
    output: Path = Path()
    """The folder written (pass it to `--challenges`)."""


def safe_name(text: str) -> str:
    """A challenge file name from any text (lower case, `[a-z0-9._-]`)."""
    name = _NAME_UNSAFE.sub("-", text.lower()).strip("-.")
    return name or "task"


def tier_of(difficulty: int | None) -> str:
    """A tier from a 1-10 difficulty (1-3 easy, 4-6 medium, 7-10 hard); none: medium."""
    if difficulty is None:
        return "medium"
    return "easy" if difficulty <= 3 else "medium" if difficulty <= 6 else "hard"


def write_draft(draft: ChallengeDraft, output: Path, *, overwrite: bool = False) -> str:
    """Write `draft` under `output` and load it back (a draft the loader refuses raises
    ChallengeError); return its ID."""
    if draft.tier not in TIERS:
        raise UsageError(f"unknown tier '{draft.tier}'", f"use one of: {', '.join(TIERS)}")
    folder = output / draft.tier / draft.name
    yaml_path = output / draft.tier / f"{draft.name}.yaml"
    if (yaml_path.exists() or folder.exists()) and not overwrite:
        raise UsageError(f"{yaml_path} already exists", "pick another --output folder or remove it")
    shutil.rmtree(folder, ignore_errors=True)
    fields: dict[str, Any] = dict(draft.fields)
    if draft.start is not None:
        write_files(folder / "start", draft.start)
        fields["workspace"] = f"{draft.name}/start"
    else:
        fields["workspace"] = {"repo": str(draft.repo), "commit": draft.commit}
    write_files(folder / "reference", draft.reference)
    write_files(folder / "acceptance", draft.acceptance)
    fields["acceptance"] = {"files": f"{draft.name}/acceptance", "time_limit_seconds": 300}
    yaml_path.parent.mkdir(parents=True, exist_ok=True)
    yaml_path.write_text(dump_challenge(fields), encoding="utf-8")
    try:
        return load_challenge(yaml_path).id
    except ChallengeError:
        yaml_path.unlink()  # NOTE: a refused draft must not break `--challenges` for the others
        shutil.rmtree(folder, ignore_errors=True)
        raise


def write_drafts(items: Iterable[tuple[str, ChallengeDraft | str]], output: Path, *,
                 overwrite: bool = False) -> ImportReport:
    """Write each item in turn: (source, its draft, or why it could not be converted). A draft the
    loader refuses is skipped with the loader's reason, as is each item that is not a draft."""
    written: list[str] = []
    skipped: list[Skipped] = []
    for source, draft in items:
        if isinstance(draft, str):
            skipped.append(Skipped(source=source, reason=draft))
            continue
        try:
            written.append(write_draft(draft, output, overwrite=overwrite))
        except ChallengeError as exc:
            skipped.append(Skipped(source=source, reason=exc.message))
    return ImportReport(written=tuple(written), skipped=tuple(skipped), output=output)


def write_files(root: Path, files: Files) -> None:
    """Write `files` under `root` (paths must stay inside it)."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, data in sorted(files.items()):
        target = root / rel
        if Path(rel).is_absolute() or ".." in Path(rel).parts:
            raise UsageError(f"refusing to write '{rel}' outside {root}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def read_files(root: Path, names: Sequence[str]) -> dict[str, bytes]:
    """`names` (relative to `root`) read as bytes; a missing one raises FileNotFoundError."""
    return {name: (root / name).read_bytes() for name in names}


def tree_of(root: Path) -> dict[str, bytes]:
    """Every regular file under `root` (symlinks skipped), by relative path."""
    found = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = [d for d in dirnames if d not in (".git", "node_modules", "__pycache__")]
        for name in filenames:
            path = Path(dirpath) / name
            if path.is_file() and not path.is_symlink():
                found[str(path.relative_to(root))] = path.read_bytes()
    return found


def append_sets(yaml_path: Path, fail_to_pass: Sequence[str], pass_to_pass: Sequence[str]) -> None:
    """Add computed `fail_to_pass` / `pass_to_pass` lists to a challenge file (which has none)."""
    import json

    lines = ["fail_to_pass:", *(f"  - {json.dumps(t)}" for t in fail_to_pass)]
    lines += ["pass_to_pass:" + ("" if pass_to_pass else " []"), *(f"  - {json.dumps(t)}" for t in pass_to_pass)]
    text = yaml_path.read_text(encoding="utf-8")
    yaml_path.write_text(text.rstrip("\n") + "\n" + "\n".join(lines) + "\n", encoding="utf-8")
