import os
import sys
import textwrap
import time
from pathlib import Path

from agentbench import process

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
