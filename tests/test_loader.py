import subprocess
import sys
import time
from pathlib import Path

import pytest

from agentbench.errors import ChallengeError, UsageError
from agentbench.loader import (
    builtin_challenges_dir,
    discover_challenges,
    load_challenge,
    scan_challenges,
    select_challenges,
)
from tests.conftest import TINY_YAML, write


def test_loads_the_seed_schema_with_defaults(tiny_challenges: Path):
    c = load_challenge(tiny_challenges / "easy" / "adder.yaml")
    assert c.id == "easy/adder"
    assert c.tier == "easy"
    assert c.name == "Adder"
    assert c.time_limit_minutes == 5
    assert c.expected_files == ("pyproject.toml", "src/adder/__init__.py", "tests/test_adder.py")
    assert c.scoring_rubric.must_have_tests is True
    assert c.scoring_rubric.must_have_readme is False  # seed default
    assert c.reference_dir == tiny_challenges / "easy" / "adder" / "reference"
    assert c.acceptance is not None and c.acceptance.time_limit_seconds == 300
    assert c.acceptance.must_fail == ()


def test_acceptance_must_fail_lists_the_authors_canary_tests(tiny_challenges: Path):
    path = tiny_challenges / "easy" / "adder.yaml"
    path.write_text(path.read_text() + "acceptance:\n  must_fail:\n    - test_adder_hidden.py::test_wrong\n")
    c = load_challenge(path)
    assert c.acceptance is not None and c.acceptance.must_fail == ("test_adder_hidden.py::test_wrong",)


def test_optional_fields_take_the_seed_defaults(tmp_path: Path):
    text = TINY_YAML.replace("time_limit_minutes: 5\n", "").replace(
        "setup_commands:\n  - python -m pip install -e \".[dev]\"\n", "")
    text = text.replace("  max_time_minutes: 5\n", "")
    c = load_challenge(write(tmp_path / "medium" / "x.yaml", text))
    assert c.time_limit_minutes == 30
    assert c.setup_commands == ()
    assert c.scoring_rubric.max_time_minutes == 30
    assert c.acceptance is None and c.reference_dir is None


def _error_for(tmp_path: Path, text: str, tier: str = "easy") -> ChallengeError:
    path = write(tmp_path / tier / "bad.yaml", text)
    with pytest.raises(ChallengeError) as info:
        load_challenge(path)
    return info.value


def test_missing_field_names_file_and_field(tmp_path: Path):
    err = _error_for(tmp_path, TINY_YAML.replace('name: "Adder"\n', ""))
    assert "bad.yaml" in err.message and "'name'" in err.message
    assert "missing required field" in err.message
    assert err.hint and "name:" in err.hint


def test_wrong_type_names_field_line_and_value(tmp_path: Path):
    err = _error_for(tmp_path, TINY_YAML.replace("time_limit_minutes: 5", 'time_limit_minutes: "thirty"'))
    assert "bad.yaml:3" in err.message
    assert "'time_limit_minutes'" in err.message and "thirty" in err.message
    assert "positive integer" in err.message


def test_yaml_syntax_error_gives_its_line(tmp_path: Path):
    err = _error_for(tmp_path, TINY_YAML.replace("expected_files:", "expected_files: [oops"))
    assert "invalid YAML" in err.message
    assert "bad.yaml:" in err.message


def test_unknown_field_is_reported_with_a_suggestion(tmp_path: Path):
    err = _error_for(tmp_path, TINY_YAML + "setup_comands: []\n")
    assert "unknown field" in err.message and "setup_comands" in err.message
    assert err.hint == "did you mean 'setup_commands'?"


def test_unknown_rubric_field_is_reported(tmp_path: Path):
    err = _error_for(tmp_path, TINY_YAML.replace("  min_files: 3", "  min_file: 3"))
    assert "scoring_rubric.min_file" in err.message


def test_unknown_tier_is_an_error(tmp_path: Path):
    write(tmp_path / "expert" / "x.yaml", TINY_YAML)
    with pytest.raises(ChallengeError, match="unknown tier 'expert'"):
        discover_challenges([tmp_path], include_builtin=False)


def test_list_fields_must_hold_strings(tmp_path: Path):
    err = _error_for(tmp_path, TINY_YAML.replace("  - python -m pytest tests/ -v", "  - 42"))
    assert "'test_commands'" in err.message and "list of strings" in err.message


def test_expected_files_must_stay_inside_the_workspace(tmp_path: Path):
    err = _error_for(tmp_path, TINY_YAML.replace("  - pyproject.toml", "  - ../../etc/passwd"))
    assert "without '..'" in err.message


def test_duplicate_ids_across_folders_are_reported(tmp_path: Path, tiny_challenges: Path):
    other = tmp_path / "other"
    write(other / "easy" / "adder.yaml", TINY_YAML)
    _, errors = scan_challenges([tiny_challenges, other], include_builtin=False)
    assert len(errors) == 1 and "duplicate challenge ID 'easy/adder'" in errors[0].message
    with pytest.raises(ChallengeError, match="duplicate"):
        discover_challenges([tiny_challenges, other], include_builtin=False)


def test_builtin_challenges_cover_every_tier():
    challenges = discover_challenges()
    ids = {c.id for c in challenges}
    assert {"easy/password-gen", "easy/todo-api", "easy/markdown-parser"} <= ids
    by_tier = {t: [c for c in challenges if c.tier == t] for t in ("easy", "medium", "hard")}
    assert len(by_tier["easy"]) >= 6
    assert len(by_tier["medium"]) >= 4
    assert len(by_tier["hard"]) >= 3
    assert all(c.reference_dir and c.acceptance for c in challenges)
    assert builtin_challenges_dir().is_dir()


def test_select_by_id_and_tier(tiny_challenges: Path):
    challenges = discover_challenges([tiny_challenges], include_builtin=False)
    assert select_challenges(challenges, ids=("easy/adder",))[0].id == "easy/adder"
    assert select_challenges(challenges, tier="hard") == ()
    with pytest.raises(UsageError, match="no such challenge"):
        select_challenges(challenges, ids=("easy/adde",))


def laughs(depth: int) -> str:
    """A challenge whose prompt is a 'billion laughs': each anchor is nine aliases of the previous."""
    items = ['&l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    items += [f"&l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, depth + 1)]
    return TINY_YAML.replace("prompt: |\n", "prompt: [" + ", ".join(items) + "]\nold_prompt: |\n", 1)


@pytest.mark.parametrize("depth", [6, 9, 30])
def test_a_billion_laughs_prompt_is_refused_in_milliseconds(tmp_path: Path, depth: int):
    path = write(tmp_path / "easy" / "laughs.yaml", laughs(depth))
    start = time.monotonic()
    with pytest.raises(ChallengeError) as info:
        load_challenge(path)
    assert time.monotonic() - start < 0.5
    assert f"{path}:4" in info.value.message and "'prompt'" in info.value.message
    assert "aliases expand to more than" in info.value.message


@pytest.mark.parametrize("command", [["list"], ["validate", "easy/laughs"], ["run", "--agent", "noop", "--challenge", "easy/laughs"]])
def test_cli_refuses_a_billion_laughs_with_exit_2(tmp_path: Path, command: list[str]):
    write(tmp_path / "c" / "easy" / "laughs.yaml", laughs(9))
    start = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "agentbench", *command, "--challenges", str(tmp_path / "c"),
                           *(["--results", str(tmp_path / "r")] if command[0] == "run" else [])],
                          capture_output=True, text=True, timeout=60)
    assert time.monotonic() - start < 10
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "laughs.yaml:4: field 'prompt'" in proc.stderr


def test_a_few_aliases_that_repeat_a_value_still_load(tmp_path: Path):
    text = TINY_YAML.replace("test_commands:\n  - python -m pytest tests/ -v\n",
                             "test_commands: &tests\n  - python -m pytest tests/ -v\n"
                             "setup_commands: *tests\n").replace(
        "setup_commands:\n  - python -m pip install -e \".[dev]\"\n", "")
    c = load_challenge(write(tmp_path / "easy" / "x.yaml", text))
    assert c.setup_commands == c.test_commands == ("python -m pytest tests/ -v",)
