"""Acceptance tests for ``python -m semver_tool``."""

import pytest


def assert_error(result, prefix="error: "):
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(prefix)


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [("1.0.0", "2.0.0", "-1"), ("1.0.0+x", "1.0.0+y", "0"), ("1.0.0", "1.0.0-rc.1", "1"),
     ("1.0.0-beta.11", "1.0.0-beta.2", "1")],
)
def test_compare(run_cli, a, b, expected):
    result = run_cli("compare", a, b)
    assert result.returncode == 0
    assert result.stdout == expected + "\n"


@pytest.mark.parametrize("args", [("1.0", "1.0.0"), ("1.0.0", "v1.0.0")])
def test_compare_invalid(run_cli, args):
    assert_error(run_cli("compare", *args))


@pytest.mark.parametrize(
    ("part", "version", "expected"),
    [("major", "1.2.3", "2.0.0"), ("minor", "1.2.3+b", "1.3.0"), ("patch", "1.2.3-rc.1", "1.2.4"),
     ("prerelease", "1.2.4-rc.1", "1.2.4-rc.2"), ("prerelease", "1.2.3", "1.2.4-0")],
)
def test_bump(run_cli, part, version, expected):
    result = run_cli("bump", part, version)
    assert result.returncode == 0
    assert result.stdout == expected + "\n"


def test_bump_invalid_version(run_cli):
    assert_error(run_cli("bump", "patch", "1.2"))


def test_bump_invalid_part(run_cli):
    result = run_cli("bump", "build", "1.2.3")
    assert result.returncode == 2
    assert result.stdout == ""


def test_sort(run_cli):
    stdin = "1.10.0\n1.0.0\n1.0.0-rc.1\n1.2.0\n1.0.0-alpha\n0.9.0\n"
    result = run_cli("sort", stdin=stdin)
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["0.9.0", "1.0.0-alpha", "1.0.0-rc.1", "1.0.0", "1.2.0", "1.10.0"]


def test_sort_reverse(run_cli):
    result = run_cli("sort", "--reverse", stdin="1.2.0\n1.10.0\n1.2.0-beta.11\n1.2.0-beta.2\n")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["1.10.0", "1.2.0", "1.2.0-beta.11", "1.2.0-beta.2"]


def test_sort_is_stable(run_cli):
    stdin = "1.0.0+b\n0.1.0\n1.0.0+a\n1.0.0+c\n"
    result = run_cli("sort", stdin=stdin)
    assert result.stdout.splitlines() == ["0.1.0", "1.0.0+b", "1.0.0+a", "1.0.0+c"]
    result = run_cli("sort", "--reverse", stdin=stdin)
    assert result.stdout.splitlines() == ["1.0.0+b", "1.0.0+a", "1.0.0+c", "0.1.0"]


def test_sort_strips_and_skips_blank_lines(run_cli):
    result = run_cli("sort", stdin="\n  2.0.0  \n\n\t1.0.0\n   \n")
    assert result.returncode == 0
    assert result.stdout.splitlines() == ["1.0.0", "2.0.0"]


def test_sort_empty_input(run_cli):
    result = run_cli("sort", stdin="")
    assert result.returncode == 0
    assert result.stdout == ""


def test_sort_invalid_line(run_cli):
    assert_error(run_cli("sort", stdin="1.0.0\n\n1.0\n2.0.0\n"), prefix="error: line 3:")


def test_no_command(run_cli):
    result = run_cli()
    assert result.returncode == 2
    assert result.stdout == ""
