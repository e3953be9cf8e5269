"""Issue: measure a snapshot, measure defensively, only the harness excuses a trial.

Every agent here leaves something in its workspace (or makes its own tests leave something) meant to
stall, flood or fool the harness, or to get itself excused. Each trial must end within its limits
with a scored record, and the harness's memory must stay bounded. End to end through `agentbench
run`, in both sandbox modes, on the cheapest challenge (easy/calc).
"""

from __future__ import annotations

import resource
import subprocess
import sys

import pytest

from tests.attacks.agents import GREEN_TESTS, REF, WRONG_OPS, d
from tests.attacks.conftest import ROOT, mode_run

pytestmark = pytest.mark.attacks

COMPLEX = "def classify(x):\n" + "".join(
    f"    if x == {i}:\n        return {i}\n" for i in range(20)) + "    return -1\n"
"""A product module of cyclomatic complexity 21."""

COMPLEX_TESTS = GREEN_TESTS + "\n\ndef test_classify():\n    from calc.complex import classify\n" \
                              "    assert classify(3) == 3\n"

SNAPSHOT_AGENTS = {
    # a FIFO where a product file would be
    "fifo": {**REF, "__python__": 'import os\nos.mkfifo("src/calc/extra.py")\nos.mkfifo("README.txt")\n'},
    # the product module replaced by a link to /dev/zero, the README too
    "zero-link": {**REF, "__python__": d('''
        import os
        for name in ("src/calc/ops.py", "README.md"):
            os.remove(name)
            os.symlink("/dev/zero", name)
        ''')},
    # 150,000 tiny files (the agent's own file limit may stop it first)
    "many-files": {**REF, "__python__": d('''
        import os
        os.makedirs("zz", exist_ok=True)
        for i in range(150_000):
            try:
                with open(f"zz/f{i}.txt", "w") as f:
                    f.write("x")
            except OSError:
                break
        ''')},
    # two sparse 2 GiB files
    "sparse": {**REF, "__python__": d('''
        for name in ("a.bin", "src/calc/b.py"):
            with open(name, "wb") as f:
                f.truncate(2 * 1024 ** 3 - 4096)
        ''')},
    # a path longer than 4096 bytes
    "long-path": {**REF, "__python__": d('''
        import os
        home = os.getcwd()
        for _ in range(20):
            os.mkdir("d" * 250)
            os.chdir("d" * 250)
        open("deep.py", "w").write("x = 1\\n")
        os.chdir(home)
        ''')},
    # a socket file
    "socket": {**REF, "__python__": 'import socket\nsocket.socket(socket.AF_UNIX).bind("agent.sock")\n'},
    # its own tests turn a product file into a FIFO and another into a link to /dev/zero, at the end
    "fifo-conftest": {**REF, "tests/conftest.py": d('''
        import os


        def pytest_sessionfinish(session):
            os.remove("src/calc/ops.py")
            os.mkfifo("src/calc/ops.py")
            os.remove("src/calc/__init__.py")
            os.symlink("/dev/zero", "src/calc/__init__.py")
        ''')},
    # a complex module, honestly left as it is
    "complex-honest": {**REF, "src/calc/complex.py": COMPLEX, "tests/test_ops.py": COMPLEX_TESTS,
                       "tests/test_zz_last.py": "def test_last():\n    assert True\n"},
    # the same, but its last own test rewrites the complex module into a trivial one
    "late-rewriter": {**REF, "src/calc/complex.py": COMPLEX, "tests/test_ops.py": COMPLEX_TESTS,
                      "tests/test_zz_last.py": d('''
        def test_last():
            with open("src/calc/complex.py", "w") as f:
                f.write("def classify(x):\\n    return x\\n")
        ''')},
    # a faked start failure: nothing written, the shell's words, the shell's status
    "fake-start-failure": {"__python__": d('''
        import sys
        print("sh: 1: claude: not found", file=sys.stderr)
        sys.exit(127)
        ''')},
    # half right, honestly
    "honest": {**REF, "src/calc/ops.py": WRONG_OPS, "tests/test_ops.py": GREEN_TESTS},
    # the same work, plus a FIFO, a socket and a /dev/zero link where measuring would stumble
    "selective-excuser": {**REF, "src/calc/ops.py": WRONG_OPS, "tests/test_ops.py": GREEN_TESTS,
                          "__python__": d('''
        import os, socket
        os.mkfifo("src/calc/div.py")
        socket.socket(socket.AF_UNIX).bind("src/calc/s.py")
        os.symlink("/dev/zero", "src/calc/power.py")
        ''')},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def snapshot_attacks(request, shared_folder):
    run = mode_run(shared_folder, "snapshot", list(SNAPSHOT_AGENTS), "easy/calc", request.param,
                   "--retries", "1", files=SNAPSHOT_AGENTS)
    return run, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


SLOW = {"many-files": 900}
"""Seconds a trial may take: writing, then removing 150,000 files is slow on a busy disk (2-5 ms an
unlink); the harness's own share is bounded by the snapshot's 5,000 files."""


def scored(run, agent):
    trial = run.trial(agent)
    assert trial.status not in ("infra_error", "verifier_error"), (agent, trial.status, trial.error)
    assert trial.scored and trial.duration_s < SLOW.get(agent, 240), (agent, trial.duration_s)
    return trial


def cuts(trial) -> str:
    return "\n".join(trial.cut)


def test_every_trial_ends_scored_within_limits_and_the_harness_stays_small(snapshot_attacks):
    run, max_rss_kib = snapshot_attacks
    for agent in SNAPSHOT_AGENTS:
        scored(run, agent)
    assert max_rss_kib < 1024 * 1024  # no process of the run (the harness included) reached 1 GiB


def test_special_files_are_recorded_never_opened(snapshot_attacks):
    run, _ = snapshot_attacks
    fifo = scored(run, "fifo")
    assert fifo.measurements.acceptance.tests.passed == 10
    assert "snapshot: fifo src/calc/extra.py" in cuts(fifo) and "snapshot: fifo README.txt" in cuts(fifo)
    sock = scored(run, "socket")
    assert "snapshot: socket agent.sock" in cuts(sock) and sock.measurements.acceptance.tests.passed == 10
    zero = scored(run, "zero-link")
    assert "src/calc/ops.py -> /dev/zero" in zero.measurements.removed_symlinks
    assert zero.measurements.acceptance.tests.passed == 0  # no ops module: the product is missing
    assert "README.md" in zero.measurements.completeness.missing


def test_show_prints_what_the_snapshot_skipped(snapshot_attacks):
    run, _ = snapshot_attacks
    proc = subprocess.run([sys.executable, "-m", "agentbench", "show", run.run_id, "fifo/easy/calc/1",
                           "--results", str(run.results)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "cut: snapshot: fifo src/calc/extra.py: not a regular file" in proc.stdout


def test_many_files_are_capped_and_the_archive_bounded(snapshot_attacks):
    run, _ = snapshot_attacks
    trial = scored(run, "many-files")
    assert "over 5000 files" in cuts(trial)
    assert trial.measurements.acceptance.tests.passed == 10  # its product came first, whole
    archived = sum(1 for p in (run.trial_dir("many-files") / "workspace").rglob("*") if p.is_file())
    assert archived <= 5_000


def test_sparse_and_long_paths_are_refused_and_recorded(snapshot_attacks):
    run, _ = snapshot_attacks
    sparse = scored(run, "sparse")
    assert "snapshot: too large a.bin" in cuts(sparse) and "sparse" in cuts(sparse)
    assert "snapshot: too large src/calc/b.py" in cuts(sparse)
    assert sparse.measurements.acceptance.tests.passed == 10
    archive = run.trial_dir("sparse") / "workspace"
    assert not (archive / "a.bin").exists()
    deep = scored(run, "long-path")
    assert "snapshot: path too long" in cuts(deep) and deep.measurements.acceptance.tests.passed == 10


def test_files_the_own_tests_turn_into_fifos_or_links_are_never_read(snapshot_attacks):
    run, _ = snapshot_attacks
    trial = scored(run, "fifo-conftest")
    m = trial.measurements
    assert m.acceptance.tests.passed == 10 and m.tests.passed == m.tests.total > 0
    assert m.coverage.covered_lines > 0 and m.quality.functions >= 5  # read from the snapshot


def test_a_module_rewritten_by_the_last_own_test_gains_nothing(snapshot_attacks):
    run, _ = snapshot_attacks
    honest, rewriter = scored(run, "complex-honest"), scored(run, "late-rewriter")
    assert rewriter.measurements.quality.average_complexity == honest.measurements.quality.average_complexity
    assert rewriter.measurements.coverage.total_lines == honest.measurements.coverage.total_lines
    assert abs(rewriter.score.quality - honest.score.quality) <= 0.5
    assert abs(rewriter.score.coverage - honest.score.coverage) <= 0.5


def test_a_faked_start_failure_is_the_agents_failure(snapshot_attacks):
    run, _ = snapshot_attacks
    trial = scored(run, "fake-start-failure")
    assert trial.status == "agent_error"


def test_the_selective_excuser_scores_what_the_honest_agent_scores(snapshot_attacks):
    run, _ = snapshot_attacks
    honest, excuser = scored(run, "honest"), scored(run, "selective-excuser")
    for part in ("build", "tests", "coverage", "quality", "completeness"):
        assert getattr(excuser.score, part) == pytest.approx(getattr(honest.score, part)), part
    assert excuser.measurements.acceptance.tests.passed == honest.measurements.acceptance.tests.passed
    assert abs(excuser.verified_score.total - honest.verified_score.total) <= 1.0  # efficiency: time only
