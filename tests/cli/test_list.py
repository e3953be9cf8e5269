import json
import os
import subprocess
import sys
from pathlib import Path

from tests.cli.helpers import invoke
from tests.conftest import TINY_YAML, write


def test_list_json_has_every_tier(capsys):
    r = invoke(capsys, "list", "--json")
    assert r.exit_code == 0
    rows = json.loads(r.out)
    assert {row["tier"] for row in rows} == {"easy", "medium", "hard"}
    assert {"id", "name", "tier", "language", "time_limit_minutes"} <= set(rows[0])


def test_list_filters_by_tier_and_adds_user_folders(capsys, tiny_challenges):
    r = invoke(capsys, "list", "--tier", "easy", "--json", "--challenges", str(tiny_challenges))
    ids = [row["id"] for row in json.loads(r.out)]
    assert "easy/adder" in ids and all(i.startswith("easy/") for i in ids)


def test_list_table_shows_ids(capsys):
    r = invoke(capsys, "list")
    assert r.exit_code == 0 and "easy/password-gen" in r.out


def test_bad_challenge_gives_one_clear_line_and_exit_2(tmp_path: Path):
    write(tmp_path / "easy" / "broken.yaml", TINY_YAML.replace("language: python\n", ""))
    proc = subprocess.run([sys.executable, "-m", "agentbench", "list", "--challenges", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, env=os.environ)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    first = proc.stderr.splitlines()[0]
    assert first.startswith("error: ") and "broken.yaml" in first and "'language'" in first
    assert "hint:" in proc.stderr


def test_yaml_syntax_error_names_the_line(tmp_path: Path, capsys):
    write(tmp_path / "easy" / "broken.yaml", TINY_YAML.replace("prompt: |", "prompt: : :"))
    r = invoke(capsys, "list", "--challenges", str(tmp_path))
    assert r.exit_code == 2 and "broken.yaml:4" in r.err and "invalid YAML" in r.err


def test_list_works_from_any_directory(tmp_path: Path):
    proc = subprocess.run([sys.executable, "-m", "agentbench", "list", "--json"], capture_output=True,
                          text=True, cwd=tmp_path, env=os.environ)
    assert proc.returncode == 0 and len(json.loads(proc.stdout)) >= 13
