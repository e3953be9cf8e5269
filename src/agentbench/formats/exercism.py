"""Exercism practice exercises (the track layout Aider's polyglot benchmark uses) as challenges.

An exercise folder holds `.docs/instructions.md` (plus an optional `.docs/instructions.append.md`)
and `.meta/config.json`, whose `files` name the `solution` stubs, the `test` files, the `example`
(the reference solution: it replaces the stub) and `editor` helpers. Each becomes a challenge whose
starting workspace is the stubs, tests and helpers, with tests and helpers protected and copied as
the hidden tests, and the example as the reference. The tier comes from the track's `config.json`
difficulty (1-3 easy, 4-6 medium, 7-10 hard), else medium. Exercises in a language AgentBench does
not measure, or that cannot be converted faithfully, are listed with the reason.

The languages' particulars live in `exercism_tracks` (Python unittest files run by pytest, Go
packages named by `go.mod` and the stub's `package` line, jest tests converted to node:test).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from agentbench.formats.base import (
    ChallengeDraft,
    ImportReport,
    safe_name,
    tier_of,
    write_drafts,
)
from agentbench.formats.exercism_tracks import BUILDERS, Exercise, Unconvertible, language_of

MAX_DEPTH = 5
PREFIX = {"python": "py", "go": "go", "typescript": "ts", "javascript": "js"}


def find_exercises(source: Path) -> list[Path]:
    """Exercise folders (holding `.meta/config.json`) under `source`, sorted by path."""
    if (source / ".meta" / "config.json").is_file():
        return [source]
    found: list[Path] = []
    _walk(source, 0, found)
    return sorted(found)


def _walk(folder: Path, depth: int, found: list[Path]) -> None:
    if depth > MAX_DEPTH:
        return
    for child in sorted(folder.iterdir()):
        if not child.is_dir() or child.is_symlink() or child.name in (".git", "node_modules"):
            continue
        if (child / ".meta" / "config.json").is_file():
            found.append(child)
        elif not child.name.startswith("."):
            _walk(child, depth + 1, found)


def import_exercism(source: Path, output: Path, *, overwrite: bool = False) -> ImportReport:
    """Convert every exercise under `source` into challenges under `output`."""
    return write_drafts(_drafts(source), output, overwrite=overwrite)


def _drafts(source: Path) -> Iterator[tuple[str, ChallengeDraft | str]]:
    """Each exercise folder under `source`, with its draft or why it cannot be converted."""
    difficulties: dict[Path, dict[str, int]] = {}
    for folder in find_exercises(source):
        try:
            draft: ChallengeDraft | str = convert(folder, _difficulty(folder, difficulties))
        except Unconvertible as exc:
            draft = str(exc)
        yield str(folder), draft


def convert(folder: Path, difficulty: int | None = None) -> ChallengeDraft:
    """One exercise folder as a challenge draft (Unconvertible: why it cannot be)."""
    exercise = read_exercise(folder)
    language = language_of(exercise)
    build = BUILDERS[language](exercise)
    fields: dict[str, Any] = {
        "name": f"{exercise.slug} (Exercism, {language})",
        "language": "typescript" if language == "javascript" else language,
        "time_limit_minutes": 30,
        "prompt": prompt(exercise, build.protected),
        "expected_files": list(exercise.solution),
        "setup_commands": list(build.setup),
        "test_commands": list(build.test_commands),
        "scoring_rubric": {"max_time_minutes": 30},
        "protected": list(build.protected),
    }
    return ChallengeDraft(tier=tier_of(difficulty), name=safe_name(f"{PREFIX[language]}-{exercise.slug}"),
                          fields=fields, start=build.start, reference=build.reference,
                          acceptance=build.acceptance)


def read_exercise(folder: Path) -> Exercise:
    """The exercise's config, instructions and files (Unconvertible when something is missing)."""
    try:
        config = json.loads((folder / ".meta" / "config.json").read_text(encoding="utf-8"))
        files = config["files"]
        names = {key: tuple(str(n) for n in files.get(key, ())) for key in ("solution", "test",
                                                                            "example", "editor")}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise Unconvertible(f".meta/config.json cannot be read: {exc}") from None
    if not names["solution"] or not names["test"] or not names["example"]:
        raise Unconvertible(".meta/config.json names no solution, test or example file")
    docs = folder / ".docs"
    if not (docs / "instructions.md").is_file():
        raise Unconvertible("no .docs/instructions.md")
    text = (docs / "instructions.md").read_text(encoding="utf-8")
    if (docs / "instructions.append.md").is_file():
        text += "\n" + (docs / "instructions.append.md").read_text(encoding="utf-8")
    for rel in (*names["solution"], *names["test"], *names["example"], *names["editor"]):
        if Path(rel).is_absolute() or ".." in Path(rel).parts or not (folder / rel).is_file():
            raise Unconvertible(f"file '{rel}' named in .meta/config.json is missing")
    return Exercise(folder=folder, slug=folder.name, instructions=text, solution=names["solution"],
                    tests=names["test"], example=names["example"], editor=names["editor"])


def prompt(exercise: Exercise, protected: tuple[str, ...]) -> str:
    """The instructions, then what to change and what not to (Aider's benchmark wording, adapted)."""
    return (f"{exercise.instructions.rstrip()}\n\n"
            f"Use the above instructions to modify the supplied files: {', '.join(exercise.solution)}.\n"
            "Don't change the names of existing functions or classes, as they may be referenced from "
            "other code like unit tests, etc. Only use standard libraries, don't suggest installing "
            "any packages.\n"
            f"The tests are in {', '.join(exercise.tests)}; they and {', '.join(protected)} are "
            "protected: do not modify them (changes to them are not counted).\n")


def _difficulty(folder: Path, cache: dict[Path, dict[str, int]]) -> int | None:
    """The exercise's difficulty from the nearest track `config.json` above it."""
    for parent in folder.parents:
        config = parent / "config.json"
        if parent not in cache and config.is_file():
            cache[parent] = _difficulties(config)
        if cache.get(parent):
            return cache[parent].get(folder.name)
    return None


def _difficulties(config: Path) -> dict[str, int]:
    try:
        data = json.loads(config.read_text(encoding="utf-8"))
        practice = data["exercises"]["practice"]
        return {str(e["slug"]): int(e["difficulty"]) for e in practice if "difficulty" in e}
    except (OSError, ValueError, KeyError, TypeError):
        return {}
