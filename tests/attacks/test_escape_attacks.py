"""Attack: a command's processes try to outlive it without root's help (no cgroups, no trial user).

Each fake agent leaves processes that `setsid`, double-fork, clear their environment (so the
harness's marker variable is gone) and rename their argv, then write a "late" file some seconds
after the command ended. The class is closed when nothing of the tree survives the command (its
end, its time limit, or a `kill -9` of the harness) and no late file ever appears, also when the
harness runs as an unprivileged user (`runuser -u agentbench-bare`).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentbench import process

LATE_S = 2.5
"""When the escaped processes write their late file, after they start."""

ESCAPE = '''
import os, sys, time
BOX = sys.argv[1]
def note(name, text):
    with open(os.path.join(BOX, name), "a") as f:
        f.write(text + "\\n")
SLEEPER = """
import os, sys, time
box = sys.argv[1]
with open(os.path.join(box, "pids"), "a") as f:
    f.write(str(os.getpid()) + "\\\\n")
time.sleep(LATE)
open(os.path.join(box, "late"), "w").write("I outlived the harness")
"""
def escape():
    if os.fork():
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    os.execve(sys.executable, ["[kworker/0:1-events]", "-c", SLEEPER.replace("LATE", "LATE_S"), BOX], {})
'''.replace("LATE_S", str(LATE_S))

RESPAWNER = '''
import os, sys, time
BOX = sys.argv[1]
def note(name, text):
    with open(os.path.join(BOX, name), "a") as f:
        f.write(text + "\\n")
def respawn(generations):
    """A moving target: each generation forks the next (two for the first ones), leaves its
    session and exits; the last ones write the late file."""
    started = time.monotonic()
    for generation in range(generations):
        note("pids", str(os.getpid()))
        forks = 2 if generation < 3 else 1
        if not any(os.fork() == 0 for _ in range(forks)):
            os._exit(0)
        os.setsid()
        time.sleep(0.05)
        if time.monotonic() - started > LATE_S:
            open(os.path.join(BOX, "late"), "w").write("respawned past the end")
            os._exit(0)
    os._exit(0)
'''.replace("LATE_S", str(LATE_S))


PARRICIDE = ESCAPE + '''
import resource
def prepare():
    """Lower the tag the supervisor gave (it can never be raised back to unlimited)."""
    resource.setrlimit(10, (1000, 1000))  # RLIMIT_LOCKS
def after():
    """Once the sleeper runs, kill the supervisor (and, with "harness" given, the harness too)."""
    deadline = time.time() + 20
    while not os.path.exists(os.path.join(BOX, "pids")) and time.time() < deadline:
        time.sleep(0.01)
    supervisor = os.getppid()
    harness = int(open(f"/proc/{supervisor}/stat").read().rsplit(")", 1)[1].split()[1])
    note("killed", f"{supervisor} {harness}")  # first: the sweep may end this process at once
    os.kill(supervisor, 9)
    if "harness" in sys.argv:
        os.kill(harness, 9)
'''
"""An agent that escapes, then kills the supervisor above it (which it may: same uid)."""


def agent(box: Path, body: str) -> list[str]:
    path = box / "agent.py"
    path.write_text(body + textwrap.dedent(AGENT_TAIL), encoding="utf-8")
    return [sys.executable, str(path), str(box)]


AGENT_TAIL = """
mode = sys.argv[2] if len(sys.argv) > 2 else "exit"
if "prepare" in globals():
    prepare()
if "escape" in globals():
    escape()
if "respawn" in globals():
    if os.fork() == 0:
        respawn(400)
if "after" in globals():
    after()
time.sleep(0.5)
note("agent", "done")
if mode == "hang":
    time.sleep(300)
"""


def survivors(box: Path) -> list[int]:
    pids_file = box / "pids"
    pids = [int(p) for p in pids_file.read_text().split()] if pids_file.exists() else []
    return [p for p in pids if _alive(p)]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def assert_nothing_survives(box: Path, *, pids_visible: bool = True) -> None:
    """(`pids_visible`: the pids the attack noted are this PID namespace's.)"""
    time.sleep(LATE_S + 1.0)
    assert (box / "pids").exists(), "the attack never ran"
    assert survivors(box) == [] or not pids_visible
    assert not (box / "late").exists(), (box / "late").read_text()


@pytest.fixture
def box() -> Iterator[Path]:
    """A folder any user may write (the unprivileged harness writes here too)."""
    path = Path(tempfile.mkdtemp(prefix="agentbench-escape-"))
    path.chmod(0o777)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_agent(box: Path, argv: list[str], timeout_s: float = 20) -> process.ProcessResult:
    return process.run(argv, cwd=box, env={"PATH": os.environ["PATH"]}, timeout_s=timeout_s,
                       stdout_path=box / "out", stderr_path=box / "err")


@pytest.mark.parametrize("body", [ESCAPE, RESPAWNER], ids=["double-fork", "respawner"])
def test_nothing_outlives_a_command_that_exits(box: Path, body: str):
    result = run_agent(box, agent(box, body))
    assert result.returncode == 0, (box / "err").read_text()
    assert_nothing_survives(box)


@pytest.mark.parametrize("body", [ESCAPE, RESPAWNER], ids=["double-fork", "respawner"])
def test_nothing_outlives_a_command_at_its_time_limit(box: Path, body: str):
    result = run_agent(box, [*agent(box, body), "hang"], timeout_s=2)
    assert result.timed_out
    assert_nothing_survives(box)


HARNESS = """
import os, sys, uuid
from pathlib import Path
from agentbench import process
box = Path(sys.argv[1])
with process.guarded(uuid.uuid4().hex):
    process.run(sys.argv[2:], cwd=box, env={"PATH": os.environ["PATH"]}, timeout_s=60,
                stdout_path=box / "out", stderr_path=box / "err")
"""


def harness_argv(box: Path, argv: list[str], user: str | None) -> list[str]:
    src = Path(process.__file__).resolve().parent.parent
    base = [sys.executable, "-c", HARNESS, str(box), *argv]
    env = ["env", f"PYTHONPATH={src}", f"PATH={os.environ['PATH']}"]
    return ["runuser", "-u", user, "--", *env, *base] if user else [*env, *base]


def unprivileged_user() -> str:
    if os.geteuid() != 0:
        return pwd.getpwuid(os.geteuid()).pw_name
    try:
        pwd.getpwnam("agentbench-bare")
    except KeyError:
        subprocess.run(["useradd", "--system", "--no-create-home", "agentbench-bare"], check=True)
    return "agentbench-bare"


@pytest.mark.parametrize("body", [ESCAPE, RESPAWNER], ids=["double-fork", "respawner"])
def test_nothing_outlives_an_unprivileged_harness(box: Path, body: str):
    """The harness as a plain user: no cgroups, no trial user, only the supervisor."""
    user = unprivileged_user()
    done = subprocess.run(harness_argv(box, agent(box, body), user), capture_output=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr.decode()
    assert (box / "agent").exists(), (box / "err").read_text()
    assert_nothing_survives(box)


@pytest.mark.parametrize("user", [None, "unprivileged"])
def test_nothing_outlives_a_harness_killed_with_sigkill(box: Path, user: str | None):
    """`kill -9` of the harness mid-command: the escaped sleeper dies with it."""
    name = unprivileged_user() if user else None
    harness = subprocess.Popen(harness_argv(box, [*agent(box, ESCAPE), "hang"], name),
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while not (box / "agent").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert (box / "agent").exists(), "the agent never started"
        victim = harness.pid
        if name:  # runuser's child is the harness itself
            victim = int(subprocess.run(["pgrep", "-P", str(harness.pid)], capture_output=True,
                                        text=True, check=False).stdout.split()[0])
        os.kill(victim, signal.SIGKILL)
        assert_nothing_survives(box)
    finally:
        with_suppressed_kill(harness)


def with_suppressed_kill(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


def test_an_agent_that_kills_its_supervisor_still_leaves_nothing(box: Path):
    """The escapee carries the supervisor's tag (lowered, never removable): once its supervisor is
    gone it has no supervisor above it, and the harness kills it when the command ends."""
    result = run_agent(box, agent(box, PARRICIDE))
    assert (box / "killed").exists(), (box / "err").read_text()
    assert result.returncode == -signal.SIGKILL
    assert_nothing_survives(box)


@pytest.mark.parametrize("harness_too", [False, True], ids=["supervisor", "supervisor-and-harness"])
def test_an_unprivileged_agent_that_kills_its_supervisor_still_leaves_nothing(box: Path, harness_too: bool):
    """As a plain user: the agent kills its supervisor, or its supervisor and the harness (then the
    run's watchdog sweeps the escapees)."""
    argv = [*agent(box, PARRICIDE), "harness"] if harness_too else agent(box, PARRICIDE)
    subprocess.run(harness_argv(box, argv, unprivileged_user()), capture_output=True, timeout=120,
                   check=False)
    assert (box / "killed").exists(), (box / "err").read_text()
    assert_nothing_survives(box)


def test_a_running_command_and_its_setsid_children_are_never_taken_for_escapees(box: Path):
    """Another command's end sweeps escapees machine-wide: a tree whose supervisor lives is not one."""
    import threading

    from agentbench import supervise

    script = box / "long.py"
    script.write_text(textwrap.dedent("""
        import os, subprocess, sys, time
        child = subprocess.Popen([sys.executable, "-c", "import os, time; os.setsid(); time.sleep(30)"])
        open(sys.argv[1], "w").write(f"{os.getpid()} {child.pid}")
        time.sleep(30)
    """), encoding="utf-8")
    thread = threading.Thread(target=run_agent, args=(box, [sys.executable, str(script), str(box / "pids")]),
                              kwargs={"timeout_s": 4}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not (box / "pids").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)
    pids = {int(p) for p in (box / "pids").read_text().split()}
    assert all(supervise.tag_of(p) == supervise.TAG for p in pids)  # tagged ...
    assert not pids & supervise.escapees()  # ... yet below a live supervisor
    assert all(_alive(p) for p in pids)
    thread.join(30)
    assert not any(_alive(p) for p in pids)


E2E_AGENT = ESCAPE.replace("BOX = sys.argv[1]", "BOX = BOX_PATH") + PARRICIDE.split(ESCAPE, 1)[1] + '''
prepare()
escape()
after()
'''
"""The parricide as a `command` agent of a real run: escape, lower the tag, kill the supervisor."""


def test_a_run_as_a_plain_user_leaves_nothing_of_an_agent_that_escapes_and_kills_its_supervisor(box: Path):
    """End to end: `agentbench run` as agentbench-bare (no cgroups, no trial users), a `command`
    agent that double-forks a renamed sleeper with an empty environment, lowers its tag and kills
    its supervisor; the trial is still scored and nothing of it is alive after the run."""
    from tests.attacks.agents import CHALLENGES, agent_config, defined

    user = unprivileged_user()
    code = E2E_AGENT.replace("BOX_PATH", repr(str(box)))
    with defined({"parricide": {"__python__": code}}):
        config = agent_config(box, ["parricide"])
    (box / "home").mkdir()
    (box / "home").chmod(0o777)
    src = Path(process.__file__).resolve().parent.parent
    argv = ["runuser", "-u", user, "--", "env", f"HOME={box / 'home'}", f"PATH={os.environ['PATH']}",
            f"PYTHONPATH={src}", f"AGENTBENCH_TOOLS={os.environ.get('AGENTBENCH_TOOLS', '')}",
            sys.executable, "-m", "agentbench", "run", "--agent", "parricide", "--challenge",
            "easy/calc-nosetup", "--challenges", str(CHALLENGES), "--agents-config", str(config),
            "--results", str(box / "results"), "--sandbox", "none"]
    done = subprocess.run(argv, cwd=box, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert (box / "killed").exists(), done.stderr[-3000:]
    assert (box / "results" / "parricide.json").is_file()
    assert_nothing_survives(box)


FREEZER = ESCAPE + '''
def after():
    """Stop the supervisor (it can then neither reap nor sweep) and stop itself too."""
    deadline = time.time() + 20
    while not os.path.exists(os.path.join(BOX, "pids")) and time.time() < deadline:
        time.sleep(0.01)
    os.kill(os.getppid(), 19)
    note("killed", "stopped")
    os.kill(os.getpid(), 19)
'''
"""An agent that SIGSTOPs its supervisor, then itself, after leaving an escapee."""


def test_an_agent_that_stops_its_supervisor_ends_at_its_time_limit_and_leaves_nothing(box: Path):
    start = time.monotonic()
    result = run_agent(box, agent(box, FREEZER), timeout_s=1.5)  # before the sleeper's late file
    assert (box / "killed").exists(), (box / "err").read_text()
    assert result.timed_out
    assert time.monotonic() - start < 1.5 + 5
    assert_nothing_survives(box)


def test_the_escapee_sweep_touches_no_other_users_processes():
    """A process of another user with the tag and no supervisor (as the sweep's own rule sees an
    escapee) is left alone: only the harness's own uid's escapees are killed (trial users have
    their cgroups and their release)."""
    from agentbench import supervise

    if os.geteuid() != 0:
        pytest.skip("needs root, to start another user's process")
    entry = pwd.getpwnam(unprivileged_user())
    other = subprocess.Popen(["setpriv", f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups",
                              "prlimit", "--locks=5:5", "sleep", "30"], start_new_session=True)
    try:
        deadline = time.monotonic() + 10
        while supervise.tag_of(other.pid) != 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert supervise.tag_of(other.pid) == 5
        supervise.kill_escapees(seconds=1)
        assert other.poll() is None
    finally:
        other.kill()
        other.wait(timeout=10)


ANCESTOR_KILLER = ESCAPE + '''
def after():
    """As a trial user: try to SIGKILL every ancestor (the supervisor is root's: refused)."""
    deadline = time.time() + 20
    while not os.path.exists(os.path.join(BOX, "pids")) and time.time() < deadline:
        time.sleep(0.01)
    pid, tried = os.getppid(), []
    while pid > 1:
        try:
            os.kill(pid, 9)
            tried.append(f"{pid}:killed")
        except OSError as exc:
            tried.append(f"{pid}:{type(exc).__name__}")
        pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    note("killed", " ".join(tried))
'''


@pytest.mark.needs("trial_users", "cgroups")
@pytest.mark.parametrize("mode", ["none", pytest.param("bwrap", marks=pytest.mark.needs("bwrap"))])
def test_a_trial_user_cannot_kill_its_supervisor_and_leaves_nothing(box: Path, mode: str):
    """As root: the supervisor runs as root, outside the sandbox; the trial user's escapee dies too."""
    from agentbench.sandbox import Confinement
    from tests.test_sandbox import interpreter, make_trial

    with make_trial() as trial:
        script = trial.workspace / "agent.py"
        script.write_text(ANCESTOR_KILLER + textwrap.dedent(AGENT_TAIL), encoding="utf-8")
        result = process.run([interpreter(trial.user), str(script), str(box)], cwd=trial.workspace,
                             env={"PATH": "/usr/local/bin:/usr/bin:/bin"}, timeout_s=30,
                             stdout_path=box / "out", stderr_path=box / "err",
                             confinement=Confinement(sandbox=mode, user=trial.user,
                                                     writable=(trial.workspace, trial.home, trial.tmp, box)))
        assert result.returncode == 0, (box / "err").read_text()
        tried = (box / "killed").read_text()
        if mode == "none":  # (in bwrap its ancestors are its sandbox's, in its own PID namespace)
            assert ":killed" not in tried and "PermissionError" in tried, tried
        assert_nothing_survives(box, pids_visible=mode == "none")
