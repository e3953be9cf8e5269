"""Acceptance tests for semver_tool.Version and semver_tool.compare."""

import pytest

SPEC_CHAIN = [
    "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
    "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0",
]


def test_parse_components(Version):
    version = Version.parse("1.22.333-alpha.1+build.007")
    assert (version.major, version.minor, version.patch) == (1, 22, 333)
    assert all(type(n) is int for n in (version.major, version.minor, version.patch))
    assert tuple(version.prerelease) == ("alpha", "1")
    assert tuple(version.build) == ("build", "007")


def test_parse_plain_version_has_empty_tuples(Version):
    version = Version.parse("0.0.0")
    assert tuple(version.prerelease) == ()
    assert tuple(version.build) == ()


@pytest.mark.parametrize(
    "text",
    ["0.0.0", "10.20.30", "1.0.0-0", "1.0.0-0a", "1.0.0-x-y-z.--", "1.0.0+001",
     "1.0.0-alpha+beta.1", "1.0.0+21AF26D3----117B344092BD", "18446744073709551616.0.0"],
)
def test_valid_versions_round_trip(Version, text):
    assert str(Version.parse(text)) == text


@pytest.mark.parametrize(
    "text",
    ["", "1", "1.2", "1.2.3.4", "v1.2.3", "01.2.3", "1.02.3", "1.2.03", "1.2.3-", "1.2.3+",
     "1.2.3-a..b", "1.2.3+a..b", "1.2.3-01", "1.2.3-a.00", "1.2.3-a_b", "1.2.3+a b", " 1.2.3",
     "1.2.3 ", "1.2.3\n", "-1.2.3", "1.2.-3", "1.2.3-é", "１.2.3", "a.b.c", "1.2.3-+b"],
)
def test_invalid_versions_raise_value_error(Version, text):
    with pytest.raises(ValueError):
        Version.parse(text)


def test_spec_precedence_chain(Version):
    versions = [Version.parse(text) for text in SPEC_CHAIN]
    assert [str(v) for v in sorted(reversed(versions))] == SPEC_CHAIN
    for low, high in zip(versions, versions[1:]):
        assert low < high and high > low
        assert low.compare(high) == -1
        assert high.compare(low) == 1


@pytest.mark.parametrize(
    ("a", "b"),
    [("1.9.0", "1.10.0"), ("1.0.9", "1.0.10"), ("9.9.9", "10.0.0"), ("0.9.9", "1.0.0-rc.1"),
     ("1.0.0-2", "1.0.0-10"), ("1.0.0-alpha.2", "1.0.0-alpha.10")],
)
def test_numeric_ordering(compare, a, b):
    assert compare(a, b) == -1
    assert compare(b, a) == 1


@pytest.mark.parametrize(
    ("a", "b"),
    [("1.0.0-999", "1.0.0-0a"), ("1.0.0-alpha.99", "1.0.0-alpha.a"), ("1.0.0-1", "1.0.0-a")],
)
def test_numeric_identifier_lower_than_alphanumeric(compare, a, b):
    assert compare(a, b) == -1
    assert compare(b, a) == 1


def test_alphanumeric_identifiers_compare_in_ascii_order(compare):
    assert compare("1.0.0-Beta", "1.0.0-alpha") == -1
    assert compare("1.0.0-a-", "1.0.0-a0") == -1
    assert compare("1.0.0-rc10", "1.0.0-rc9") == -1


def test_shorter_prerelease_is_lower(compare):
    assert compare("1.0.0-alpha", "1.0.0-alpha.0") == -1
    assert compare("1.0.0-a.b.c", "1.0.0-a.b") == 1


def test_release_higher_than_prerelease(compare):
    assert compare("1.0.0", "1.0.0-rc.1") == 1
    assert compare("1.0.0-zzz", "1.0.0") == -1


def test_build_metadata_ignored(Version, compare):
    a, b = Version.parse("1.0.0-rc.1+a"), Version.parse("1.0.0-rc.1+b.2")
    assert a == b and not a != b
    assert a.compare(b) == 0
    assert hash(a) == hash(b)
    assert len({a, b, Version.parse("1.0.0-rc.1")}) == 1
    assert compare("1.0.0+x", "1.0.0") == 0


def test_comparison_operators(Version):
    low, high = Version.parse("1.0.0-rc.1"), Version.parse("1.0.0")
    assert low <= high and low <= Version.parse("1.0.0-rc.1+z")
    assert high >= low and not low >= high
    assert low != high
    assert max([high, low]) is high


def test_equality_with_other_types_is_false(Version):
    assert (Version.parse("1.0.0") == "1.0.0") is False


def test_compare_accepts_version_objects(Version, compare):
    assert compare(Version.parse("2.0.0"), "1.0.0") == 1
    assert compare("1.0.0", Version.parse("1.0.0+b")) == 0


def test_compare_rejects_invalid_strings(compare):
    with pytest.raises(ValueError):
        compare("1.0", "1.0.0")
    with pytest.raises(ValueError):
        compare("1.0.0", "v1.0.0")


def test_constructor(Version):
    version = Version(1, 2, 3, ("rc", "1"), ("b",))
    assert str(version) == "1.2.3-rc.1+b"
    assert version == Version.parse("1.2.3-rc.1")
    assert str(Version(4, 5, 6)) == "4.5.6"


@pytest.mark.parametrize(
    "args",
    [(-1, 0, 0), (0, -2, 0), (0, 0, -3), (1, 0, 0, ("01",)), (1, 0, 0, ("",)), (1, 0, 0, ("a_b",)),
     (1, 0, 0, (), ("",)), (1, 0, 0, (), ("a+b",))],
)
def test_constructor_validates(Version, args):
    with pytest.raises(ValueError):
        Version(*args)


@pytest.mark.parametrize(
    ("start", "part", "expected"),
    [
        ("1.2.3", "major", "2.0.0"),
        ("1.2.3-rc.1+b", "major", "2.0.0"),
        ("1.2.3", "minor", "1.3.0"),
        ("1.2.3-rc.1", "minor", "1.3.0"),
        ("1.2.3+b5", "patch", "1.2.4"),
        ("1.2.3-rc.1", "patch", "1.2.4"),
        ("1.2.3", "prerelease", "1.2.4-0"),
        ("1.2.3+b", "prerelease", "1.2.4-0"),
        ("1.2.4-rc.9", "prerelease", "1.2.4-rc.10"),
        ("1.2.4-1", "prerelease", "1.2.4-2"),
        ("1.2.4-rc", "prerelease", "1.2.4-rc.0"),
        ("1.2.4-1.rc+b", "prerelease", "1.2.4-1.rc.0"),
    ],
)
def test_bump(Version, start, part, expected):
    assert str(Version.parse(start).bump(part)) == expected


def test_bump_returns_new_version(Version):
    original = Version.parse("1.2.3-rc.1+b")
    bumped = original.bump("minor")
    assert str(original) == "1.2.3-rc.1+b"
    assert tuple(bumped.build) == ()
    assert isinstance(bumped, Version)


@pytest.mark.parametrize("part", ["build", "MAJOR", "", "pre"])
def test_bump_unknown_part(Version, part):
    with pytest.raises(ValueError):
        Version.parse("1.0.0").bump(part)
