"""Secure password generation library.

Typical use::

    from password_gen import PasswordPolicy, generate_password
    generate_password(PasswordPolicy(length=20, symbols=False))
"""

from password_gen.generator import (
    AMBIGUOUS,
    DIGITS,
    LOWERCASE,
    MAX_LENGTH,
    SYMBOLS,
    UPPERCASE,
    PasswordError,
    PasswordPolicy,
    character_pool,
    estimate_entropy,
    generate_password,
    generate_passwords,
    validate_policy,
)

__all__ = [
    "AMBIGUOUS",
    "DIGITS",
    "LOWERCASE",
    "MAX_LENGTH",
    "SYMBOLS",
    "UPPERCASE",
    "PasswordError",
    "PasswordPolicy",
    "character_pool",
    "estimate_entropy",
    "generate_password",
    "generate_passwords",
    "validate_policy",
]
