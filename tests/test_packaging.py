"""A normal (non-editable) install carries the built-in challenges and finds them from anywhere."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import agentbench

ROOT = Path(__file__).parents[1]


def test_public_api_names_resolve():
    for name in agentbench.__all__:
        assert getattr(agentbench, name) is not None, name


def test_wheel_ships_the_challenges_and_they_load_outside_the_checkout(tmp_path: Path):
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = tmp_path.glob("agentbench-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "agentbench/challenges/easy/password-gen.yaml" in names
    assert "agentbench/challenges/hard/kv-store/acceptance/conftest.py" in names or any(
        n.startswith("agentbench/challenges/hard/kv-store/acceptance/") for n in names)
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code = ("import agentbench.loader as l; cs = l.discover_challenges(); "
            "print(l.builtin_challenges_dir(), len(cs))")
    env = {**os.environ, "PYTHONPATH": str(site)}
    out = subprocess.run([sys.executable, "-c", code], cwd=elsewhere, env=env, check=True,
                         capture_output=True, text=True).stdout.split()
    assert out[0] == str(site / "agentbench" / "challenges")
    assert int(out[1]) >= 13
