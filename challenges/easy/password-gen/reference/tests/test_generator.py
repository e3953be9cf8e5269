"""Unit tests for password_gen.generator."""

import math
import random

import pytest

from password_gen import (
    AMBIGUOUS,
    DIGITS,
    LOWERCASE,
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


@pytest.fixture
def rng() -> random.Random:
    return random.Random(1234)


def test_default_password_has_length_16_and_every_class(rng):
    password = generate_password(rng=rng)
    assert len(password) == 16
    for chars in (UPPERCASE, LOWERCASE, DIGITS, SYMBOLS):
        assert any(c in chars for c in password)


def test_default_rng_is_secure_and_works():
    assert len(generate_password()) == 16
    assert len(generate_passwords(2)) == 2


@pytest.mark.parametrize("length", [4, 5, 32, 1024])
def test_length_is_respected(rng, length):
    assert len(generate_password(PasswordPolicy(length=length), rng)) == length


def test_disabled_classes_never_appear(rng):
    policy = PasswordPolicy(length=50, upper=False, symbols=False)
    for password in generate_passwords(20, policy, rng):
        assert set(password) <= set(LOWERCASE + DIGITS)


def test_exclude_ambiguous(rng):
    policy = PasswordPolicy(length=64, exclude_ambiguous=True)
    for password in generate_passwords(20, policy, rng):
        assert not set(password) & set(AMBIGUOUS)


def test_same_seed_same_passwords():
    first = generate_passwords(3, rng=random.Random(7))
    second = generate_passwords(3, rng=random.Random(7))
    assert first == second


def test_pool_order_and_ambiguous_removal():
    assert character_pool(PasswordPolicy(upper=False, symbols=False)) == LOWERCASE + DIGITS
    assert character_pool(PasswordPolicy(lower=False, upper=False, symbols=False,
                                         exclude_ambiguous=True)) == "23456789"


def test_entropy():
    assert estimate_entropy() == pytest.approx(16 * math.log2(87))
    assert estimate_entropy(PasswordPolicy(length=10, upper=False, lower=False,
                                           symbols=False)) == pytest.approx(10 * math.log2(10))


@pytest.mark.parametrize(
    "policy",
    [
        PasswordPolicy(length=0),
        PasswordPolicy(length=3),
        PasswordPolicy(length=1025),
        PasswordPolicy(length=8.5),  # type: ignore[arg-type]
        PasswordPolicy(length=True),  # type: ignore[arg-type]
        PasswordPolicy(upper=False, lower=False, digits=False, symbols=False),
    ],
)
def test_invalid_policies(policy):
    with pytest.raises(PasswordError):
        validate_policy(policy)
    with pytest.raises(PasswordError):
        generate_password(policy)


def test_single_class_allows_length_one(rng):
    assert generate_password(PasswordPolicy(length=1, upper=False, lower=False, symbols=False), rng).isdigit()


def test_empty_pool_raises():
    with pytest.raises(PasswordError):
        character_pool(PasswordPolicy(upper=False, lower=False, digits=False, symbols=False))


@pytest.mark.parametrize("count", [0, -1, 2.0])
def test_invalid_count(count):
    with pytest.raises(PasswordError):
        generate_passwords(count)


def test_password_error_is_value_error():
    assert issubclass(PasswordError, ValueError)
