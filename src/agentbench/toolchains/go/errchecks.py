"""Error checks of Go tests as canary sites, for tests with no expected literal.

A test whose only check is whether a call failed (`_, err := Divide(1, 0); if err == nil {
t.Fatal("expected an error") }`) gets a twin with the comparison flipped (`err != nil`). So that the
pair cannot be told apart by reading it, both are rendered alike: the check must end its block
(followed by `}`, `return` or `continue`: a flipped check followed by uses of the result would read
oddly), its block may only fail the test (`t.Error`, `t.Fatalf`, ... calls), and in the real test and
in its twin every such call's arguments are replaced by the same neutral `"error check: %v", err`
(what "expected an error" or "unexpected error" would have told). The twin is a *common* canary: an
honest wrong product often errs where it should not, or the other way round.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from agentbench.toolchains.node.canaries import _close, _Tok

FAILS = frozenset({"Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow"})
_ERROR_NAME = re.compile(r"err", re.I)


@dataclass(frozen=True, slots=True)
class ErrorCheck:
    """`if err == nil {...}` / `if err != nil {...}` whose block only fails the test."""

    name: str
    """The error variable."""
    operator: int
    """Token index of `==` / `!=`."""
    arguments: tuple[tuple[int, int, str], ...]
    """(first, last) token of each failing call's arguments, and their neutral replacement."""


def flipped(operator: str) -> str:
    return "!=" if operator == "==" else "=="


def error_checks(tokens: Sequence[_Tok], span: tuple[int, int]) -> Iterator[ErrorCheck]:
    """The error checks in token `span`, in order (`if err == nil {`, `if _, err := f(); err != nil {`)."""
    for i in range(span[0], span[1] - 4):
        name = tokens[i + 1]
        if tokens[i].text not in ("if", ";") or name.kind != "id" or not _ERROR_NAME.search(name.text) \
                or tokens[i + 2].text not in ("==", "!=") or tokens[i + 3].text != "nil" or tokens[i + 4].text != "{":
            continue
        close = _close(tokens, i + 4)
        after = tokens[close + 1].text if close + 1 < len(tokens) else ""
        arguments = _failing_calls(tokens, i + 4, close, name.text)
        if arguments is not None and after in ("}", "return", "continue"):
            yield ErrorCheck(name.text, i + 2, arguments)


def _failing_calls(tokens: Sequence[_Tok], open_index: int, close: int,
                   name: str) -> tuple[tuple[int, int, str], ...] | None:
    """The arguments of the block's calls, when it holds only `x.Fatal(...)`-like calls."""
    found = []
    j = open_index + 1
    while j < close:
        if j + 3 >= close or tokens[j].kind != "id" or tokens[j + 1].text != "." \
                or tokens[j + 2].text not in FAILS or tokens[j + 3].text != "(":
            return None
        end = _close(tokens, j + 3)
        if end > j + 4:
            plain = tokens[j + 2].text in ("Error", "Fatal")
            found.append((j + 4, end - 1, f'"error check:", {name}' if plain else f'"error check: %v", {name}'))
        j = end + 1 + (end + 1 < close and tokens[end + 1].text == ";")
    return tuple(found) if j == close else None
