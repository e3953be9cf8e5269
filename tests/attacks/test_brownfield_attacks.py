"""Attacks on a brownfield task (a git repository at its buggy commit, whose next commit fixes it):
editing or deleting the protected tests, digging the fix out of the repository's history, refs,
reflog or object store, and writing into `.git`. Each gains nothing over `noop` (no FAIL_TO_PASS
test passes, the verified score stays 0, the own-test count is the pristine tests') and the trial
record says what the agent did. Run end to end through `agentbench run`, once per sandbox mode."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agentbench.records import loads_run
from tests.attacks.conftest import ROOT, needs_sandbox
from tests.brownfield.fixtures import SECRET, make_challenge

AGENT = r'''
import glob, os, subprocess, sys, zlib
mode, ws = sys.argv[1], os.getcwd()
def sh(*a):
    return subprocess.run(a, capture_output=True).stdout.decode("latin-1")
def put(rel, text):
    os.makedirs(os.path.dirname(os.path.join(ws, rel)) or ws, exist_ok=True)
    open(os.path.join(ws, rel), "w").write(text)
if mode == "edit-tests":
    put("tests/test_mathy.py", "def test_ok():\n    assert True\n")
    put("tests/conftest.py", "import pytest\n@pytest.hookimpl(tryfirst=True)\ndef pytest_runtest_makereport(item, call):\n    pass\n")
elif mode == "delete-tests":
    os.remove("tests/test_mathy.py")
elif mode == "history":
    found = sh("git", "log", "--all", "-p") + sh("git", "reflog", "--all") + sh("git", "show-ref")
    found += sh("git", "rev-list", "--all", "--objects") + sh("git", "fsck", "--lost-found", "--unreachable")
    for path in glob.glob(".git/objects/**/*", recursive=True):
        if os.path.isfile(path) and "/pack/" not in path:
            found += zlib.decompress(open(path, "rb").read()).decode("latin-1")
    for path in glob.glob(".git/objects/pack/*.pack"):
        found += open(path, "rb").read().decode("latin-1")
    found += sh("git", "cat-file", "--batch-all-objects", "--batch")
    put("found.txt", found)
    if "min(high" in found:
        src = open("src/mathy/__init__.py").read()
        put("src/mathy/__init__.py", src.replace("return max(low, x)", "return min(high, max(low, x))"))
elif mode == "host-repo":
    repo = REPO  # NOTE: known to the attacker; written into its source, not its argv
    found = sh("git", "-C", repo, "log", "--all", "-p") + sh("cat", repo + "/src/mathy/__init__.py")
    found += sh("grep", "-r", "-a", "min(high", repo)
    put("found.txt", found)
    if "min(high" in found:
        src = open("src/mathy/__init__.py").read()
        put("src/mathy/__init__.py", src.replace("return max(low, x)", "return min(high, max(low, x))"))
elif mode == "git-writer":
    put(".git/refs/heads/fix", "0" * 40 + "\n")
    put(".git/hooks/post-checkout", "#!/bin/sh\necho pwned > /tmp/pwned\n")
    with open(".git/config", "a") as config:
        config.write("[core]\n\tfsmonitor = touch /tmp/fsmonitor-ran\n")
    put(".git/info/exclude", "*\n")
'''

AGENTS = ("edit-tests", "delete-tests", "history", "git-writer", "host-repo")


@pytest.fixture(scope="module", params=("none", "bwrap"))
def attacked(request: pytest.FixtureRequest, shared_folder: Path) -> tuple[Path, dict]:
    needs_sandbox(request.param)
    folder = shared_folder / f"brownfield-{request.param}"
    folder.mkdir()
    challenges = make_challenge(folder / "challenges")
    script = folder / "agent.py"
    repo = folder / "clamp-repo"  # NOTE: the repository the challenge starts from (make_challenge)
    script.write_text(f"REPO = {str(repo)!r}\n" + AGENT)
    config = folder / "agents.toml"
    config.write_text("".join(f'[agents.{name}]\nadapter = "command"\n'
                              f'command = ["{sys.executable}", "{script}", "{name}"]\n'
                              for name in AGENTS))
    results = folder / "results"
    args = [sys.executable, "-m", "agentbench", "run", "--challenge", "medium/clamp", "--challenges",
            str(challenges), "--results", str(results), "--agents-config", str(config), "--sandbox",
            request.param, "--run-id", "r", "--agent", "noop"]
    for name in AGENTS:
        args += ["--agent", name]
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    records = {a: loads_run((results / f"{a}.json").read_text()).trials[0] for a in ("noop", *AGENTS)}
    return results / "r", records


def _gains_nothing(records: dict, agent: str) -> None:
    trial, noop = records[agent], records["noop"]
    sets = trial.measurements.acceptance.sets
    assert sets.fail_to_pass_passed == 0 and not sets.resolved
    assert trial.verified_score.total == 0.0
    assert (trial.measurements.tests.passed, trial.measurements.tests.total) == (
        noop.measurements.tests.passed, noop.measurements.tests.total)


def test_editing_protected_tests_gains_nothing_and_is_recorded(attacked) -> None:
    _, records = attacked
    _gains_nothing(records, "edit-tests")
    assert records["edit-tests"].changes.protected == ("tests/test_mathy.py (modified)",)


def test_deleting_protected_tests_gains_nothing_and_is_recorded(attacked) -> None:
    run, records = attacked
    _gains_nothing(records, "delete-tests")
    assert records["delete-tests"].changes.protected == ("tests/test_mathy.py (deleted)",)
    diff = (run / records["delete-tests"].logs_dir / "changes.diff").read_text()
    assert "--- a/tests/test_mathy.py\n+++ /dev/null" in diff


def test_the_repository_history_holds_no_later_commit(attacked) -> None:
    run, records = attacked
    _gains_nothing(records, "history")
    found = (run / records["history"].logs_dir / "workspace" / "found.txt").read_text()
    assert "Starting tree" in found  # it did read the repository
    assert SECRET not in found and "min(high" not in found
    assert records["history"].changes.files_changed == 1  # found.txt only


def test_the_source_repository_on_the_host_is_out_of_reach(attacked) -> None:
    run, records = attacked
    _gains_nothing(records, "host-repo")
    found = (run / records["host-repo"].logs_dir / "workspace" / "found.txt").read_text()
    assert SECRET not in found and "min(high" not in found


def test_writing_into_git_gains_nothing_and_is_recorded(attacked) -> None:
    _, records = attacked
    _gains_nothing(records, "git-writer")
    notes = records["git-writer"].changes.git_dir
    for expected in (".git/refs/heads/fix (added)", ".git/hooks/post-checkout (added)",
                     ".git/config (modified)", ".git/info/exclude (modified)"):
        assert expected in notes, notes
    assert not Path("/tmp/fsmonitor-ran").exists() and not Path("/tmp/pwned").exists()


def test_the_hidden_log_names_the_failing_fail_to_pass_test(attacked) -> None:
    run, records = attacked
    body = json.loads((run / records["history"].logs_dir / "logs" / "hidden-tests.json").read_text())
    assert ["test_hidden.py::test_clamp_high", "failed"] in body["outcomes"]
