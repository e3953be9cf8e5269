"""Core password generation: policies, character pools, generation and entropy."""

from __future__ import annotations

import math
import secrets
from dataclasses import dataclass
from typing import Any, MutableSequence, Protocol, Sequence

UPPERCASE = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWERCASE = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
SYMBOLS = "!@#$%^&*()-_=+[]{};:,.<>?"
AMBIGUOUS = "Il1O0"
MAX_LENGTH = 1024


class PasswordError(ValueError):
    """Raised for an invalid password policy or an invalid count."""


class RandomSource(Protocol):
    """The subset of the ``random.Random`` interface the generator uses."""

    def choice(self, seq: Sequence[Any]) -> Any:
        """Return one element of ``seq``."""

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle ``x`` in place."""


@dataclass(frozen=True)
class PasswordPolicy:
    """Which characters a password may contain and how long it is.

    The policy itself does not validate; :func:`validate_policy` does.
    """

    length: int = 16
    upper: bool = True
    lower: bool = True
    digits: bool = True
    symbols: bool = True
    exclude_ambiguous: bool = False


def _is_int(value: object) -> bool:
    """Return True for real integers (``bool`` excluded)."""
    return isinstance(value, int) and not isinstance(value, bool)


def character_classes(policy: PasswordPolicy) -> list[str]:
    """Return the enabled character classes, ambiguous characters removed if requested.

    Classes appear in the order upper, lower, digits, symbols.
    """
    flags = (policy.upper, policy.lower, policy.digits, policy.symbols)
    sets = (UPPERCASE, LOWERCASE, DIGITS, SYMBOLS)
    classes = [chars for enabled, chars in zip(flags, sets) if enabled]
    if policy.exclude_ambiguous:
        classes = [_without_ambiguous(chars) for chars in classes]
    return classes


def _without_ambiguous(chars: str) -> str:
    """Return ``chars`` with every character of :data:`AMBIGUOUS` removed."""
    return "".join(c for c in chars if c not in AMBIGUOUS)


def validate_policy(policy: PasswordPolicy) -> None:
    """Raise :class:`PasswordError` unless ``policy`` can produce a password."""
    classes = character_classes(policy)
    if not classes:
        raise PasswordError("at least one character class must be enabled")
    if not _is_int(policy.length):
        raise PasswordError(f"length must be an integer, got {policy.length!r}")
    if policy.length < len(classes):
        raise PasswordError(
            f"length must be at least {len(classes)} (one character per enabled class), "
            f"got {policy.length}"
        )
    if policy.length > MAX_LENGTH:
        raise PasswordError(f"length must be at most {MAX_LENGTH}, got {policy.length}")


def character_pool(policy: PasswordPolicy) -> str:
    """Return every character a password under ``policy`` may contain."""
    classes = character_classes(policy)
    if not classes:
        raise PasswordError("at least one character class must be enabled")
    return "".join(classes)


def _default_rng() -> RandomSource:
    """Return a cryptographically secure random source."""
    return secrets.SystemRandom()


def generate_password(
    policy: PasswordPolicy | None = None, rng: RandomSource | None = None
) -> str:
    """Generate one password containing at least one character of each enabled class."""
    policy = policy or PasswordPolicy()
    validate_policy(policy)
    rng = rng or _default_rng()
    classes = character_classes(policy)
    pool = "".join(classes)
    chars = [rng.choice(chars) for chars in classes]
    chars += [rng.choice(pool) for _ in range(policy.length - len(classes))]
    rng.shuffle(chars)
    return "".join(chars)


def generate_passwords(
    count: int, policy: PasswordPolicy | None = None, rng: RandomSource | None = None
) -> list[str]:
    """Generate ``count`` independent passwords under ``policy``."""
    if not _is_int(count) or count < 1:
        raise PasswordError(f"count must be a positive integer, got {count!r}")
    policy = policy or PasswordPolicy()
    validate_policy(policy)
    rng = rng or _default_rng()
    return [generate_password(policy, rng) for _ in range(count)]


def estimate_entropy(policy: PasswordPolicy | None = None) -> float:
    """Return ``length * log2(pool size)``, the entropy in bits of a password under ``policy``."""
    policy = policy or PasswordPolicy()
    validate_policy(policy)
    return policy.length * math.log2(len(character_pool(policy)))
