"""Shared fixtures for the csv_summary acceptance tests."""

import subprocess
import sys

import pytest


@pytest.fixture
def run_cli():
    """Run ``python -m csv_summary`` with the given arguments."""

    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "csv_summary", *map(str, args)],
            capture_output=True,
            text=True,
            timeout=30,
        )

    return run


@pytest.fixture
def write_csv(tmp_path):
    """Write text (or bytes) to a CSV file in tmp_path and return its path."""

    def write(content, name="data.csv"):
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
        return path

    return write
