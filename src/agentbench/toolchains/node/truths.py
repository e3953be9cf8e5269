"""`assert.ok(...)` and `assert.match(value, /re/)` as canary sites of node:test hidden tests.

- `assert.match(value, /re/)`: the canary expects the regular expression with one or two letters or
  digits of its anchored fixed text changed (`/^error: \\d+/` -> `/^qrrot: \\d+/`: only the text right
  after `^` or right before `$`, and no `|`), so no string matches both (see `plain_positions`),
  and the reference's value must not match it (the survey checks). Two changed of at least three
  make a strong canary, as for a string.
- `assert.ok(x)`: in a test with no other site, every `assert.ok(x)` of the real test and of its
  twins is written `assert.equal(!!(x), true)` (the same check: `x` is truthy), and the canary
  expects `false` at one of them: the pair differs in one boolean, as a literal twin does. A
  *common* canary, since an honest wrong product often gets a truth value wrong.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator, Sequence

from agentbench.toolchains.python.canaries import _other

_RANDOM = secrets.SystemRandom()

_SPECIAL = set("\\^$.|?*+()[]{}/")
"""Characters with a meaning in a regular expression (the end of a fixed prefix or suffix)."""


def plain_positions(pattern: str) -> list[int]:
    """Indexes of the letters and digits a canary may change: those of the fixed text right after a
    leading `^` or right before a trailing `$`, in a pattern with no `|`. A string matching the real
    pattern has the original characters at those fixed offsets from its start or end, so it never
    matches the canary: an honest product cannot pass both twins."""
    if "|" in pattern:
        return []
    found: list[int] = []
    if pattern.startswith("^"):
        i = 1
        while i < len(pattern) and pattern[i] not in _SPECIAL \
                and not (i + 1 < len(pattern) and pattern[i + 1] in "?*+{"):
            found.append(i)
            i += 1
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        k = len(pattern) - 2
        while k > 0 and pattern[k] not in _SPECIAL and pattern[k - 1] != "\\":
            found.append(k)
            k -= 1
    return sorted(i for i in set(found) if pattern[i].isascii() and pattern[i].isalnum())


def regex_parts(token: str) -> tuple[str, str] | None:
    """(pattern, flags) of a regular expression literal's text."""
    match = re.fullmatch(r"/(.*)/([a-z]*)", token, re.S)
    return (match.group(1), match.group(2)) if match else None


def regex_strength(token: str) -> str | None:
    """`strong` (at least three plain letters or digits), `weak` (one or two) or None."""
    parts = regex_parts(token)
    if parts is None or set(parts[1]) & set("vmgy"):  # multiline: another line could match the canary
        return None
    count = len(plain_positions(parts[0]))
    return "strong" if count >= 3 else "weak" if count else None


def mutate_regex(token: str) -> str:
    """The literal with two plain letters or digits changed (one if it has fewer than three)."""
    parts = regex_parts(token)
    assert parts is not None
    pattern, flags = parts
    plain = plain_positions(pattern)
    digits = [i for i in plain if pattern[i].isdigit()]
    chosen = digits if len(digits) >= 3 else plain
    chars = list(pattern)
    for i in _RANDOM.sample(chosen, 2 if len(plain) >= 3 else 1):
        chars[i] = _other(chars[i])  # within its class: a letter is never changed to its other case
    return f"/{''.join(chars)}/{flags}"


def truth_sites(texts: Sequence[str], start: int, end: int) -> Iterator[int]:
    """Indexes of the `ok` of each `assert . ok (` in token texts [start, end)."""
    for i in range(max(start, 2), end - 1):
        if texts[i] == "ok" and texts[i - 1] == "." and texts[i - 2] == "assert" and texts[i + 1] == "(":
            yield i
