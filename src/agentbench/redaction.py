"""Keeping secrets out of results: API keys and secret-named variables are redacted everywhere.

Any environment variable (of AgentBench's own environment or an agent's configured `env`) whose
name looks like a secret (KEY, TOKEN, SECRET, PASSWORD, CREDENTIAL, AUTH...) and whose value is at
least 6 characters long is a secret, and so is the password of the run's database URL (`--db` or
`$AGENTBENCH_DB`, e.g. postgresql://user:PASSWORD@host/db). After each trial, every
file of the trial folder (prompt, transcripts, logs, the archived workspace, reports) and every text
field of the trial record has each secret replaced by `[REDACTED:NAME]`, even when the agent printed or wrote it itself, and so do
the names of files, folders and links (which are renamed) and link targets.

Besides the value itself, its simple encodings are found too: JSON-escaped, reversed, hex (lower and
upper case) and base64 (standard and URL-safe alphabets, with and without padding). Because a secret
embedded in a longer base64 text is encoded differently at each of the 3 byte offsets, each offset's
stable part (the characters that depend on the secret's bytes alone) is matched as well; at most a
character or two at either end of such a run, which also depend on the neighbouring bytes, remain.
"""

from __future__ import annotations

import base64
import json
import os
import re
import urllib.parse
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

SECRET_NAME = re.compile(
    r"(KEY|TOKEN|SECRET|PASSW(OR)?D|CREDENTIAL|AUTH|PRIVATE|SESSION|COOKIE|BEARER)", re.IGNORECASE)
"""Names of variables whose values are treated as secrets."""

MIN_SECRET_LENGTH = 6
"""Shorter values are left alone: redacting "1" or "true" would garble everything."""

MAX_FILE_BYTES = 64 * 1024 * 1024
"""Files larger than this are not rewritten (output caps and the archive cap keep every file of a
trial folder below it)."""


@dataclass(frozen=True, slots=True)
class Secret:
    """A secret value and the name it is shown under once redacted."""

    name: str
    value: str
    forms: tuple[str, ...] = field(default=(), compare=False, repr=False)
    """The value and each encoding of it that is redacted (computed from the value)."""

    def __post_init__(self) -> None:
        if not self.forms:
            object.__setattr__(self, "forms", encodings(self.value))

    @property
    def marker(self) -> str:
        """What replaces the value."""
        return f"[REDACTED:{self.name}]"


def encodings(value: str) -> tuple[str, ...]:
    """`value` and the forms it may take in text: JSON-escaped, reversed, hex and base64 variants."""
    raw = value.encode()
    forms = [value, value[::-1], raw.hex(), raw.hex().upper()]
    forms += [json.dumps(v)[1:-1] for v in (value, value[::-1])]
    for encode in (base64.b64encode, base64.urlsafe_b64encode):
        whole = encode(raw).decode()
        forms += [whole, whole.rstrip("=")]
        forms += [_stable_part(encode, raw, offset) for offset in range(3)]
    return tuple(sorted({f for f in forms if len(f) >= MIN_SECRET_LENGTH}, key=lambda f: (-len(f), f)))


def _stable_part(encode: Callable[[bytes], bytes], raw: bytes, offset: int) -> str:
    """The base64 characters that depend only on `raw` when it starts `offset` bytes into a 3-byte
    group: the first characters also carry the bytes before it, the last ones the bytes after."""
    text = encode(b"\0" * offset + raw).decode()
    total = offset + len(raw)
    return text[(0, 2, 3)[offset]:total // 3 * 4 + total % 3]


def find_secrets(*sources: Mapping[str, str] | Iterable[tuple[str, str]]) -> tuple[Secret, ...]:
    """Secrets among (name, value) pairs, longest values first (so no partial replacement wins)."""
    found: dict[str, Secret] = {}
    for source in sources:
        pairs = source.items() if isinstance(source, Mapping) else source
        for name, value in pairs:
            if SECRET_NAME.search(name) and len(value) >= MIN_SECRET_LENGTH:
                found.setdefault(value, Secret(name, value))
    return tuple(sorted(found.values(), key=lambda s: -len(s.value)))


def url_secrets(name: str, url: str) -> tuple[Secret, ...]:
    """The password of `url` (a database URL), as written and percent-decoded, as secrets.

    NOTE: a password equal to the URL's user name is left alone: the user name is printed anyway
    (`postgresql://agentbench:***@...`), and redacting a word that common would garble every path."""
    try:
        parts = urllib.parse.urlsplit(url)
        username = parts.username
    except ValueError:
        return ()
    raw = parts.netloc.rpartition("@")[0].partition(":")[2]
    forms = {raw, urllib.parse.unquote(raw)} - {"", username or ""}
    return tuple(Secret(f"{name} password", form) for form in sorted(forms, key=len, reverse=True)
                 if len(form) >= MIN_SECRET_LENGTH)


def environment_secrets(extra: Iterable[tuple[str, str]] = ()) -> tuple[Secret, ...]:
    """Secrets of this process's environment plus `extra` pairs (e.g. agents' configured env)."""
    return find_secrets(dict(os.environ), extra)


@dataclass(frozen=True, slots=True)
class _Patterns:
    """One regular expression over every form of every secret, longest first, and their markers."""

    text: re.Pattern[str]
    raw: re.Pattern[bytes]
    markers: Mapping[str, str]

    @classmethod
    def of(cls, secrets: Iterable[Secret]) -> _Patterns | None:
        markers: dict[str, str] = {}
        for secret in secrets:
            for form in secret.forms:
                markers.setdefault(form, secret.marker)
        if not markers:
            return None
        ordered = sorted(markers, key=lambda f: (-len(f), f))
        return cls(re.compile("|".join(map(re.escape, ordered))),
                   re.compile(b"|".join(re.escape(f.encode()) for f in ordered)), markers)

    def sub_text(self, text: str) -> str:
        return self.text.sub(lambda m: self.markers[m.group(0)], text)

    def sub_bytes(self, data: bytes) -> bytes:
        return self.raw.sub(lambda m: self.markers[m.group(0).decode()].encode(), data)


def redact_text(text: str, secrets: Iterable[Secret]) -> str:
    """`text` with every secret, in each of its forms, replaced by its marker."""
    patterns = _Patterns.of(secrets)
    return patterns.sub_text(text) if patterns else text


def redact_tree(root: Path, secrets: tuple[Secret, ...]) -> int:
    """Redact every file's content, every name and every link target under `root` (links are never
    followed); return how many entries were changed."""
    patterns = _Patterns.of(secrets)
    if patterns is None or not root.is_dir():
        return 0
    changed = 0
    top = os.fsencode(root)
    for dirpath, dirnames, filenames in os.walk(top, topdown=False, followlinks=False):
        links = [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]
        for name in [*filenames, *links]:
            changed += _redact_file(os.path.join(dirpath, name), patterns)
        for name in [*filenames, *dirnames]:
            changed += _rename(dirpath, name, patterns)
    return changed


def _redact_file(path: bytes, patterns: _Patterns) -> int:
    if os.path.islink(path):
        target = os.readlink(path)
        cleaned = patterns.sub_bytes(target)
        if cleaned == target:
            return 0
        os.unlink(path)
        os.symlink(cleaned, path)
        return 1
    if not os.path.isfile(path) or os.path.getsize(path) > MAX_FILE_BYTES:
        return 0
    with open(path, "rb") as handle:
        data = handle.read()
    cleaned = patterns.sub_bytes(data)
    if cleaned == data:
        return 0
    tmp = path + b".redacting"
    with open(tmp, "wb") as handle:
        handle.write(cleaned)
    os.replace(tmp, path)
    return 1


def _rename(dirpath: bytes, name: bytes, patterns: _Patterns) -> int:
    cleaned = patterns.sub_bytes(name)
    if cleaned == name:
        return 0
    target, n = cleaned, 1
    while os.path.lexists(os.path.join(dirpath, target)):
        target, n = cleaned + b"-%d" % n, n + 1
    os.rename(os.path.join(dirpath, name), os.path.join(dirpath, target))
    return 1
