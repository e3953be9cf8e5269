"""`assert.ok(...)` and `assert.match(value, /re/)` as canary sites of node:test hidden tests.

- `assert.match(value, /re/)`: the canary expects a regular expression with one or two of its plain
  letters or digits changed (never inside an escape, a class `[...]`, a quantifier `{...}` or a
  group name), which the reference's value must not match (the survey checks it). Two changed of at
  least three plain letters or digits make a strong canary, as for a string.
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

_ESCAPE_RUN = {"x": 2, "u": 4, "c": 1}
"""Characters an escape `\\x41`, `\\u0041`, `\\cA` takes after its letter."""


def plain_positions(pattern: str) -> list[int]:
    """Indexes of the letters and digits of a regular expression's source that stand for themselves."""
    found, i = [], 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i = _after_escape(pattern, i)
            continue
        if char == "[":
            i = _after_class(pattern, i)
            continue
        if char == "{" or (pattern.startswith("(?<", i) and pattern[i + 3:i + 4] not in ("=", "!")):
            end = pattern.find("}" if char == "{" else ">", i)
            i = len(pattern) if end < 0 else end + 1
            continue
        if char.isascii() and char.isalnum():
            found.append(i)
        i += 1
    return found


def _after_escape(pattern: str, i: int) -> int:
    letter = pattern[i + 1:i + 2]
    if letter in ("u", "p", "P", "k") and pattern[i + 2:i + 3] in ("{", "<"):
        end = pattern.find("}" if pattern[i + 2] == "{" else ">", i)
        return len(pattern) if end < 0 else end + 1
    return i + 2 + _ESCAPE_RUN.get(letter, 0)


def _after_class(pattern: str, i: int) -> int:
    j = i + 1
    while j < len(pattern) and pattern[j] != "]":
        j += 2 if pattern[j] == "\\" else 1
    return j + 1


def regex_parts(token: str) -> tuple[str, str] | None:
    """(pattern, flags) of a regular expression literal's text."""
    match = re.fullmatch(r"/(.*)/([a-z]*)", token, re.S)
    return (match.group(1), match.group(2)) if match else None


def regex_strength(token: str) -> str | None:
    """`strong` (at least three plain letters or digits), `weak` (one or two) or None."""
    parts = regex_parts(token)
    if parts is None or "v" in parts[1]:
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
