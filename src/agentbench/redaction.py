"""Keeping secrets out of results: API keys and secret-named variables are redacted everywhere.

Any environment variable (of AgentBench's own environment or an agent's configured `env`) whose
name looks like a secret (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL, AUTH...) and whose value is at
least 6 characters long is a secret. After each trial, every file of the trial folder (prompt,
transcripts, logs, the archived workspace, reports) and every text field of the trial record has
each secret value replaced by `[REDACTED:NAME]`, even when the agent printed or wrote it itself.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

SECRET_NAME = re.compile(
    r"(KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|AUTH|PRIVATE|SESSION|COOKIE|BEARER)", re.IGNORECASE)
"""Names of variables whose values are treated as secrets."""

MIN_SECRET_LENGTH = 6
"""Shorter values are left alone: redacting "1" or "true" would garble everything."""

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Files larger than this are not rewritten (output caps keep logs well below it)."""


@dataclass(frozen=True, slots=True)
class Secret:
    """A secret value and the name it is shown under once redacted."""

    name: str
    value: str

    @property
    def marker(self) -> str:
        """What replaces the value."""
        return f"[REDACTED:{self.name}]"


def find_secrets(*sources: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[Secret, ...]:
    """Secrets among (name, value) pairs, longest values first (so no partial replacement wins)."""
    found: dict[str, Secret] = {}
    for source in sources:
        pairs = source.items() if isinstance(source, Mapping) else source
        for name, value in pairs:
            if SECRET_NAME.search(name) and len(value) >= MIN_SECRET_LENGTH:
                found.setdefault(value, Secret(name, value))
    return tuple(sorted(found.values(), key=lambda s: -len(s.value)))


def environment_secrets(extra: Iterable[tuple[str, str]] = ()) -> tuple[Secret, ...]:
    """Secrets of this process's environment plus `extra` pairs (e.g. agents' configured env)."""
    return find_secrets(dict(os.environ), extra)


def redact_text(text: str, secrets: Iterable[Secret]) -> str:
    """`text` with every secret value (and its JSON-escaped form) replaced by its marker."""
    for secret in secrets:
        text = text.replace(secret.value, secret.marker)
        escaped = json.dumps(secret.value)[1:-1]
        if escaped != secret.value:
            text = text.replace(escaped, secret.marker)
    return text


def redact_tree(root: Path, secrets: tuple[Secret, ...]) -> int:
    """Rewrite every regular file under `root` that holds a secret; return how many were changed."""
    if not secrets or not root.is_dir():
        return 0
    needles = [(s.value.encode(), s.marker.encode()) for s in secrets]
    changed = 0
    for dirpath, _, filenames in os.walk(root, followlinks=False):
        for name in filenames:
            path = Path(dirpath) / name
            if path.is_symlink() or path.stat().st_size > MAX_FILE_BYTES:
                continue
            data = path.read_bytes()
            cleaned = data
            for value, marker in needles:
                cleaned = cleaned.replace(value, marker)
            if cleaned != data:
                tmp = path.with_name(f".{name}.redacting")
                tmp.write_bytes(cleaned)
                os.replace(tmp, path)
                changed += 1
    return changed
