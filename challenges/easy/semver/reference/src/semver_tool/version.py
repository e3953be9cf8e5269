"""The :class:`Version` value type implementing Semantic Versioning 2.0.0."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import total_ordering

BUMP_PARTS = ("major", "minor", "patch", "prerelease")

_NUMBER = r"0|[1-9][0-9]*"
_IDENTIFIERS = r"[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*"
VERSION_PATTERN = re.compile(
    rf"(?P<major>{_NUMBER})\.(?P<minor>{_NUMBER})\.(?P<patch>{_NUMBER})"
    rf"(?:-(?P<prerelease>{_IDENTIFIERS}))?(?:\+(?P<build>{_IDENTIFIERS}))?"
)
IDENTIFIER_PATTERN = re.compile(r"[0-9A-Za-z-]+")
NUMERIC_PATTERN = re.compile(r"[0-9]+")

# Sort key of one pre-release identifier: numeric identifiers sort before alphanumeric ones.
IdentifierKey = tuple[int, int, str]


def _is_numeric(identifier: str) -> bool:
    """Return True if the identifier consists of ASCII digits only."""
    return NUMERIC_PATTERN.fullmatch(identifier) is not None


def _identifier_key(identifier: str) -> IdentifierKey:
    """Precedence key of one pre-release identifier."""
    if _is_numeric(identifier):
        return (0, int(identifier), "")
    return (1, 0, identifier)


def _check_number(name: str, value: object) -> None:
    """Validate a major/minor/patch component."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"{name} must be a non-negative integer, got {value!r}")


def _check_identifiers(kind: str, identifiers: tuple[str, ...]) -> None:
    """Validate pre-release or build identifiers (no leading zeros in numeric pre-release ids)."""
    for identifier in identifiers:
        if not isinstance(identifier, str) or not IDENTIFIER_PATTERN.fullmatch(identifier):
            raise ValueError(f"invalid {kind} identifier: {identifier!r}")
        if kind == "prerelease" and _is_numeric(identifier) and identifier != str(int(identifier)):
            raise ValueError(f"numeric prerelease identifier has a leading zero: {identifier!r}")


def _split(identifiers: str | None) -> tuple[str, ...]:
    """Split a dot-separated identifier list; ``None`` gives an empty tuple."""
    return tuple(identifiers.split(".")) if identifiers else ()


@total_ordering
@dataclass(frozen=True, eq=False)
class Version:
    """An immutable semantic version; comparisons follow SemVer precedence (build ignored)."""

    major: int
    minor: int
    patch: int
    prerelease: tuple[str, ...] = ()
    build: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("major", "minor", "patch"):
            _check_number(name, getattr(self, name))
        object.__setattr__(self, "prerelease", tuple(self.prerelease))
        object.__setattr__(self, "build", tuple(self.build))
        _check_identifiers("prerelease", self.prerelease)
        _check_identifiers("build", self.build)

    @classmethod
    def parse(cls, text: str) -> Version:
        """Parse a SemVer 2.0.0 string; raise ``ValueError`` if it is not valid."""
        if not isinstance(text, str):
            raise TypeError(f"expected str, got {type(text).__name__}")
        match = VERSION_PATTERN.fullmatch(text)
        if match is None:
            raise ValueError(f"invalid semantic version: {text!r}")
        return cls(
            int(match["major"]),
            int(match["minor"]),
            int(match["patch"]),
            _split(match["prerelease"]),
            _split(match["build"]),
        )

    def __str__(self) -> str:
        text = f"{self.major}.{self.minor}.{self.patch}"
        if self.prerelease:
            text += "-" + ".".join(self.prerelease)
        if self.build:
            text += "+" + ".".join(self.build)
        return text

    def precedence_key(self) -> tuple[int, int, int, int, tuple[IdentifierKey, ...]]:
        """Key whose natural ordering is SemVer precedence."""
        release_flag = 0 if self.prerelease else 1
        identifiers = tuple(_identifier_key(item) for item in self.prerelease)
        return (self.major, self.minor, self.patch, release_flag, identifiers)

    def compare(self, other: Version) -> int:
        """Return -1, 0 or 1 as this version has lower, equal or higher precedence."""
        mine, theirs = self.precedence_key(), other.precedence_key()
        return (mine > theirs) - (mine < theirs)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self.compare(other) == 0

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return self.compare(other) < 0

    def __hash__(self) -> int:
        return hash(self.precedence_key())

    def bump(self, part: str) -> Version:
        """Return the next version for ``part`` (one of :data:`BUMP_PARTS`); build is dropped."""
        bumpers: dict[str, Callable[[], Version]] = {
            "major": lambda: Version(self.major + 1, 0, 0),
            "minor": lambda: Version(self.major, self.minor + 1, 0),
            "patch": lambda: Version(self.major, self.minor, self.patch + 1),
            "prerelease": self._bump_prerelease,
        }
        if part not in bumpers:
            raise ValueError(f"unknown part {part!r}; expected one of {', '.join(BUMP_PARTS)}")
        return bumpers[part]()

    def _bump_prerelease(self) -> Version:
        """Next pre-release: start ``-0`` on the next patch, or count up the last identifier."""
        if not self.prerelease:
            return Version(self.major, self.minor, self.patch + 1, ("0",))
        *head, last = self.prerelease
        tail = [str(int(last) + 1)] if _is_numeric(last) else [last, "0"]
        return Version(self.major, self.minor, self.patch, (*head, *tail))


def _coerce(value: str | Version) -> Version:
    """Parse strings; pass versions through."""
    return value if isinstance(value, Version) else Version.parse(value)


def compare(a: str | Version, b: str | Version) -> int:
    """Compare two versions (strings are parsed); return -1, 0 or 1."""
    return _coerce(a).compare(_coerce(b))


def sort_versions(versions: Iterable[Version], reverse: bool = False) -> list[Version]:
    """Sort by precedence; versions of equal precedence keep their input order."""
    return sorted(versions, key=Version.precedence_key, reverse=reverse)
