"""Shared fixtures for the semver_tool acceptance tests."""

import subprocess
import sys

import pytest


@pytest.fixture
def Version():
    """The solution's Version class (imported lazily so each test fails on its own)."""
    from semver_tool import Version as version_class

    return version_class


@pytest.fixture
def compare():
    """The solution's module-level compare function."""
    from semver_tool import compare as compare_function

    return compare_function


@pytest.fixture
def run_cli():
    """Run ``python -m semver_tool`` with arguments and optional stdin text."""

    def run(*args, stdin=""):
        return subprocess.run(
            [sys.executable, "-m", "semver_tool", *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=30,
        )

    return run
