"""YAML challenge loading and discovery: the seed's schema in, validated `Challenge` values out.

A challenge directory holds one folder per tier (`easy/`, `medium/`, `hard/`) with `NAME.yaml` files;
the ID is `tier/NAME`. Beside each YAML, an optional `NAME/reference/` (the reference solution) and
`NAME/acceptance/` (hidden tests). Every problem raises one `ChallengeError` naming the file, the line,
the field, what is wrong and how to fix it; unknown fields are errors too, never silently dropped.
"""

from __future__ import annotations

import difflib
import re
import reprlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from agentbench.errors import ChallengeError, UsageError
from agentbench.models import (
    EXPECTATION_FIELDS,
    TIERS,
    AcceptanceSpec,
    Challenge,
    Expectations,
    Rubric,
    StartingWorkspace,
)
from agentbench.starting import StartingTreeError, resolve_commit
from agentbench.toolchains.registry import UnknownLanguageError, canonical_language, get_toolchain

_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring, _SHORT.maxother = 2, 3, 3, 37, 37
_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]*$")
_REQUIRED = ("name", "language", "prompt", "expected_files", "test_commands", "scoring_rubric")
_OPTIONAL = ("time_limit_minutes", "setup_commands", "acceptance", "expect", "workspace", "protected",
             "fail_to_pass", "pass_to_pass")
_WORKSPACE_FIELDS = ("repo", "commit")
_RUBRIC_FIELDS = ("min_files", "must_have_tests", "must_have_readme", "max_time_minutes", "criteria")
_ACCEPTANCE_FIELDS = ("files", "command", "time_limit_seconds", "must_fail")
MAX_YAML_VALUES = 100_000
"""Values (scalars, lists, mappings) a challenge file may hold with its aliases written out; the
built-in challenges hold a few hundred."""


@dataclass(frozen=True, slots=True)
class _Doc:
    """A parsed YAML mapping with the line of each key, for error messages."""

    path: Path
    data: Mapping[str, Any]
    lines: Mapping[str, int]

    def fail(self, field: str | None, problem: str, hint: str | None = None) -> ChallengeError:
        line = self.lines.get(field or "", None)
        where = f"{self.path}:{line}" if line else str(self.path)
        return ChallengeError(where, field, problem, hint)


def builtin_challenges_dir() -> Path:
    """The challenges shipped with AgentBench (package data, or the source checkout's folder)."""
    packaged = Path(__file__).resolve().parent / "challenges"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "challenges"


def discover_challenges(
    extra_dirs: Sequence[Path] = (), *, include_builtin: bool = True
) -> tuple[Challenge, ...]:
    """Load every challenge of every tier, built-ins first; the first problem raises ChallengeError."""
    challenges, errors = scan_challenges(extra_dirs, include_builtin=include_builtin)
    if errors:
        raise errors[0]
    return challenges


def scan_challenges(
    extra_dirs: Sequence[Path] = (), *, include_builtin: bool = True
) -> tuple[tuple[Challenge, ...], tuple[ChallengeError, ...]]:
    """Load every challenge it can, collecting one error per bad file instead of stopping."""
    roots = ([builtin_challenges_dir()] if include_builtin else []) + [Path(d) for d in extra_dirs]
    seen: dict[str, Path] = {}
    found: list[Challenge] = []
    errors: list[ChallengeError] = []
    for root in roots:
        for path in _challenge_files(root):
            try:
                challenge = load_challenge(path)
            except ChallengeError as exc:
                errors.append(exc)
                continue
            if challenge.id in seen:
                errors.append(ChallengeError(
                    path, None, f"duplicate challenge ID '{challenge.id}' (also defined in {seen[challenge.id]})",
                    "rename one of the files: the ID is derived from the tier folder and file name",
                ))
                continue
            seen[challenge.id] = path
            found.append(challenge)
    return tuple(found), tuple(errors)


def _challenge_files(root: Path) -> Iterable[Path]:
    if not root.is_dir():
        raise ChallengeError(root, None, "challenge directory does not exist",
                             "pass a folder holding easy/, medium/ or hard/ sub-folders")
    for child in sorted(root.iterdir()):
        if child.suffix in (".yaml", ".yml") and child.is_file():
            raise ChallengeError(child, None, "challenge file is not inside a tier folder",
                                 f"move it into one of {', '.join(f'{t}/' for t in TIERS)}")
        if not child.is_dir() or child.name.startswith((".", "_")):
            continue
        yield from _tier_files(child)


def _tier_files(tier_dir: Path) -> Iterable[Path]:
    files = sorted(p for p in tier_dir.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    if files and tier_dir.name not in TIERS:
        raise ChallengeError(files[0], None, f"unknown tier '{tier_dir.name}'",
                             f"put challenges in one of: {', '.join(TIERS)}")
    yield from files


def load_challenge(path: Path) -> Challenge:
    """Load and validate one challenge file; its tier is the name of its parent folder."""
    path = Path(path)
    tier, name = path.parent.name, path.stem
    doc = _parse(path)
    if tier not in TIERS:
        raise doc.fail(None, f"unknown tier '{tier}'", f"put the file in one of: {', '.join(TIERS)}")
    if not _NAME_RE.match(name):
        raise doc.fail(None, f"invalid challenge name '{name}'",
                       "use lower-case letters, digits, '.', '_' and '-' in the file name")
    _check_keys(doc, _REQUIRED, _OPTIONAL)
    time_limit = _positive_int(doc, "time_limit_minutes", 30)
    folder = path.parent / name
    return Challenge(
        id=f"{tier}/{name}",
        tier=tier,
        name=_text(doc, "name"),
        language=_language(doc),
        prompt=_text(doc, "prompt"),
        expected_files=_relative_paths(doc, "expected_files"),
        test_commands=_string_list(doc, "test_commands", required=True),
        setup_commands=_string_list(doc, "setup_commands"),
        time_limit_minutes=time_limit,
        scoring_rubric=_rubric(doc),
        source_path=path,
        reference_dir=folder / "reference" if (folder / "reference").is_dir() else None,
        acceptance=_acceptance(doc, folder),
        expect=_expect(doc),
        workspace=_starting_workspace(doc),
        protected=_relative_paths(doc, "protected"),
        fail_to_pass=_string_list(doc, "fail_to_pass"),
        pass_to_pass=_string_list(doc, "pass_to_pass"),
    )


def _parse(path: Path) -> _Doc:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ChallengeError(path, None, f"cannot read file: {exc}") from None
    try:
        node, data = _compose_and_construct(path, text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = " ".join(str(p) for p in (exc.context, exc.problem) if p)
        tab = mark is not None and "\t" in (text.splitlines()[mark.line:mark.line + 1] or [""])[0]
        raise ChallengeError(where, None, f"invalid YAML: {problem}" + (" (a tab character)" if tab else ""),
                             "YAML does not allow tabs for indentation: indent with spaces" if tab
                             else "check indentation and quoting on that line") from None
    except yaml.YAMLError as exc:
        raise ChallengeError(path, None, f"invalid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ChallengeError(path, None, "expected a mapping of fields at the top level",
                             "start the file with `name: ...`")
    return _Doc(path, data, _key_lines(node))


def _compose_and_construct(path: Path, text: str) -> tuple[Any, Any]:
    """Parse once (with libyaml when present): the node tree for line numbers, and the data (only
    once its aliases are known to expand within `MAX_YAML_VALUES`)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            _check_expansion(path, node)
        return node, (loader.construct_document(node) if node is not None else None)
    finally:
        loader.dispose()


def _check_expansion(path: Path, root: Any) -> None:
    """Walk the node tree as if every alias were written out, stopping past `MAX_YAML_VALUES`: a
    "billion laughs" (aliases of aliases) costs at most that many steps, then is refused."""
    fields = root.value if isinstance(root, yaml.MappingNode) else [(root, root)]
    budget = MAX_YAML_VALUES
    for key, value in fields:
        pending = [value]
        while pending:
            node = pending.pop()
            budget -= 1
            if budget < 0:
                field = str(key.value) if isinstance(key, yaml.ScalarNode) else None
                raise ChallengeError(
                    f"{path}:{key.start_mark.line + 1}", field,
                    f"YAML aliases expand to more than {MAX_YAML_VALUES:,} values (aliases of aliases, "
                    "a 'billion laughs')", "write the value out; an alias (*name) may repeat an anchor, "
                    "not multiply it")
            if isinstance(node, yaml.SequenceNode):
                pending.extend(node.value)
            elif isinstance(node, yaml.MappingNode):
                pending.extend(item for pair in node.value for item in pair)


def _key_lines(node: Any) -> dict[str, int]:
    lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            lines[str(key.value)] = key.start_mark.line + 1
            if isinstance(value, yaml.MappingNode):
                for sub, _ in value.value:
                    lines[f"{key.value}.{sub.value}"] = sub.start_mark.line + 1
    return lines


def _check_keys(doc: _Doc, required: Sequence[str], optional: Sequence[str], prefix: str = "") -> None:
    data = _sub(doc, prefix) if prefix else doc.data
    known = (*required, *optional)
    for key in data:
        if key not in known:
            close = difflib.get_close_matches(str(key), known, n=1)
            hint = f"did you mean '{close[0]}'?" if close else f"known fields: {', '.join(known)}"
            raise doc.fail(f"{prefix}{key}", "unknown field", hint)
    for key in required:
        if key not in data:
            raise doc.fail(f"{prefix}{key}", "missing required field", f"add `{key}:` to the file")


def _sub(doc: _Doc, prefix: str) -> Mapping[str, Any]:
    value = doc.data.get(prefix.rstrip("."))
    return value if isinstance(value, dict) else {}


def _get(doc: _Doc, dotted: str) -> Any:
    head, _, tail = dotted.partition(".")
    return _sub(doc, head + ".").get(tail) if tail else doc.data.get(head)


def _language(doc: _Doc) -> str:
    """The `language` field, which an installed toolchain must measure (canonical name kept)."""
    value = _text(doc, "language")
    builtin = canonical_language(value)
    if builtin is not None:
        return builtin
    try:
        return get_toolchain(value).name
    except UnknownLanguageError as exc:
        raise doc.fail("language", exc.message, exc.hint) from None


def _text(doc: _Doc, field: str) -> str:
    value = _get(doc, field)
    if not isinstance(value, str) or not value.strip():
        raise doc.fail(field, f"expected a non-empty string, got {_describe(value)}",
                       'write it as text, e.g. name: "My Challenge"')
    return value


def _string_list(doc: _Doc, field: str, *, required: bool = False) -> tuple[str, ...]:
    value = _get(doc, field)
    if value is None and not required:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise doc.fail(field, f"expected a list of strings, got {_describe(value)}",
                       f"write one item per line: `{field.split('.')[-1]}:` then `  - ...`")
    if required and not value:
        raise doc.fail(field, "must list at least one command", "e.g. - python -m pytest tests/ -v")
    return tuple(value)


def _relative_paths(doc: _Doc, field: str) -> tuple[str, ...]:
    paths = _string_list(doc, field, required=False)
    for item in paths:
        if Path(item).is_absolute() or ".." in Path(item).parts:
            raise doc.fail(field, f"path '{item}' must be relative to the workspace, without '..'",
                           "e.g. src/my_tool/main.py")
    return paths


def _positive_int(doc: _Doc, field: str, default: int) -> int:
    value = _get(doc, field)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise doc.fail(field, f"expected a positive integer, got {_describe(value)}",
                       f"use a whole number, e.g. {default}")
    return value


def _bool(doc: _Doc, field: str, default: bool) -> bool:
    value = _get(doc, field)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise doc.fail(field, f"expected true or false, got {_describe(value)}")
    return value


def _rubric(doc: _Doc) -> Rubric:
    if not isinstance(doc.data["scoring_rubric"], dict):
        raise doc.fail("scoring_rubric", f"expected a mapping, got {_describe(doc.data['scoring_rubric'])}",
                       "e.g. scoring_rubric: {min_files: 3, must_have_tests: true}")
    _check_keys(doc, (), _RUBRIC_FIELDS, "scoring_rubric.")
    min_files = _get(doc, "scoring_rubric.min_files")
    if min_files is not None and (isinstance(min_files, bool) or not isinstance(min_files, int) or min_files < 0):
        raise doc.fail("scoring_rubric.min_files", f"expected a whole number >= 0, got {_describe(min_files)}")
    return Rubric(
        min_files=min_files or 0,
        must_have_tests=_bool(doc, "scoring_rubric.must_have_tests", False),
        must_have_readme=_bool(doc, "scoring_rubric.must_have_readme", False),
        max_time_minutes=_positive_int(doc, "scoring_rubric.max_time_minutes", 30),
        criteria=_string_list(doc, "scoring_rubric.criteria"),
    )


def _expect(doc: _Doc) -> Expectations | None:
    """The optional `expect:` block (behaviour checks, never scored)."""
    if "expect" not in doc.data:
        return None
    if not isinstance(doc.data["expect"], dict):
        raise doc.fail("expect", f"expected a mapping, got {_describe(doc.data['expect'])}",
                       "e.g. expect: {ran_tests: true, max_turns: 40}")
    _check_keys(doc, (), EXPECTATION_FIELDS, "expect.")
    values = {name: _expectation(doc, name) for name in EXPECTATION_FIELDS}
    return Expectations(**{k: v for k, v in values.items() if v is not None})


def _expectation(doc: _Doc, name: str) -> Any:
    value = _get(doc, f"expect.{name}")
    if value is None:
        return None
    if name == "ran_tests":
        return _bool(doc, "expect.ran_tests", False)
    whole = name != "max_seconds_to_first_write"
    if isinstance(value, bool) or not isinstance(value, int if whole else int | float) or value < 0:
        kind = "a whole number" if whole else "a number"
        raise doc.fail(f"expect.{name}", f"expected {kind} >= 0, got {_describe(value)}",
                       f"e.g. {name}: 40")
    return value if whole else float(value)


def _acceptance(doc: _Doc, folder: Path) -> AcceptanceSpec | None:
    if "acceptance" not in doc.data:
        default = folder / "acceptance"
        return AcceptanceSpec(files_dir=default) if default.is_dir() else None
    if not isinstance(doc.data["acceptance"], dict):
        raise doc.fail("acceptance", f"expected a mapping, got {_describe(doc.data['acceptance'])}",
                       f"e.g. acceptance: {{files: {folder.name}/acceptance}}")
    _check_keys(doc, (), _ACCEPTANCE_FIELDS, "acceptance.")
    files = _get(doc, "acceptance.files") or f"{folder.name}/acceptance"
    if not isinstance(files, str):
        raise doc.fail("acceptance.files", f"expected a folder path, got {_describe(files)}")
    files_dir = doc.path.parent / files
    if not files_dir.is_dir():
        raise doc.fail("acceptance.files", f"folder '{files_dir}' does not exist",
                       "the path is relative to the YAML file's folder")
    return AcceptanceSpec(
        files_dir=files_dir,
        command=_string_list(doc, "acceptance.command"),
        time_limit_seconds=_positive_int(doc, "acceptance.time_limit_seconds", 300),
        must_fail=_string_list(doc, "acceptance.must_fail"),
    )


def _starting_workspace(doc: _Doc) -> StartingWorkspace | None:
    """`workspace:` as a folder (relative to the YAML's folder) or `{repo: PATH, commit: SHA}`."""
    value = doc.data.get("workspace")
    if value is None:
        return None
    if isinstance(value, str) and value.strip():
        folder = doc.path.parent / value
        if not folder.is_dir():
            raise doc.fail("workspace", f"folder '{folder}' does not exist",
                           "the path is relative to the YAML file's folder, e.g. workspace: NAME/start")
        return StartingWorkspace(folder=folder)
    if not isinstance(value, dict):
        raise doc.fail("workspace", f"expected a folder or a mapping, got {_describe(value)}",
                       "e.g. workspace: NAME/start, or workspace: {repo: ../repo, commit: 1a2b3c4}")
    _check_keys(doc, _WORKSPACE_FIELDS, (), "workspace.")
    repo, commit = _text(doc, "workspace.repo"), _get(doc, "workspace.commit")
    if not isinstance(commit, str) or not commit.strip():
        raise doc.fail("workspace.commit", f"expected a commit SHA, got {_describe(commit)}",
                       "quote it so YAML reads it as text, e.g. commit: \"1a2b3c4\"")
    path = Path(repo).expanduser()
    path = path if path.is_absolute() else doc.path.parent / path
    try:
        return StartingWorkspace(repo=path.resolve(), commit=resolve_commit(path, commit.strip()))
    except StartingTreeError as exc:
        raise doc.fail("workspace.repo" if "not a git repository" in str(exc) else "workspace.commit", str(exc),
                       "name a local git repository (relative to the YAML's folder) and a commit "
                       "in it (`git -C REPO rev-parse COMMIT` must find it)") from None


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {_SHORT.repr(value)}"


def error_challenge_id(error: ChallengeError) -> str:
    """The ID (`tier/name`) of the challenge file an error is about (its path may end in `:line`)."""
    name = error.path.name.rsplit(":", 1)[0] if ":" in error.path.name else error.path.name
    return f"{error.path.parent.name}/{Path(name).stem}"


def select_challenges(
    challenges: Sequence[Challenge], *, ids: Sequence[str] = (), tier: str | None = None,
    language: str | None = None,
) -> tuple[Challenge, ...]:
    """Pick challenges by ID or tier (all when neither is given), then keep those of `language` (any
    name or alias of a toolchain, e.g. `ts`); unknown IDs raise ChallengeError."""
    by_id = {c.id: c for c in challenges}
    for cid in ids:
        if cid not in by_id:
            close = difflib.get_close_matches(cid, list(by_id), n=3)
            hint = f"did you mean {', '.join(close)}?" if close else "run `agentbench list` to see IDs"
            raise UsageError(f"no such challenge '{cid}'", hint)
    if tier is not None and tier not in TIERS:
        raise UsageError(f"unknown tier '{tier}'", f"use one of: {', '.join(TIERS)}")
    picked = [by_id[cid] for cid in ids] if ids else list(challenges)
    wanted = None if language is None else canonical_language(language) or get_toolchain(language).name
    return tuple(c for c in picked if (tier is None or c.tier == tier)
                 and (wanted is None or c.language == wanted))


def dump_challenge(fields: Mapping[str, Any]) -> str:
    """A challenge's fields as YAML text in the order given (multi-line text as `|` blocks), for
    the importers (`agentbench.formats`) to write what `load_challenge` reads."""

    class _Dumper(yaml.SafeDumper):
        pass

    def text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
        style = "|" if "\n" in value and not any(c in value for c in "\r\t") else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    _Dumper.add_representer(str, text)
    return yaml.dump(dict(fields), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
