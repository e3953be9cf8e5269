"""What the scripted model does: write these files with the CLI's own tools, then say a final message.

The server is stateless: each request carries the whole conversation, so the next step is decided by
how many tool results the conversation already holds (0 -> write file 1, 1 -> write file 2, ...,
n -> final message). Every reply reports the script's fixed token usage, so tests can check that an
adapter recorded exactly what the server said.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from agentbench.errors import ConfigError

DEFAULT_FINAL_MESSAGE = "Done: all files written."


@dataclass(frozen=True, slots=True, kw_only=True)
class ScriptedFile:
    """A file the model asks the agent to write."""

    path: str
    """Path relative to the agent's working directory."""
    content: str
    """Full file content."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Script:
    """The scripted model's behaviour."""

    files: tuple[ScriptedFile, ...]
    """Files to write, one tool call each, in order."""
    final_message: str = DEFAULT_FINAL_MESSAGE
    """The last assistant message."""
    input_tokens: int = 100
    """Input tokens reported for every model call."""
    output_tokens: int = 20
    """Output tokens reported for every model call."""
    fail_status: int | None = None
    """Answer every request with this HTTP status and an error body instead (a failing endpoint:
    500-599, 429 rate limit, 401/403 key refused); None: answer normally."""

    def __post_init__(self) -> None:
        if self.fail_status is not None and not 400 <= self.fail_status <= 599:
            raise ValueError(f"fail_status must be an HTTP error status (400-599), got {self.fail_status}")


class WriteFile(NamedTuple):
    """Next step: ask the agent to write `file` (the `index`-th of the script)."""

    index: int  # type: ignore[assignment]  # NOTE: shadows tuple.index on purpose: the step number
    file: ScriptedFile


class Final(NamedTuple):
    """Next step: answer with the final message and no tool call."""

    text: str


def next_action(script: Script, tool_results_seen: int) -> WriteFile | Final:
    """The step after `tool_results_seen` tool results in the conversation."""
    if tool_results_seen < len(script.files):
        return WriteFile(tool_results_seen, script.files[tool_results_seen])
    return Final(script.final_message)


def load_script(path: Path) -> Script:
    """Read a script from JSON: {"files": [{"path": ..., "content": ...}], "final_message": ...}."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        files = tuple(ScriptedFile(path=f["path"], content=f["content"]) for f in data["files"])
        return Script(files=files, final_message=data.get("final_message", DEFAULT_FINAL_MESSAGE),
                      input_tokens=int(data.get("input_tokens", 100)),
                      output_tokens=int(data.get("output_tokens", 20)),
                      fail_status=data.get("fail_status"))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"{path}: not a model-server script: {exc}",
                          'expected {"files": [{"path": "a.py", "content": "..."}]}') from None


def script_from_directory(root: Path) -> Script:
    """A script that writes every regular file under `root` (e.g. a challenge's reference)."""
    files = tuple(
        ScriptedFile(path=str(p.relative_to(root)), content=p.read_text(encoding="utf-8"))
        for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts
    )
    return Script(files=files)
