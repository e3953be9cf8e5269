"""One trajectory format for every agent: the steps of a trial, kept as `trajectory.jsonl`.

Each CLI adapter's transcript (six JSON dialects, or aider's plain text) is turned into the same list
of `Step`s by a parser in `agentbench.adapters.transcripts`: the prompt, each model turn (its text
and reasoning where the CLI shows it, tokens and cost where it reports them), each tool call with
its result, and notes about what could not be read. A tool's kind is normalised (`read`, `write`,
`shell`, `search`, `other`); its raw name and arguments are kept. Long texts are cut (`MAX_TEXT`,
`MAX_RESULT`), the original size recorded. Everything here is the agent's own text: untrusted,
escape it before display.

The file is JSON lines: a `Header` first (`trajectory_version`, whether the transcript could be
parsed, notes), then one `Step` per line (schema: docs/trajectories.md). Parsing never raises: a
transcript that cannot be read gives the prompt and a note, and the raw transcript stays in
`agent/stdout.log`.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

TRAJECTORY_VERSION = 1
"""Version of the `trajectory.jsonl` schema written; bumped on any incompatible change."""

FILE_NAME = "trajectory.jsonl"
"""The trajectory's file name in the trial folder."""

MAX_TEXT = 20_000
"""Characters kept of a prompt, a model message, reasoning or a tool's arguments."""

MAX_RESULT = 4_000
"""Characters kept of a tool's result (its full size is recorded in `result_chars`)."""

MAX_TRANSCRIPT_BYTES = 64 * 1024 * 1024
"""A transcript (or a CLI's session file) larger than this is not read."""

KINDS = ("read", "write", "shell", "search", "other")
"""Normalised tool kinds."""

STEP_TYPES = ("prompt", "model", "tool", "note")
"""What a step is: the prompt, a model turn, a tool call with its result, a parser's note."""

_KIND_NAMES: Mapping[str, str] = {
    **dict.fromkeys(("read", "read_file", "readfile", "view", "cat", "read_many_files",
                     "notebookread", "open_file", "view_file"), "read"),
    **dict.fromkeys(("write", "write_file", "writefile", "edit", "multiedit", "replace",
                     "str_replace", "str_replace_editor", "apply_patch", "patch", "notebookedit",
                     "notebook_edit", "file_change", "create_file", "edit_file", "insert",
                     "whole_file"), "write"),
    **dict.fromkeys(("bash", "shell", "run_shell_command", "command_execution", "exec",
                     "exec_command", "local_shell", "terminal", "run_command", "bashoutput"),
                    "shell"),
    **dict.fromkeys(("grep", "glob", "search", "grep_search", "search_file_content", "find",
                     "list", "ls", "list_directory", "codebase_search", "file_search", "rg",
                     "list_files", "find_files"), "search"),
}

TEST_COMMAND = re.compile(
    r"(^|[\s;&|(/'\"])(pytest|py\.test|tox|nox|unittest|(npm|pnpm|yarn)( run)? test|go test|"
    r"cargo test|make (check|test)|jest|vitest|mocha|node( --[a-z-]+([= ][^\s-]\S*)?)* --test)\b")
"""A shell command that runs tests (what `ran_tests` looks for)."""


def tool_kind(name: str) -> str:
    """The normalised kind of a tool from its raw name (`Bash` -> `shell`, `Edit` -> `write`)."""
    key = name.strip().lower().replace("-", "_")
    key = key.rsplit("__", 1)[-1].rsplit(".", 1)[-1]  # NOTE: mcp__server__tool, functions.shell
    return _KIND_NAMES.get(key, "other")


_INSTALL = re.compile(r"\b(pip3?|uv|poetry|npm|pnpm|yarn|apt-get|apt)\s+(install|add)\b")
_SEPARATORS = re.compile(r"&&|\|\||;|\||\n|⏎")


def runs_tests(command: str) -> bool:
    """Whether a shell command runs a test suite (pytest, unittest, npm test, go test...); a
    package installation that names a test tool (`pip install pytest`) does not."""
    return any(TEST_COMMAND.search(part) and not _INSTALL.search(part)
               for part in _SEPARATORS.split(command))


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """One step of a trajectory (untrusted text: escape before display)."""

    type: str
    """One of STEP_TYPES."""
    turn: int = 0
    """The model turn it belongs to (1-based; 0: before the first)."""
    time: str | None = None
    """ISO-8601 UTC time, where the CLI records one."""
    text: str = ""
    """The prompt, the model's text, or the note (cut at MAX_TEXT)."""
    reasoning: str = ""
    """The model's reasoning, where the CLI shows it (cut at MAX_TEXT)."""
    tool: str = ""
    """The tool's raw name as the CLI calls it (`Bash`, `write_file`, `command_execution`)."""
    kind: str = ""
    """The tool's normalised kind (one of KINDS)."""
    call_id: str = ""
    """The CLI's ID of the call, where it has one."""
    args: str = ""
    """The tool's raw arguments as JSON text (cut at MAX_TEXT)."""
    target: str = ""
    """What the call acts on, one line: the file (relative to the workspace) or the command."""
    result: str = ""
    """The tool's result as the model saw it (cut at MAX_RESULT)."""
    result_chars: int | None = None
    """The result's full length in characters (None: no result recorded)."""
    is_error: bool | None = None
    """Whether the tool reported a failure (None: not said)."""
    exit_code: int | None = None
    """A shell command's exit status, where reported."""
    input_tokens: int | None = None
    """Input tokens of this model turn, where reported."""
    output_tokens: int | None = None
    """Output tokens of this model turn, where reported."""
    cost_usd: float | None = None
    """Cost of this model turn, where reported."""
    wrote: str = ""
    """Files a shell command wrote, where its command shows them (`apply_patch` file headers,
    `>`/`>>` redirections, `tee`), comma-separated, relative to the workspace."""

    def __post_init__(self) -> None:
        if self.type not in STEP_TYPES:
            raise ValueError(f"step type must be one of {', '.join(STEP_TYPES)}, got {self.type!r}")
        if self.kind and self.kind not in KINDS:
            raise ValueError(f"tool kind must be one of {', '.join(KINDS)}, got {self.kind!r}")

    @property
    def runs_tests(self) -> bool:
        """A shell step whose command runs tests."""
        return self.kind == "shell" and runs_tests(self.target or self.args)


@dataclass(frozen=True, slots=True, kw_only=True)
class Header:
    """The first line of `trajectory.jsonl`."""

    trajectory_version: int = TRAJECTORY_VERSION
    """Schema version."""
    agent: str = ""
    """The agent's name."""
    parser: str = ""
    """Which parser read the transcript (the adapter's name; empty: none)."""
    parsed: bool = False
    """Whether the CLI's transcript was read (False: only the prompt and notes; read the raw
    transcript in `agent/stdout.log`)."""
    source: tuple[str, ...] = ()
    """The files it was read from, relative to the trial folder (or the CLI's session file)."""
    notes: tuple[str, ...] = ()
    """What the parser could not read or had to cut."""
    steps: int = 0
    """Number of steps that follow."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Trajectory:
    """A trajectory: header and steps."""

    header: Header
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Transcript:
    """What a parser reads: the CLI's output and where the agent worked."""

    stdout: str
    stderr: str = ""
    workspace: Path | None = None
    """The agent's workspace as it ran (paths under it are shown relative to it)."""
    home: Path | None = None
    """The trial's HOME as the agent left it (some CLIs keep their session log there)."""


@dataclass(slots=True)
class StepList:
    """A parser's growing list of steps (a builder; parsers return `tuple(StepList.steps)`)."""

    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    """Files read besides the transcript (e.g. a CLI's session log in the trial HOME)."""
    turn: int = 0
    _open: dict[str, int] = field(default_factory=dict)

    def model(self, *, text: str = "", reasoning: str = "", time: str | None = None,
              input_tokens: int | None = None, output_tokens: int | None = None,
              cost_usd: float | None = None) -> None:
        """A model turn."""
        self.turn += 1
        self.steps.append(Step(type="model", turn=self.turn, time=time, text=cut(text),
                               reasoning=cut(reasoning), input_tokens=input_tokens,
                               output_tokens=output_tokens, cost_usd=cost_usd))

    def extend_model(self, *, text: str = "", reasoning: str = "", input_tokens: int | None = None,
                     output_tokens: int | None = None) -> None:
        """More of the last model turn (a response streamed over several events); its usage is
        the latest reported (each event repeats the response's usage so far)."""
        index = max(i for i, s in enumerate(self.steps) if s.type == "model")
        step = self.steps[index]
        self.steps[index] = replace(
            step, text=cut("\n".join(t for t in (step.text, text) if t)),
            reasoning=cut("\n".join(t for t in (step.reasoning, reasoning) if t)),
            input_tokens=input_tokens if input_tokens is not None else step.input_tokens,
            output_tokens=output_tokens if output_tokens is not None else step.output_tokens)

    def call(self, tool: str, args: Any, *, call_id: str = "", time: str | None = None,
             target: str = "", kind: str | None = None) -> None:
        """A tool call (its result may follow with `result`, matched by `call_id`)."""
        if call_id:
            self._open[call_id] = len(self.steps)
        self.steps.append(Step(type="tool", turn=self.turn, time=time, tool=tool,
                               kind=kind or tool_kind(tool), call_id=call_id,
                               args=json_text(args), target=one_line(target)))

    def result(self, call_id: str, output: Any, *, is_error: bool | None = None,
               exit_code: int | None = None) -> None:
        """The result of an earlier call (a result for no known call becomes a note)."""
        index = self._open.pop(call_id, None)
        text = output if isinstance(output, str) else json_text(output, limit=None)
        if index is None:
            self.note(f"a tool result for an unknown call {call_id!r}: {text[:200]}")
            return
        step = self.steps[index]
        command = target_of(mapping(_loads(step.args)), None) or step.target
        wrote = ", ".join(shell_writes(command)) if step.kind == "shell" and not is_error else ""
        self.steps[index] = replace(step, result=cut(text, MAX_RESULT), result_chars=len(text),
                                    is_error=is_error, exit_code=exit_code, wrote=wrote)

    def note(self, text: str) -> None:
        """A parser's note, in the timeline."""
        self.steps.append(Step(type="note", turn=self.turn, text=cut(text)))

    def add_usage(self, input_tokens: int | None, output_tokens: int | None,
                  cost_usd: float | None = None) -> None:
        """Usage reported after the fact: onto the last model turn (a new empty one if none)."""
        for i in range(len(self.steps) - 1, -1, -1):
            if self.steps[i].type == "model":
                step = self.steps[i]
                self.steps[i] = replace(step, input_tokens=_add(step.input_tokens, input_tokens),
                                        output_tokens=_add(step.output_tokens, output_tokens),
                                        cost_usd=_add(step.cost_usd, cost_usd))
                return
        self.model(input_tokens=input_tokens, output_tokens=output_tokens, cost_usd=cost_usd)


_PATCH_FILE = re.compile(r"^\*\*\* (?:Add File|Update File|Move to): (?P<path>.+?)\s*$", re.MULTILINE)
_REDIRECT = re.compile(r"(?<![<>&\d])(?:\d?>>?|&>)\s*(?P<path>[^\s;&|<>()'\"`$]+)")
_TEE = re.compile(r"\btee\s+(?:-a\s+)?(?P<path>[^\s;&|<>()'\"`$-][^\s;&|<>()'\"`$]*)")


def shell_writes(command: str) -> list[str]:
    """Files a shell command visibly writes: `apply_patch` headers, `>`/`>>` redirections
    (not to /dev/* or a descriptor) and `tee` (heredoc bodies are not commands: only the first
    line of each heredoc's command is searched for redirections)."""
    text = command.replace(" ⏎ ", "\n")
    found = [m["path"] for m in _PATCH_FILE.finditer(text)]
    heads = _outside_heredocs(text)
    found += [m["path"] for m in _REDIRECT.finditer(heads) if not m["path"].startswith(("/dev/", "&"))]
    found += [m["path"] for m in _TEE.finditer(heads) if not m["path"].startswith("/dev/")]
    return list(dict.fromkeys(p.removeprefix("./") for p in found))


_HEREDOC = re.compile(r"<<-?\s*(['\"]?)(?P<tag>\w+)\1")


def _outside_heredocs(text: str) -> str:
    """The command's lines that are not heredoc bodies."""
    kept, tag = [], None
    for line in text.splitlines():
        if tag is not None:
            tag = None if line.strip() == tag else tag
            continue
        kept.append(line)
        match = _HEREDOC.search(line)
        tag = match["tag"] if match else None
    return "\n".join(kept)


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _add(a: Any, b: Any) -> Any:
    if b is None:
        return a
    return b if a is None else a + b


def cut(text: str, limit: int = MAX_TEXT) -> str:
    """`text` cut to `limit` characters, saying how much was left out."""
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[... {len(text) - limit} more characters cut by AgentBench]"


def one_line(text: str, limit: int = 300) -> str:
    """`text` on one line (newlines shown as ⏎), cut to `limit` characters."""
    flat = text.replace("\r\n", "\n").replace("\n", " ⏎ ").strip()
    return flat if len(flat) <= limit else flat[:limit] + "…"


def json_text(value: Any, limit: int | None = MAX_TEXT) -> str:
    """A value as compact JSON text (a string stays as it is), cut to `limit` characters."""
    if value is None:
        return ""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return cut(text, limit) if limit else text


_PATH_KEYS = ("file_path", "filePath", "path", "notebook_path", "file", "filename", "absolute_path",
              "dir_path", "directory")
_COMMAND_KEYS = ("command", "cmd", "commands")
_QUERY_KEYS = ("pattern", "query", "regex", "url", "description")


def target_of(args: Any, workspace: Path | None) -> str:
    """What a call acts on, from its arguments: the file (relative), the command or the query."""
    if not isinstance(args, dict):
        return ""
    for key in _COMMAND_KEYS:
        value = args.get(key)
        if isinstance(value, list):
            value = " ".join(map(str, value))
        if isinstance(value, str) and value:
            return value
    for key in _PATH_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value:
            return relative(value, workspace)
    for key in _QUERY_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


_TRIAL_WORKSPACE = re.compile(r"^/(?:[^/]+/)*agentbench-trial-[^/]+/workspace(?:/(?P<rest>.*))?$")


def relative(path: str, workspace: Path | None) -> str:
    """`path` relative to the workspace when it lies under it (else as given). Without a known
    workspace (a trajectory rebuilt by `regrade`), a trial workspace's usual place is recognised."""
    if not path:
        return path
    if workspace is None:
        match = _TRIAL_WORKSPACE.match(path)
        return match["rest"] or "." if match else path
    for root in {str(workspace), str(workspace.resolve())}:
        if path == root:
            return "."
        if path.startswith(root.rstrip("/") + "/"):
            return path[len(root.rstrip("/")) + 1:]
    return path


def mapping(value: Any) -> dict[str, Any]:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def listing(value: Any) -> list[Any]:
    """`value` when it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def number(value: Any) -> int | None:
    """An int from JSON (bools and anything else: None)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def money(value: Any) -> float | None:
    """A float from JSON (bools and anything else: None)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def text_of(value: Any) -> str:
    """Text from a string, or from a list of content blocks (`{"type": "text", "text": ...}`)."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = [text_of(v.get("text", v.get("content", ""))) if isinstance(v, dict) else text_of(v)
                 for v in value]
        return "\n".join(p for p in parts if p)
    if isinstance(value, dict):
        return text_of(value.get("text") or value.get("output") or value.get("content") or "")
    return "" if value is None else json_text(value, limit=None)


def to_json_line(value: Header | Step) -> str:
    """One JSON line of a header or a step (a step's empty fields are left out)."""
    if isinstance(value, Header):
        body = {f.name: getattr(value, f.name) for f in fields(value)}
        body["source"], body["notes"] = list(value.source), list(value.notes)
    else:
        body = {f.name: getattr(value, f.name) for f in fields(value)
                if getattr(value, f.name) is not None and getattr(value, f.name) != ""}
    return json.dumps(body, ensure_ascii=False)


def dumps(trajectory: Trajectory) -> str:
    """The text of `trajectory.jsonl`."""
    header = replace(trajectory.header, steps=len(trajectory.steps))
    return "\n".join([to_json_line(header), *(to_json_line(s) for s in trajectory.steps)]) + "\n"


class TrajectoryError(ValueError):
    """A trajectory file that is not one (wrong version, malformed line)."""


def header_from(data: Any) -> Header:
    """A header from its JSON object (raises TrajectoryError)."""
    if not isinstance(data, dict) or data.get("trajectory_version") != TRAJECTORY_VERSION:
        version = data.get("trajectory_version") if isinstance(data, dict) else None
        raise TrajectoryError(f"not a trajectory of version {TRAJECTORY_VERSION} (found {version!r})")
    try:
        return Header(trajectory_version=TRAJECTORY_VERSION, agent=str(data.get("agent", "")),
                      parser=str(data.get("parser", "")), parsed=bool(data.get("parsed")),
                      source=tuple(map(str, data.get("source") or ())),
                      notes=tuple(map(str, data.get("notes") or ())),
                      steps=int(data.get("steps") or 0))
    except (TypeError, ValueError) as exc:
        raise TrajectoryError(f"malformed header: {exc}") from None


_STEP_TYPES = {f.name: f.type for f in fields(Step)}


def step_from(data: Any) -> Step:
    """A step from its JSON object (raises TrajectoryError on a wrong field or type)."""
    if not isinstance(data, dict):
        raise TrajectoryError("a step is not a JSON object")
    unknown = set(data) - set(_STEP_TYPES)
    if unknown:
        raise TrajectoryError(f"unknown step field(s): {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {}
    for name, value in data.items():
        if value is not None and not _type_ok(_STEP_TYPES[name], value):
            raise TrajectoryError(f"step field {name!r}: unexpected {type(value).__name__}")
        values[name] = float(value) if name == "cost_usd" and value is not None else value
    try:
        return Step(**values)
    except (TypeError, ValueError) as exc:
        raise TrajectoryError(str(exc)) from None


def _type_ok(declared: Any, value: Any) -> bool:
    declared = str(declared)
    if "bool" in declared:
        return isinstance(value, bool)
    if "float" in declared:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if "int" in declared:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def iter_lines(path: Path) -> Iterator[str]:
    """The lines of a file, read without following a symlink (a regular file only)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with os.fdopen(fd, "r", encoding="utf-8", errors="replace") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise TrajectoryError(f"{path} is not a regular file")
        yield from handle


def read_header(path: Path) -> Header:
    """Only the header of a trajectory file (cheap: one line)."""
    for line in iter_lines(path):
        return header_from(_json(line, 1))
    raise TrajectoryError(f"{path} is empty")


def read_steps(path: Path, start: int = 0, limit: int | None = None) -> tuple[Header, tuple[Step, ...]]:
    """The header and steps `start`..`start + limit` of a trajectory file (raises TrajectoryError
    or OSError); only the lines asked for are decoded, so a page of a long trajectory is cheap."""
    header: Header | None = None
    steps: list[Step] = []
    for number_, line in enumerate(iter_lines(path)):
        if header is None:
            header = header_from(_json(line, 1))
            continue
        index = number_ - 1
        if index < start or not line.strip():
            continue
        if limit is not None and len(steps) >= limit:
            break
        steps.append(step_from(_json(line, number_ + 1)))
    if header is None:
        raise TrajectoryError(f"{path} is empty")
    return header, tuple(steps)


def _json(line: str, number_: int) -> Any:
    try:
        return json.loads(line)
    except ValueError as exc:
        raise TrajectoryError(f"line {number_}: not JSON ({exc})") from None


def read_text_capped(path: Path, limit: int = MAX_TRANSCRIPT_BYTES) -> str | None:
    """A file's text when it is a regular file (not a link) of at most `limit` bytes, else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
                return None
            return handle.read(limit + 1)[:limit].decode("utf-8", errors="replace")
    except OSError:
        return None


def safe_children(folder: Path, *, dirs: bool, limit: int = 200) -> list[Path]:
    """Entries of `folder` that are real folders (`dirs`) or regular files, never symlinks,
    sorted by name; at most `limit` (a folder the agent filled is not walked whole)."""
    try:
        if folder.is_symlink() or not folder.is_dir():
            return []
        with os.scandir(folder) as entries:
            found = []
            for i, entry in enumerate(entries):
                if i >= 10 * limit:
                    break
                ok = entry.is_dir(follow_symlinks=False) if dirs else entry.is_file(follow_symlinks=False)
                if ok:
                    found.append(Path(entry.path))
        return sorted(found)[:limit]
    except OSError:
        return []


def safe_descend(root: Path, parts: Sequence[str]) -> Path | None:
    """`root/parts...` when every component is a real folder (no symlink on the way), else None."""
    path = root
    for part in parts:
        path = path / part
        if path.is_symlink() or not path.is_dir():
            return None
    return path
