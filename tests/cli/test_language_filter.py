"""`--language` (any name or alias of a toolchain) filters `list`, `run` and `validate`; an unknown
language is one clear error line naming the installed ones; missing tools name their install script."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentbench.errors import RunError
from agentbench.loader import discover_challenges, select_challenges
from tests.cli.helpers import invoke

ATTACK_CHALLENGES = Path(__file__).resolve().parents[1] / "attacks" / "challenges"


@pytest.mark.parametrize(("given", "language"), [("ts", "typescript"), ("TypeScript", "typescript"),
                                                 ("golang", "go"), ("py", "python")])
def test_list_filters_by_language_and_alias(capsys, given, language):
    r = invoke(capsys, "list", "--json", "--language", given)
    rows = json.loads(r.out)
    assert r.exit_code == 0 and rows and {row["language"] for row in rows} == {language}


def test_builtin_challenges_cover_three_languages_with_the_issue_s_counts():
    everything = discover_challenges()
    counts = {(lang, tier): len(select_challenges(everything, tier=tier, language=lang))
              for lang in ("ts", "go") for tier in ("easy", "medium", "hard")}
    assert counts[("ts", "easy")] >= 3 and counts[("ts", "medium")] >= 2 and counts[("ts", "hard")] >= 1
    assert counts[("go", "easy")] >= 2 and counts[("go", "medium")] >= 1


def test_language_combines_with_tier_and_unknown_ones_are_errors(capsys):
    r = invoke(capsys, "list", "--json", "--language", "ts", "--tier", "medium")
    every = json.loads(invoke(capsys, "list", "--json").out)
    wanted = {row["id"] for row in every if row["tier"] == "medium" and row["language"] == "typescript"}
    assert {"medium/ts-json-patch", "medium/ts-url-shortener"} <= wanted
    assert {row["id"] for row in json.loads(r.out)} == wanted
    bad = invoke(capsys, "list", "--language", "cobol")
    assert bad.exit_code == 2 and "no toolchain measures language 'cobol'" in bad.err
    assert "typescript" in bad.err and "go" in bad.err


@pytest.mark.needs("go")
def test_run_accepts_language_alone_and_refuses_it_on_resume(capsys, tmp_path):
    r = invoke(capsys, "run", "--agent", "noop", "--language", "go", "--tier", "medium",
               "--results", str(tmp_path))
    assert r.exit_code == 0, r.err
    assert "medium/go-cache" in r.out and "easy/go-roman" not in r.out
    (run_id,) = [p.name for p in tmp_path.iterdir() if p.is_dir()]
    again = invoke(capsys, "run", "--resume", run_id, "--results", str(tmp_path), "--language", "ts")
    assert again.exit_code == 2 and "--language" in again.err


@pytest.mark.needs("go")
def test_validate_filters_by_language(capsys, tmp_path):
    r = invoke(capsys, "validate", "--language", "go", "--repeats", "0", "--results", str(tmp_path),
               "easy/go-roman")
    assert r.exit_code == 0, r.out
    assert "1 valid, 0 invalid" in r.out


def test_a_missing_tool_names_its_install_script(monkeypatch, tmp_path):
    from agentbench.toolchains.go.tools import find_go
    from agentbench.toolchains.node.tools import find_node_tools

    monkeypatch.setenv("AGENTBENCH_TOOLS", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(RunError) as go:
        find_go()
    assert "ci/install/go.sh" in go.value.hint
    with pytest.raises(RunError) as node:
        find_node_tools(tmp_path)
    assert "ci/install/node22.sh" in node.value.hint


@pytest.fixture
def no_node_nor_go(monkeypatch, tmp_path):
    """A machine where only Python is installed: no tools folder, nothing on PATH."""
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("AGENTBENCH_TOOLS", str(tmp_path / "empty"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))


def test_a_tier_leaves_out_the_languages_this_machine_cannot_run_and_says_so(capsys, no_node_nor_go):
    from agentbench.cli.run import _runnable

    everything = discover_challenges([str(ATTACK_CHALLENGES)])
    picked = tuple(c for c in everything if c.id in ("easy/calc", "easy/go-calc", "easy/ts-calc"))
    kept = _runnable(picked)
    notes = capsys.readouterr().err
    assert [c.id for c in kept] == ["easy/calc"]
    assert "left out 1 go challenge(s) (easy/go-calc)" in notes and "ci/install/go.sh" in notes
    assert "left out 1 typescript challenge(s) (easy/ts-calc)" in notes and "ci/install/node22.sh" in notes


def test_a_selection_nothing_of_which_can_run_is_an_error_and_a_named_challenge_is_never_left_out(
        capsys, tmp_path, no_node_nor_go):
    r = invoke(capsys, "run", "--agent", "noop", "--language", "go", "--results", str(tmp_path / "r"))
    assert r.exit_code == 2 and "no selected challenge can run on this machine" in r.err
    assert "left out" in r.err and "ci/install/go.sh" in r.err
    named = invoke(capsys, "run", "--agent", "noop", "--challenge", "easy/go-roman", "--results",
                   str(tmp_path / "r"))
    assert named.exit_code != 0 and "left out" not in named.err and "ci/install/go.sh" in named.err
