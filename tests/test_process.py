import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from agentbench import process
from agentbench.sandbox import Confinement, Limits

ENV = {"PATH": os.environ["PATH"]}


def script(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "agent.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return [sys.executable, str(path)]


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_captures_output_and_exit_code(tmp_path: Path):
    argv = script(tmp_path, """
        import sys
        print("out")
        print("err", file=sys.stderr)
        sys.exit(3)
    """)
    r = process.run(argv, cwd=tmp_path, env=ENV, timeout_s=10, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e")
    assert r.returncode == 3 and not r.timed_out and not r.ok
    assert (tmp_path / "o").read_text() == "out\n"
    assert (tmp_path / "e").read_text() == "err\n"


def test_timeout_kills_children_and_setsid_grandchildren(tmp_path: Path):
    argv = script(tmp_path, """
        import os, subprocess, sys, time
        a = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(300)"])
        b = subprocess.Popen([sys.executable, "-c", "import os, time; os.setsid(); time.sleep(300)"])
        print(a.pid, b.pid, flush=True)
        time.sleep(300)
    """)
    start = time.monotonic()
    r = process.run(argv, cwd=tmp_path, env=ENV, timeout_s=1.5, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e")
    assert r.timed_out and r.returncode is None
    assert time.monotonic() - start < 10
    pids = [int(p) for p in (tmp_path / "o").read_text().split()]
    assert len(pids) == 2
    assert not any(alive(p) for p in pids)


def test_children_left_behind_after_a_normal_exit_are_killed(tmp_path: Path):
    argv = script(tmp_path, """
        import subprocess, sys
        p = subprocess.Popen([sys.executable, "-c", "import os, time; os.setsid(); time.sleep(300)"])
        print(p.pid, flush=True)
    """)
    r = process.run(argv, cwd=tmp_path, env=ENV, timeout_s=10, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e")
    assert r.ok
    assert not alive(int((tmp_path / "o").read_text()))


def test_output_is_capped_but_drained(tmp_path: Path):
    argv = script(tmp_path, """
        import sys
        for _ in range(2000):
            sys.stdout.write("x" * 1000)
        print("end")
    """)
    r = process.run(argv, cwd=tmp_path, env=ENV, timeout_s=20, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e", max_output_bytes=10_000)
    assert r.ok and r.output_truncated
    assert (tmp_path / "o").stat().st_size == 10_000


def test_environment_is_explicit(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("AGENTBENCH_TEST_SECRET", "s3cret")
    argv = script(tmp_path, """
        import os
        print(os.environ.get("AGENTBENCH_TEST_SECRET"), os.environ.get("GIVEN"))
    """)
    process.run(argv, cwd=tmp_path, env={**ENV, "GIVEN": "yes"}, timeout_s=10,
                stdout_path=tmp_path / "o", stderr_path=tmp_path / "e")
    assert (tmp_path / "o").read_text().strip() == "None yes"


def test_stdin_is_closed_by_default(tmp_path: Path):
    argv = script(tmp_path, """
        import sys
        print(repr(sys.stdin.read()))
    """)
    r = process.run(argv, cwd=tmp_path, env=ENV, timeout_s=5, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e")
    assert r.ok and (tmp_path / "o").read_text().strip() == "''"


def test_missing_executable_is_reported_not_raised(tmp_path: Path):
    r = process.run(["/nonexistent/agent"], cwd=tmp_path, env=ENV, timeout_s=5,
                    stdout_path=tmp_path / "o", stderr_path=tmp_path / "e")
    assert r.returncode is None and r.start_error and "FileNotFoundError" in r.start_error
    assert "could not start" in (tmp_path / "e").read_text()


# -- what the harness cut or refused ------------------------------------------------------------------

needs_cgroups = pytest.mark.needs("cgroups")


def test_dropped_output_is_counted_to_the_byte(tmp_path: Path):
    argv = script(tmp_path, """
        import sys
        sys.stdout.buffer.write(b"o" * 3_000_000)
        sys.stderr.buffer.write(b"e" * 1_500_000)
    """)
    r = process.run(argv, cwd=tmp_path, env=ENV, timeout_s=30, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e", max_output_bytes=1_000_000)
    assert r.ok and r.output_truncated
    assert r.output_dropped_bytes == 2_000_000 + 500_000
    assert (tmp_path / "o").stat().st_size == (tmp_path / "e").stat().st_size == 1_000_000
    assert r.limit_hit is None  # output beyond the cap is drained, not a stop


def test_nothing_is_reported_when_no_limit_is_hit(tmp_path: Path):
    argv = script(tmp_path, "print('fine')")
    r = process.run(argv, cwd=tmp_path, env=ENV, timeout_s=10, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e", confinement=Confinement(writable=(tmp_path,)))
    assert r.ok and r.limit_hit is None and r.output_dropped_bytes == 0 and not r.oom_killed


@needs_cgroups
def test_memory_hog_is_named_an_out_of_memory_kill_with_its_limit(tmp_path: Path):
    argv = script(tmp_path, """
        chunks = []
        while True:
            chunks.append(bytearray(16 * 1024 * 1024))
    """)
    r = process.run(argv, cwd=tmp_path, env=ENV, timeout_s=60, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e", confinement=Confinement(limits=Limits(memory_mb=64)))
    assert not r.timed_out and r.returncode == -signal.SIGKILL
    assert r.oom_killed and r.memory_limit_mb == 64
    assert r.limit_hit and "out of memory" in r.limit_hit and "64 MiB memory limit" in r.limit_hit


BOMB = """
    import os, sys, time
    limit, kind = int(sys.argv[1]), sys.argv[2]
    os.makedirs("bomb", exist_ok=True)
    n = 0
    while True:
        n += 1
        if kind == "files":
            open(f"bomb/{n}", "w").close()
        else:
            with open(f"bomb/{n}", "wb") as f:
                f.write(b"x" * 1024 * 1024)
            time.sleep(0.002)
        if n == limit + 1:
            print("OVER", time.time(), flush=True)
"""


def run_bomb(tmp_path: Path, kind: str, limit: int, limits: Limits) -> tuple[process.ProcessResult, float, Path]:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    argv = [*script(tmp_path, BOMB), str(limit), kind]
    r = process.run(argv, cwd=workspace, env=ENV, timeout_s=60, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e",
                    confinement=Confinement(writable=(workspace, tmp_path / "home"), limits=limits))
    ended = time.time()
    over = float((tmp_path / "o").read_text().split("OVER")[1].split()[0])
    return r, ended - over, workspace


def test_file_count_bomb_is_stopped_within_about_a_second(tmp_path: Path):
    r, late, _ = run_bomb(tmp_path, "files", 3000, Limits(files=3000))
    assert not r.timed_out and not r.ok
    assert r.limit_hit == "more than 3000 files in the workspace (workspace, home)"
    assert late < 2.5, late  # stopped within about a second of going over (plus the kill)


def test_disk_filler_is_stopped_within_about_a_second(tmp_path: Path):
    r, late, workspace = run_bomb(tmp_path, "disk", 40, Limits(disk_mb=40))
    assert not r.timed_out and not r.ok
    assert r.limit_hit and r.limit_hit.startswith("disk use over 40 MiB in the workspace (")
    assert late < 2.5, late
    assert sum(p.stat().st_size for p in (workspace / "bomb").iterdir()) < 1024 * 1024 * 1024


def test_disk_watch_counts_hard_links_once_and_never_follows_links(tmp_path: Path):
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "big").write_bytes(b"x" * 3 * 1024 * 1024)
    os.link(folder / "big", folder / "same")
    (folder / "up").symlink_to("/usr")  # followed, this would be gigabytes
    assert process.over_limits([folder], Limits(disk_mb=4, files=10)) is None
    assert process.over_limits([folder], Limits(disk_mb=2)) == "disk use over 2 MiB in the w (3 MiB in w)"
    assert process.over_limits([folder], Limits(files=2)) == "more than 2 files in the w (w)"


def test_file_size_limit_is_named(tmp_path: Path):
    r = process.run(["dd", "if=/dev/zero", f"of={tmp_path / 'big'}", "bs=1M", "count=3"], cwd=tmp_path,
                    env=ENV, timeout_s=20, stdout_path=tmp_path / "o", stderr_path=tmp_path / "e",
                    confinement=Confinement(limits=Limits(file_size_mb=1)))
    assert r.returncode == -signal.SIGXFSZ
    assert r.limit_hit == "file size: a file went over the 1 MiB limit (SIGXFSZ)"


@needs_cgroups
def test_forks_refused_at_the_process_limit_are_reported(tmp_path: Path):
    argv = script(tmp_path, """
        import subprocess
        kids = []
        for _ in range(30):
            try:
                kids.append(subprocess.Popen(["sleep", "5"]))
            except OSError:
                pass
    """)
    r = process.run(argv, cwd=tmp_path, env=ENV, timeout_s=30, stdout_path=tmp_path / "o",
                    stderr_path=tmp_path / "e", confinement=Confinement(limits=Limits(processes=8)))
    assert r.limit_hit and r.limit_hit.startswith("process limit: ") and "at 8 processes" in r.limit_hit


# -- survivors: the cgroup first, /proc only without one ----------------------------------------------

def test_survivor_check_reads_only_the_cgroup_when_the_tree_cannot_leave_it(tmp_path: Path):
    marked = subprocess.Popen(["sleep", "30"], env={**ENV, process.MARKER_VARIABLE: "m"})
    try:
        groups = (tmp_path / "group",)
        (tmp_path / "group").mkdir()
        (tmp_path / "group" / "cgroup.procs").write_text("")
        contained = process._Tree("m", groups, contained=True)
        scanned = process._Tree("m", groups, contained=False)
        assert contained.members(None) == set()  # the marked process is not in the cgroup
        assert marked.pid in scanned.members(None)  # the fallback scan of /proc finds it
        (tmp_path / "group" / "cgroup.procs").write_text(f"{marked.pid}\n")
        assert contained.members(None) == {marked.pid}
    finally:
        marked.kill()
        marked.wait()


def test_adapter_result_carries_dropped_output_and_the_limit_hit(tmp_path: Path):
    from agentbench.adapters.base import AdapterContext
    from agentbench.adapters.command import CommandTemplateAdapter
    from agentbench.loader import load_challenge
    from agentbench.models import AgentConfig
    from tests.conftest import make_tiny_challenge

    agent = tmp_path / "agent.py"
    agent.write_text(textwrap.dedent("""
        import os, sys
        sys.stdout.write("x" * 30_000_000)
        sys.stdout.flush()
        n = 0
        while True:
            n += 1
            open(f"f{n}", "w").close()
    """))
    make_tiny_challenge(tmp_path / "ch")
    challenge = load_challenge(tmp_path / "ch" / "easy" / "adder.yaml")
    adapter = CommandTemplateAdapter(AgentConfig(name="bomb", adapter="command",
                                                 command=(sys.executable, str(agent))))
    workspace = tmp_path / "ws"
    workspace.mkdir()
    context = AdapterContext(challenge=challenge, logs_dir=tmp_path / "logs", home=tmp_path / "home",
                             tmp=tmp_path / "tmp", confinement=Confinement(limits=Limits(files=500)))
    result = adapter.run_challenge("prompt", workspace, 1, context=context)
    assert result.output_dropped_bytes == 30_000_000 - process.DEFAULT_MAX_OUTPUT_BYTES
    assert result.limit_hit == "more than 500 files in the ws (ws, home, tmp)"
    assert not result.success and result.error == f"stopped by the harness: {result.limit_hit}"
