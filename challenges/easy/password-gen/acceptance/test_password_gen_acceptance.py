"""Hidden acceptance tests for easy/password-gen."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest

UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
DIGITS = "0123456789"
SYMBOLS = "!@#$%^&*()-_=+[]{};:,.<>?"
AMBIGUOUS = "Il1O0"
CLASSES = {"upper": UPPER, "lower": LOWER, "digits": DIGITS, "symbols": SYMBOLS}


def pg():
    import password_gen

    return password_gen


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "password_gen", *args],
        capture_output=True, text=True, timeout=30,
    )


# ----------------------------------------------------------------- library: constants & pool


def test_constants_are_exact():
    m = pg()
    assert (m.UPPERCASE, m.LOWERCASE, m.DIGITS, m.SYMBOLS, m.AMBIGUOUS) == (
        UPPER, LOWER, DIGITS, SYMBOLS, AMBIGUOUS)
    assert m.MAX_LENGTH == 1024


def test_password_error_is_value_error():
    assert issubclass(pg().PasswordError, ValueError)


def test_policy_defaults():
    p = pg().PasswordPolicy()
    assert (p.length, p.upper, p.lower, p.digits, p.symbols, p.exclude_ambiguous) == (
        16, True, True, True, True, False)


def test_character_pool_default_order():
    assert pg().character_pool(pg().PasswordPolicy()) == UPPER + LOWER + DIGITS + SYMBOLS


def test_character_pool_subset_and_ambiguous():
    m = pg()
    assert m.character_pool(m.PasswordPolicy(lower=False, symbols=False)) == UPPER + DIGITS
    pool = m.character_pool(m.PasswordPolicy(exclude_ambiguous=True))
    assert pool == "".join(c for c in UPPER + LOWER + DIGITS + SYMBOLS if c not in AMBIGUOUS)


def test_character_pool_no_classes_raises():
    m = pg()
    with pytest.raises(m.PasswordError):
        m.character_pool(m.PasswordPolicy(upper=False, lower=False, digits=False, symbols=False))


# ----------------------------------------------------------------- library: generation


def test_default_password_length_and_all_classes():
    m = pg()
    for seed in range(30):
        pw = m.generate_password(rng=random.Random(seed))
        assert len(pw) == 16
        for chars in CLASSES.values():
            assert any(c in chars for c in pw), (seed, pw)


def test_default_call_without_arguments_uses_secure_randomness():
    m = pg()
    a, b = m.generate_password(), m.generate_password()
    assert len(a) == len(b) == 16
    assert a != b


@pytest.mark.parametrize("length", [4, 7, 64, 1024])
def test_lengths(length):
    m = pg()
    assert len(m.generate_password(m.PasswordPolicy(length=length), random.Random(3))) == length


def test_minimum_length_has_exactly_one_of_each_class():
    m = pg()
    for seed in range(40):
        pw = m.generate_password(m.PasswordPolicy(length=4), random.Random(seed))
        assert sorted(sum(c in chars for c in pw) for chars in CLASSES.values()) == [1, 1, 1, 1]


@pytest.mark.parametrize("disabled", list(CLASSES))
def test_disabled_class_never_appears(disabled):
    m = pg()
    policy = m.PasswordPolicy(length=40, **{disabled: False})
    enabled = [chars for name, chars in CLASSES.items() if name != disabled]
    for seed in range(15):
        pw = m.generate_password(policy, random.Random(seed))
        assert not set(pw) & set(CLASSES[disabled])
        for chars in enabled:
            assert any(c in chars for c in pw)


def test_single_class_length_one():
    m = pg()
    policy = m.PasswordPolicy(length=1, upper=False, lower=False, digits=False)
    pw = m.generate_password(policy, random.Random(0))
    assert len(pw) == 1 and pw in SYMBOLS


def test_exclude_ambiguous_never_emits_ambiguous():
    m = pg()
    policy = m.PasswordPolicy(length=200, exclude_ambiguous=True)
    for seed in range(10):
        pw = m.generate_password(policy, random.Random(seed))
        assert not set(pw) & set(AMBIGUOUS)
        assert len(pw) == 200


def test_exclude_ambiguous_digits_only():
    m = pg()
    policy = m.PasswordPolicy(length=100, upper=False, lower=False, symbols=False,
                              exclude_ambiguous=True)
    assert set(m.generate_password(policy, random.Random(5))) <= set("23456789")


def test_characters_are_spread_over_the_whole_pool():
    m = pg()
    seen = set()
    for seed in (11, 12, 13):
        seen |= set(m.generate_password(m.PasswordPolicy(length=1024), random.Random(seed)))
    assert seen == set(UPPER + LOWER + DIGITS + SYMBOLS)


def test_required_classes_are_not_always_in_the_same_position():
    m = pg()
    policy = m.PasswordPolicy(length=4)
    firsts = {m.generate_password(policy, random.Random(seed))[0] in UPPER for seed in range(60)}
    assert firsts == {True, False}


def test_same_seed_gives_same_password_different_seed_differs():
    m = pg()
    assert m.generate_password(rng=random.Random(99)) == m.generate_password(rng=random.Random(99))
    assert m.generate_password(rng=random.Random(1)) != m.generate_password(rng=random.Random(2))


def test_generate_passwords_count_and_reproducible():
    m = pg()
    policy = m.PasswordPolicy(length=12)
    first = m.generate_passwords(5, policy, random.Random(8))
    assert len(first) == 5 and all(len(p) == 12 for p in first)
    assert len(set(first)) == 5
    assert m.generate_passwords(5, policy, random.Random(8)) == first


def test_generate_passwords_default_policy():
    pws = pg().generate_passwords(3)
    assert len(pws) == 3 and all(len(p) == 16 for p in pws)


@pytest.mark.parametrize("count", [0, -3])
def test_generate_passwords_invalid_count(count):
    m = pg()
    with pytest.raises(m.PasswordError):
        m.generate_passwords(count)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"length": 0},
        {"length": -5},
        {"length": 3},
        {"length": 2, "symbols": False},
        {"length": 1025},
        {"length": 8.5},
        {"length": "8"},
        {"upper": False, "lower": False, "digits": False, "symbols": False},
    ],
)
def test_invalid_policy_raises(kwargs):
    m = pg()
    with pytest.raises(m.PasswordError):
        m.generate_password(m.PasswordPolicy(**kwargs), random.Random(0))
    with pytest.raises(m.PasswordError):
        m.estimate_entropy(m.PasswordPolicy(**kwargs))


def test_length_equal_to_enabled_classes_is_valid():
    m = pg()
    pw = m.generate_password(m.PasswordPolicy(length=2, upper=False, symbols=False), random.Random(4))
    assert len(pw) == 2 and any(c in LOWER for c in pw) and any(c in DIGITS for c in pw)


# ----------------------------------------------------------------- library: entropy


def test_entropy_default():
    assert pg().estimate_entropy(pg().PasswordPolicy()) == pytest.approx(16 * math.log2(87))


def test_entropy_subset_and_ambiguous():
    m = pg()
    assert m.estimate_entropy(m.PasswordPolicy(length=20, symbols=False)) == pytest.approx(
        20 * math.log2(62))
    assert m.estimate_entropy(m.PasswordPolicy(length=10, exclude_ambiguous=True)) == pytest.approx(
        10 * math.log2(82))


# ----------------------------------------------------------------- CLI


def test_cli_default():
    p = run_cli()
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 1 and len(lines[0]) == 16
    for chars in CLASSES.values():
        assert any(c in chars for c in lines[0])


def test_cli_count_and_length():
    p = run_cli("--count", "4", "--length", "9")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 4 and all(len(line) == 9 for line in lines)


def test_cli_class_flags_and_ambiguous():
    p = run_cli("--no-upper", "--no-symbols", "--exclude-ambiguous", "--length", "60", "--count", "3")
    assert p.returncode == 0, p.stderr
    allowed = set(c for c in LOWER + DIGITS if c not in AMBIGUOUS)
    for line in p.stdout.splitlines():
        assert set(line) <= allowed
        assert any(c in LOWER for c in line) and any(c in DIGITS for c in line)


def test_cli_seed_is_reproducible():
    a = run_cli("--seed", "2024", "--count", "3")
    b = run_cli("--seed", "2024", "--count", "3")
    assert a.returncode == 0 and a.stdout == b.stdout and len(a.stdout.splitlines()) == 3


def test_cli_entropy_line():
    p = run_cli("--length", "12", "--no-symbols", "--entropy", "--count", "2")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert len(lines) == 3
    assert lines[-1] == f"entropy: {12 * math.log2(62):.1f} bits"


@pytest.mark.parametrize(
    "args",
    [
        ("--length", "0"),
        ("--length", "3"),
        ("--length", "5000"),
        ("--count", "0"),
        ("--no-upper", "--no-lower", "--no-digits", "--no-symbols"),
        ("--length", "abc"),
    ],
)
def test_cli_errors_exit_2(args):
    p = run_cli(*args)
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.strip()


def test_cli_error_message_prefix():
    p = run_cli("--length", "0")
    assert p.stderr.startswith("error: ")
