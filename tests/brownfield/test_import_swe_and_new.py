"""`agentbench import swe` (a JSON-lines file over a repository the test creates) and
`agentbench new --from-repo`: import or scaffold, validate, run reference and noop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentbench.loader import discover_challenges
from agentbench.records import loads_run
from tests.brownfield.fixtures import git, make_repo
from tests.cli.helpers import invoke
from tests.conftest import write

NEW_TEST = "from mathy import clamp\n\n\ndef test_clamp_high():\n    assert clamp(50, 0, 10) == 10\n"


def _repo_with_test_commit(root: Path) -> tuple[Path, str, str, str]:
    """(repo, buggy base, fix commit, commit adding the new test on top of the fix)."""
    repo, base, fix = make_repo(root)
    write(repo / "tests" / "test_clamp_high.py", NEW_TEST)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "test clamp high")
    return repo, base, fix, git(repo, "rev-parse", "HEAD")


def _instances(tmp_path: Path, repo: Path, base: str, fix: str, tested: str) -> Path:
    good = {"instance_id": "mathy__clamp-1", "repo": "local/mathy", "base_commit": base,
            "problem_statement": "clamp(x, low, high) ignores high.",
            "patch": git(repo, "diff", base, fix, "--", "src") + "\n",
            "test_patch": git(repo, "diff", fix, tested) + "\n",
            "FAIL_TO_PASS": json.dumps(["tests/test_clamp_high.py::test_clamp_high"]),
            "PASS_TO_PASS": ["tests/test_mathy.py::test_add", "tests/test_mathy.py::test_clamp_low"],
            "difficulty": "<15 min fix"}
    lines = [good, {**good, "instance_id": "bad-commit", "base_commit": "f" * 40}, {"instance_id": "x"}]
    path = tmp_path / "instances.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    return path


def _validate_and_run(capsys: pytest.CaptureFixture[str], out: Path, cid: str, tmp: Path) -> None:
    r = invoke(capsys, "validate", "--write-sets", "--challenges", str(out), cid, "--results",
               str(tmp / "v"), "--repeats", "1", "--jobs", "2")
    assert r.exit_code == 0, r.out[-3000:] + r.err[-2000:]
    (challenge,) = [c for c in discover_challenges([out], include_builtin=False) if c.id == cid]
    assert challenge.fail_to_pass == ("tests/test_clamp_high.py::test_clamp_high",)
    assert set(challenge.pass_to_pass) == {"tests/test_mathy.py::test_add", "tests/test_mathy.py::test_clamp_low"}
    r = invoke(capsys, "run", "--agent", "reference", "--agent", "noop", "--challenges", str(out),
               "--challenge", cid, "--results", str(tmp / "runs"), "--jobs", "2")
    assert r.exit_code == 0, r.err[-3000:]
    for agent, resolved in (("reference", True), ("noop", False)):
        (trial,) = loads_run((tmp / "runs" / f"{agent}.json").read_text()).trials
        assert trial.measurements.acceptance.sets.resolved is resolved


def test_import_swe_validate_and_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    repo, base, fix, tested = _repo_with_test_commit(tmp_path / "repo")
    out = tmp_path / "out"
    r = invoke(capsys, "import", "swe", str(_instances(tmp_path, repo, base, fix, tested)), "--repo",
               str(repo), "--output", str(out))
    assert r.exit_code == 0, r.err
    text = " ".join(r.out.split())
    assert "1 imported, 2 not converted" in text
    assert "is not in the repository" in text and "missing field(s)" in text
    (challenge,) = discover_challenges([out], include_builtin=False)
    assert challenge.id == "easy/mathy__clamp-1" and challenge.workspace.commit == base
    assert challenge.protected == ("tests/test_mathy.py",)
    assert (challenge.acceptance.files_dir / "tests" / "test_clamp_high.py").read_text() == NEW_TEST
    assert "min(high" in (challenge.reference_dir / "src" / "mathy" / "__init__.py").read_text()
    _validate_and_run(capsys, out, challenge.id, tmp_path)


def test_new_from_repo_validate_and_run(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    repo, base, _, tested = _repo_with_test_commit(tmp_path / "repo")
    out = tmp_path / "out"
    r = invoke(capsys, "new", "--from-repo", str(repo), "--commit", base, "--reference", tested,
               "--tests", "tests", "--name", "clamp-high", "--output", str(out))
    assert r.exit_code == 0, r.err
    (challenge,) = discover_challenges([out], include_builtin=False)
    assert challenge.id == "medium/clamp-high" and "test clamp high" in challenge.prompt
    assert challenge.expected_files == ("src/mathy/__init__.py",)
    _validate_and_run(capsys, out, challenge.id, tmp_path)
    bad = invoke(capsys, "new", "--from-repo", str(repo), "--commit", "nope", "--reference", tested,
                 "--tests", "tests", "--name", "x", "--output", str(tmp_path / "o2"))
    assert bad.exit_code == 2 and "commit 'nope' is not in the repository" in bad.err
