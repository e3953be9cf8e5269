"""Unit tests for semver_tool.version."""

import pytest

from semver_tool import Version, compare
from semver_tool.version import sort_versions


def test_parse_full_version():
    version = Version.parse("1.2.3-alpha.1+build.007")
    assert (version.major, version.minor, version.patch) == (1, 2, 3)
    assert version.prerelease == ("alpha", "1")
    assert version.build == ("build", "007")
    assert str(version) == "1.2.3-alpha.1+build.007"


@pytest.mark.parametrize("text", ["0.0.0", "10.20.30", "1.0.0-0", "1.0.0-x-y.z--", "1.0.0+-"])
def test_parse_round_trip(text):
    assert str(Version.parse(text)) == text


@pytest.mark.parametrize(
    "text",
    ["", "1", "1.2", "1.2.3.4", "v1.2.3", "01.2.3", "1.02.3", "1.2.03", "1.2.3-", "1.2.3+",
     "1.2.3-a..b", "1.2.3-01", "1.2.3-a_b", " 1.2.3", "1.2.3\n", "-1.2.3", "1.2.3-é"],
)
def test_parse_rejects_invalid(text):
    with pytest.raises(ValueError):
        Version.parse(text)


def test_parse_rejects_non_string():
    with pytest.raises(TypeError):
        Version.parse(123)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"major": -1, "minor": 0, "patch": 0},
        {"major": True, "minor": 0, "patch": 0},
        {"major": 1, "minor": 0, "patch": 0, "prerelease": ("01",)},
        {"major": 1, "minor": 0, "patch": 0, "build": ("",)},
    ],
)
def test_constructor_validates(kwargs):
    with pytest.raises(ValueError):
        Version(**kwargs)


def test_constructor_normalises_lists_to_tuples():
    version = Version(1, 0, 0, ["rc", "1"], ["b"])  # type: ignore[arg-type]
    assert version.prerelease == ("rc", "1")
    assert version.build == ("b",)


def test_spec_precedence_chain():
    chain = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
             "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0"]
    versions = [Version.parse(text) for text in chain]
    assert versions == sorted(reversed(versions))
    for low, high in zip(versions, versions[1:]):
        assert low < high and high > low and low != high
        assert low.compare(high) == -1 and high.compare(low) == 1


def test_numeric_components_compare_numerically():
    assert compare("1.10.0", "1.9.0") == 1
    assert compare("1.0.0-2", "1.0.0-10") == -1


def test_build_metadata_ignored():
    a, b = Version.parse("1.0.0+a"), Version.parse("1.0.0+b")
    assert a == b and hash(a) == hash(b)
    assert compare(a, "1.0.0") == 0


def test_comparison_with_other_types():
    assert Version.parse("1.0.0") != "1.0.0"
    with pytest.raises(TypeError):
        _ = Version.parse("1.0.0") < "2.0.0"  # type: ignore[operator]


@pytest.mark.parametrize(
    ("start", "part", "expected"),
    [
        ("1.2.3", "major", "2.0.0"),
        ("1.2.3-rc.1+b", "major", "2.0.0"),
        ("1.2.3", "minor", "1.3.0"),
        ("1.2.3+b", "patch", "1.2.4"),
        ("1.2.3", "prerelease", "1.2.4-0"),
        ("1.2.4-rc.9", "prerelease", "1.2.4-rc.10"),
        ("1.2.4-rc", "prerelease", "1.2.4-rc.0"),
        ("1.2.4-1+b", "prerelease", "1.2.4-2"),
    ],
)
def test_bump(start, part, expected):
    assert str(Version.parse(start).bump(part)) == expected


def test_bump_unknown_part():
    with pytest.raises(ValueError):
        Version.parse("1.0.0").bump("build")


def test_sort_versions_is_stable():
    versions = [Version.parse(t) for t in ["1.0.0+b", "0.1.0", "1.0.0+a"]]
    assert [str(v) for v in sort_versions(versions)] == ["0.1.0", "1.0.0+b", "1.0.0+a"]
    assert [str(v) for v in sort_versions(versions, reverse=True)] == ["1.0.0+b", "1.0.0+a", "0.1.0"]
