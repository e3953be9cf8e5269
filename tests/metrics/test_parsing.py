from pathlib import Path

from agentbench.metrics.common import command_argv, is_test_file
from agentbench.metrics.tests import parse_junit, parse_junit_cases, parse_summary

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="1" failures="2" skipped="1" tests="10" time="0.1">
<testcase classname="t" name="a"/><testcase classname="t" name="b"><failure message="x"/></testcase>
</testsuite></testsuites>"""


def test_junit_counts(tmp_path: Path):
    path = tmp_path / "j.xml"
    path.write_text(JUNIT)
    m = parse_junit(path)
    assert (m.passed, m.failed, m.skipped, m.total, m.source) == (6, 3, 1, 9, "junit")
    assert parse_junit_cases(path) == {"t::a": True, "t::b": False}


def test_unreadable_junit_is_none(tmp_path: Path):
    path = tmp_path / "j.xml"
    path.write_text("<not-xml")
    assert parse_junit(path) is None


def test_pytest_summary():
    out = "....\n=========== 3 failed, 12 passed, 2 skipped, 1 error in 0.52s ===========\n"
    m = parse_summary(out)
    assert (m.passed, m.failed, m.skipped, m.source) == (12, 4, 2, "summary")


def test_pytest_quiet_summary_is_read_too():
    m = parse_summary("..F\n= 2 passed, 1 failed in 0.01s =\n")
    assert (m.passed, m.failed) == (2, 1)


def test_unittest_summary():
    out = "...\n----------------------------------------------------------------------\nRan 7 tests in 0.003s\n\nFAILED (failures=2, errors=1)\n"
    m = parse_summary(out)
    assert (m.passed, m.failed, m.total) == (4, 3, 7)
    ok = parse_summary("Ran 5 tests in 0.1s\n\nOK\n")
    assert (ok.passed, ok.failed) == (5, 0)


def test_no_summary_means_no_tests_not_a_guess():
    m = parse_summary("everything is fine, trust me\nall tests passed\n")
    assert (m.total, m.source) == (0, "none")


def test_commands_split_without_a_shell_unless_they_need_one():
    assert command_argv('python -m pip install -e ".[dev]"') == [
        "python", "-m", "pip", "install", "-e", ".[dev]"]
    assert command_argv("make && make test")[:2] == ["/bin/sh", "-c"]
    assert command_argv("echo $HOME")[:2] == ["/bin/sh", "-c"]


def test_test_files_are_told_apart_from_product_code():
    assert is_test_file(Path("tests/test_x.py"))
    assert is_test_file(Path("src/pkg/test_util.py"))
    assert is_test_file(Path("conftest.py"))
    assert not is_test_file(Path("src/pkg/testing_tools.py"))
    assert not is_test_file(Path("src/pkg/main.py"))
