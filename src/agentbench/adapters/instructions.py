"""Instruction files that agent CLIs pick up from the folders above their working folder.

Claude Code reads `CLAUDE.md` up to `/`, OpenCode `AGENTS.md` up to the project root, Codex, Gemini
CLI and Qwen Code up to the nearest `.git`, and other agents have their own names (`.cursorrules`,
`CONVENTIONS.md`, ...). A file left above a trial folder would change that agent's prompt on every
trial. Each built-in adapter switches the search off in its per-trial settings (see its module);
for agents the harness cannot configure (the generic `command` agent, third-party adapters) the
trial folder must have no such file above it: `instruction_files_above` finds them, so a run can
refuse to start (or place its trials elsewhere) before any agent sees one.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

INSTRUCTION_FILES = (
    "AGENTS.md", "AGENT.md", "CLAUDE.md", "CLAUDE.local.md", ".claude", "GEMINI.md", ".gemini",
    "QWEN.md", ".qwen", ".codex", ".opencode", "opencode.json", "opencode.jsonc", ".cursorrules",
    ".cursor", ".clinerules", ".windsurfrules", "CONVENTIONS.md", ".aider.conf.yml",
    ".github/copilot-instructions.md", ".git",
)
"""Names (files or folders) that agent CLIs read from a working folder's ancestors. `.git` is among
them because Codex, Gemini CLI and Qwen Code take the nearest one as the top of the project, and
Qwen Code reads `.qwen/rules/` there."""


def instruction_files_above(folder: Path) -> tuple[Path, ...]:
    """Every `INSTRUCTION_FILES` entry in the ancestors of `folder` (not `folder` itself), up to `/`.

    Links are not followed: a name that exists as anything (file, folder, link) counts.
    """
    found = []
    for parent in Path(os.path.abspath(folder)).parents:
        for name in INSTRUCTION_FILES:
            candidate = parent / name
            try:
                mode = os.lstat(candidate).st_mode
            except OSError:
                continue
            if stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode):
                found.append(candidate)
    return tuple(found)
