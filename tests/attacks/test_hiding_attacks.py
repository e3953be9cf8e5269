"""Issue 22 item 1: a trial sees only its task. Agents that search the machine for the answers (the
challenges' reference solutions and hidden tests, the results and database, other trials, the cache,
git history) find nothing and score as what they wrote, end to end through `agentbench run`, in
both sandbox modes.

The harness is given a copy of the attack challenges with canaries planted in the reference
(`CANARY-REF-*`) and the hidden tests (`CANARY-ACC-*`), inside a world-readable folder (outside /tmp) beside
the run's results and database: everything there is what the harness must hide.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentbench.records import loads_run
from agentbench.workspace import cache_dir
from tests.attacks.agents import CHALLENGES, REF
from tests.attacks.conftest import ROOT, AttackRun, agentbench_run, needs_sandbox
from tests.attacks.seeker import AT_WORK, IN_PRODUCT

pytestmark = pytest.mark.attacks

LINK_PLANTER = """
import os
roots = set()
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        args = open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace").split("\\0")
    except OSError:
        continue
    roots.update(args[i + 1] for i, a in enumerate(args[:-1]) if a == "--challenges")
for root in (r for r in roots if "agentbench-hiding-" in r):  # this run's (other runs may be on)
    ref = os.path.join(root, "easy", "calc", "reference")
    for name in ("pyproject.toml", "README.md", "src/calc/__init__.py", "src/calc/ops.py", "tests/test_ops.py"):
        os.makedirs(os.path.dirname(name) or ".", exist_ok=True)
        for link in (os.link, os.symlink):
            try:
                link(os.path.join(ref, name), name)
                break
            except OSError:
                pass
    break
"""

SEEKERS = {
    # searches the machine while it works, copies a reference it finds, lists what it found
    "seeker": {"__python__": AT_WORK},
    # links every expected file to the reference of the challenges folder the harness names on its
    # command line (hard links where the kernel allows, else symbolic links), for the harness to read
    "link-planter": {"__python__": LINK_PLANTER},
    # product code that searches when the harness imports it (its own tests, the hidden tests) and
    # takes a reference's functions for its own
    "late-seeker": {"pyproject.toml": REF["pyproject.toml"], "README.md": "calc\n",
                    "src/calc/__init__.py": IN_PRODUCT, "src/calc/ops.py": "",
                    "tests/test_ops.py": REF["tests/test_ops.py"]},
}


@contextlib.contextmanager
def outside_tmp() -> Iterator[Path]:
    """A world-readable folder outside the temp folders bwrap replaces (the results and challenges
    of a real run are rarely in /tmp), reachable by trial users, removed afterwards."""
    parent = Path.home() / ".cache"
    parent.mkdir(parents=True, exist_ok=True)
    folder = Path(tempfile.mkdtemp(prefix="agentbench-hiding-", dir=parent))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module", params=("none", "bwrap"))
def hiding(request) -> Iterator[tuple[AttackRun, Path]]:
    """One run per mode; its folder is gone before the other mode's run (which would otherwise
    find it: a copy of the challenges this run's harness was never told about)."""
    needs_sandbox(request.param)
    with outside_tmp() as folder:
        yield _run(folder, request.param)


def _run(folder: Path, mode: str) -> tuple[AttackRun, Path]:
    challenges = folder / "challenges"
    shutil.copytree(CHALLENGES, challenges)
    canary = uuid.uuid4().hex
    calc = challenges / "easy" / "calc"
    (calc / "reference" / f"CANARY-REF-{canary}").write_text("the answer\n")
    (calc / "acceptance" / f"CANARY-ACC-{canary}").write_text("the hidden tests\n")
    for path in (folder, *folder.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)  # world-readable: only hiding keeps it out
    run = agentbench_run(folder, ["reference", *SEEKERS], "easy/calc", mode,
                         files=SEEKERS, challenges=challenges)
    return run, folder


def _ours() -> tuple[str, ...]:
    """Folders of this checkout the harness knows: the checkout (its built-in challenges), the
    repository its git history is in, the cache."""
    common = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--path-format=absolute",
                             "--git-common-dir"], capture_output=True, text=True).stdout.strip()
    found = [str(ROOT), str(cache_dir()), *([str(Path(common).parent)] if common else [])]
    return tuple(os.path.realpath(p) for p in found)


def _leaks(found: list[list[str]], folder: Path) -> list[list[str]]:
    """What the seeker found that the harness must hide: anything in the test's folder (the
    challenges it was given, the results, the database), a canary, another trial, this checkout's
    cache or git history (other users' checkouts and caches on the machine are not the harness's)."""
    def within(path: str, tops: tuple[str, ...]) -> bool:
        real = os.path.realpath(path.split(":", 1)[0])
        return any(real == top or real.startswith(top + os.sep) for top in tops)

    ours = _ours()
    return [[kind, path] for kind, path in found
            if within(path, (os.path.realpath(folder),)) or kind in ("canary", "other-trial")
            or (kind in ("cache", "git") and within(path, ours))]


def test_the_reference_is_scored_so_a_copy_of_it_would_be_worth_everything(hiding):
    run, _ = hiding
    assert run.trial("reference").verified_score.total >= 90


def test_a_seeker_finds_no_answer_results_database_trial_cache_or_history(hiding):
    run, folder = hiding
    found = json.loads((run.trial_dir("seeker") / "workspace" / "found.json").read_text())
    mounts = (run.trial_dir("seeker") / "workspace" / "mounts.txt").read_text()
    covers = [line.split()[4] for line in mounts.splitlines() if "agentbench-hidden" in line]
    assert _leaks(found, folder) == [], (json.dumps(_leaks(found, folder)), covers, run.trial("seeker").isolation)
    assert run.trial("seeker").verified_score.total <= 10


def test_product_code_seeking_while_measured_finds_no_reference(hiding):
    run, _ = hiding
    trial = run.trial("late-seeker")
    assert run.hidden("late-seeker")[0] == 0
    assert trial.verified_score.total <= 10
    logs = "".join(p.read_text(errors="replace") for p in (run.trial_dir("late-seeker") / "logs").rglob("*")
                   if p.is_file())
    assert "SEEKER-FOUND" in logs  # it did run where the harness measures
    assert "CANARY-REF-" not in logs


def test_results_database_and_archived_workspaces_are_not_world_readable(hiding):
    run, folder = hiding
    results = folder / "results"
    for path in (results / run.run_id, results / "agentbench.db"):
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path


def test_links_to_the_answers_are_worth_nothing(hiding):
    run, _ = hiding
    assert run.trial("link-planter").verified_score.total <= 10
    assert run.hidden("link-planter")[0] == 0


def test_regrading_runs_the_kept_code_as_confined_as_the_run_did(hiding):
    """`regrade` runs the kept workspaces' code again (own tests, hidden tests): as the trial user,
    behind the same covers, never as the harness's own (root) user."""
    run, _ = hiding
    args = [sys.executable, "-m", "agentbench", "regrade", run.run_id, "--results", str(run.results)]
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 0, proc.stderr[-3000:]
    (late,) = loads_run((run.results / "late-seeker.json").read_text()).trials
    assert late.measurements.acceptance.tests.passed == 0
    assert late.verified_score.total <= 10
    (reference,) = loads_run((run.results / "reference.json").read_text()).trials
    assert reference.verified_score.total >= 90
