"""Attacks on the process layer, run for real: an agent as its trial user (both sandbox modes) cannot
loosen or leave its cgroup, read the harness's environment, write root's folders or another trial's;
bwrap shows symlinked tools' install trees; root in bwrap has no capabilities.

Each attack is a small script run through `process.run` exactly as the runner runs an agent; where it
matters, a control run without the trial user shows that the attack is real (it succeeds there)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from agentbench import process, users
from agentbench.sandbox import Confinement, Limits, TrialUser, describe

CI = bool(os.environ.get("CI"))
PROBLEM = users.trial_users_problem() or (None if process.cgroups_available() else "no cgroups here")
needs_trial_users = pytest.mark.needs("trial_users", "cgroups")
needs_bwrap = pytest.mark.needs("bwrap")
MODES = ["none", pytest.param("bwrap", marks=needs_bwrap)]
ENV = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}


@dataclass(frozen=True)
class Trial:
    user: TrialUser
    root: Path
    workspace: Path
    home: Path
    tmp: Path

    def confinement(self, sandbox: str, **kwargs) -> Confinement:
        return Confinement(sandbox=sandbox, user=self.user,
                           writable=(self.workspace, self.home, self.tmp), **kwargs)


@contextlib.contextmanager
def make_trial() -> Iterator[Trial]:
    """A trial as the runner lays it out: a fresh folder under the system temp folder, handed over."""
    with users.trial_user() as user:
        assert user is not None, PROBLEM
        root = Path(tempfile.mkdtemp(prefix="agentbench-trial-"))
        try:
            dirs = [root / name for name in ("workspace", "home", "tmp")]
            for folder in dirs:
                folder.mkdir()
            users.hand_over(user, root, dirs)
            yield Trial(user, root, *dirs)
        finally:
            shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def trial() -> Iterator[Trial]:
    with make_trial() as made:
        yield made


def interpreter(user: TrialUser | None) -> str:
    """A Python the trial user can run (AgentBench's own may live under a 0700 /root)."""
    for candidate in (sys.executable, "/usr/bin/python3", shutil.which("python3") or ""):
        if candidate and (user is None or users.reachable(user, Path(candidate), execute=True) is None):
            return candidate
    pytest.fail("no Python interpreter the trial user can run (install python3 outside /root)")


def attack(tmp_path: Path, trial: Trial | None, body: str, confinement: Confinement | None,
           *args: str) -> tuple[process.ProcessResult, str]:
    """Run `body` as a Python script the way an agent runs; return the result and its output."""
    folder = trial.workspace if trial else tmp_path
    script = folder / "attack.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    result = process.run([interpreter(trial.user if trial else None), str(script), *args], cwd=folder,
                         env=ENV, timeout_s=30, stdout_path=tmp_path / "out",
                         stderr_path=tmp_path / "err", confinement=confinement)
    return result, (tmp_path / "out").read_text() + (tmp_path / "err").read_text()


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


RAISE_PIDS_MAX = """
    import os, subprocess
    for line in open("/proc/self/cgroup"):
        hierarchy, controllers, path = line.strip().split(":", 2)
        for base in ("/sys/fs/cgroup/pids", "/sys/fs/cgroup"):
            target = base + path + "/pids.max"
            if ("pids" in controllers.split(",") or controllers == "") and os.path.exists(target):
                try:
                    open(target, "w").write("max")
                    print("RAISED", target)
                except OSError as exc:
                    print("refused", target, type(exc).__name__)
    started = []
    for _ in range(60):
        try:
            started.append(subprocess.Popen(["sleep", "30"]))
        except OSError:
            pass
    print("STARTED", len(started))
"""


@needs_trial_users
@pytest.mark.parametrize("sandbox", MODES)
def test_trial_user_cannot_raise_its_process_limit(tmp_path, trial, sandbox):
    limits = Limits(processes=20)
    result, out = attack(tmp_path, trial, RAISE_PIDS_MAX, trial.confinement(sandbox, limits=limits))
    assert "RAISED" not in out and "refused" in out, out
    started = int(out.split("STARTED")[1].split()[0])
    assert started < 20, out  # the limit held: python, bwrap and the sleeps share 20
    assert result.limit_hit and "process limit" in result.limit_hit


LEAVE_CGROUP = """
    import os, time
    TARGETS = ["/sys/fs/cgroup/pids/cgroup.procs", "/sys/fs/cgroup/pids/agentbench/cgroup.procs",
               "/sys/fs/cgroup/memory/cgroup.procs", "/sys/fs/cgroup/memory/agentbench/cgroup.procs",
               "/sys/fs/cgroup/cgroup.procs", "/sys/fs/cgroup/unified/cgroup.procs"]
    def leave(pid):
        for target in TARGETS:
            try:
                with open(target, "w") as handle:
                    handle.write(str(pid))
                print("MOVED", target, flush=True)
            except OSError as exc:
                print("refused", target, type(exc).__name__, flush=True)
    child = os.fork()
    if child == 0:
        os.setsid()
        leave(os.getpid())
        print("DAEMON", open("/proc/self/stat").read().split()[0], flush=True)
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.execve("/bin/sleep", ["sleep", "300"], {})  # no marker variable left in its environment
    time.sleep(1)
"""


def daemon_pid(out: str) -> int:
    return int(out.split("DAEMON")[1].split()[0])


@needs_trial_users
@pytest.mark.parametrize("sandbox", MODES)
def test_trial_user_cannot_leave_its_cgroup_and_dies_with_it(tmp_path, trial, sandbox):
    before = process.user_processes(trial.user.uid)
    result, out = attack(tmp_path, trial, LEAVE_CGROUP, trial.confinement(sandbox))
    assert "MOVED" not in out, out
    assert "DAEMON" in out, out
    assert result.ok
    assert process.user_processes(trial.user.uid) - before == set()  # the setsid daemon is dead


@needs_trial_users
def test_as_root_the_same_daemon_leaves_its_cgroup_but_not_its_supervisor(tmp_path):
    _, out = attack(tmp_path, None, LEAVE_CGROUP, Confinement())
    pid = daemon_pid(out)
    try:
        assert "MOVED" in out  # the attack is real: without a trial user it leaves the cgroup ...
        assert not alive(pid)  # ... but stays below the command's supervisor (a subreaper), which kills it
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


READ_ENVIRON = """
    import sys
    for pid in sys.argv[1:]:
        try:
            print(pid, open(f"/proc/{pid}/environ", "rb").read().decode(errors="replace"))
        except OSError as exc:
            print(pid, "refused", type(exc).__name__)
"""


@contextlib.contextmanager
def harness_with_secret() -> Iterator[tuple[int, str]]:
    secret = "sk-agentbench-test-" + os.urandom(8).hex()
    proc = subprocess.Popen(["sleep", "60"], env={"ANTHROPIC_API_KEY": secret})
    try:
        yield proc.pid, secret
    finally:
        proc.kill()
        proc.wait()


@needs_trial_users
@pytest.mark.parametrize("sandbox", MODES)
def test_trial_user_cannot_read_the_harness_environment(tmp_path, trial, sandbox):
    with harness_with_secret() as (pid, secret):
        _, out = attack(tmp_path, trial, READ_ENVIRON, trial.confinement(sandbox), str(pid), str(os.getpid()))
    assert secret not in out and "PATH=" not in out, out
    assert out.count("refused") == 2, out


@needs_trial_users
def test_control_as_root_the_harness_environment_is_readable(tmp_path):
    with harness_with_secret() as (pid, secret):
        _, out = attack(tmp_path, None, READ_ENVIRON, Confinement(), str(pid))
    assert secret in out  # the attack is real without a trial user


WRITE_FOLDER = """
    import os, sys
    for target in sys.argv[1:]:
        for name, action in (
            ("create", lambda: open(os.path.join(target, "planted.py"), "w").write("x")),
            ("append", lambda: open(os.path.join(target, "test_hidden.py"), "a").write("assert 1")),
            ("replace", lambda: os.replace(os.path.join(target, "test_hidden.py"), os.path.join(target, "x"))),
            ("remove", lambda: os.unlink(os.path.join(target, "test_hidden.py"))),
            ("chmod", lambda: os.chmod(target, 0o777)),
            ("list", lambda: os.listdir(target)),
        ):
            try:
                action()
                print("DONE", name, target)
            except OSError as exc:
                print("refused", name, target, type(exc).__name__)
"""


def snapshot(folder: Path) -> dict[str, object]:
    return {"mode": folder.stat().st_mode,
            **{p.name: p.read_bytes() for p in sorted(folder.iterdir())}}


@pytest.fixture
def root_folder() -> Iterator[Path]:
    """A root-owned, world-readable folder outside the temp folders, like the challenges or the cache."""
    folder = Path(tempfile.mkdtemp(prefix=".attack-target-", dir=Path(__file__).parent))
    folder.chmod(0o755)
    (folder / "test_hidden.py").write_text("def test_hidden():\n    assert False\n")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@needs_trial_users
@pytest.mark.parametrize("sandbox", MODES)
def test_trial_user_cannot_write_a_root_folder(tmp_path, trial, sandbox, root_folder):
    before = snapshot(root_folder)
    result, out = attack(tmp_path, trial, WRITE_FOLDER, trial.confinement(sandbox), str(root_folder))
    assert result.ok, out
    assert {line.split()[1] for line in out.splitlines() if line.startswith("DONE")} <= {"list"}, out
    assert out.count("refused") >= 5, out
    assert snapshot(root_folder) == before


@needs_trial_users
@pytest.mark.parametrize("sandbox", MODES)
def test_trial_user_cannot_enter_another_trials_folders(tmp_path, trial, sandbox):
    with make_trial() as other:
        assert other.user != trial.user  # one user per concurrent trial
        (other.workspace / "test_hidden.py").write_text("secret work of the other trial\n")
        os.chown(other.workspace / "test_hidden.py", other.user.uid, other.user.gid)
        before = snapshot(other.workspace)
        result, out = attack(tmp_path, trial, WRITE_FOLDER, trial.confinement(sandbox),
                             str(other.workspace), str(other.root), str(other.home))
        assert result.ok, out
        assert "DONE" not in out and "secret work" not in out, out
        assert snapshot(other.workspace) == before


OWN_FOLDERS = """
    import os, sys
    for target in ("workspace/ok", "home/ok", "tmp/ok", "planted", "harness"):
        path = os.path.join(sys.argv[1], target)
        try:
            open(path, "w").write("x")
            print("WROTE", target)
        except OSError as exc:
            print("refused", target, type(exc).__name__)
"""


@needs_trial_users
@pytest.mark.parametrize("sandbox", MODES)
def test_trial_user_writes_its_own_folders_only(tmp_path, trial, sandbox):
    _, out = attack(tmp_path, trial, OWN_FOLDERS, trial.confinement(sandbox), str(trial.root))
    wrote = [line.split()[1] for line in out.splitlines() if line.startswith("WROTE")]
    assert wrote == ["workspace/ok", "home/ok", "tmp/ok"], out
    assert not (trial.root / "planted").exists() and not (trial.root / "harness").exists()


@needs_trial_users
def test_two_trials_at_once_get_two_users_and_a_released_user_is_clean(tmp_path):
    with users.trial_user() as first, users.trial_user() as second:
        assert first is not None and second is not None and first.uid != second.uid
        setpriv = ["setpriv", f"--reuid={first.uid}", f"--regid={first.gid}", "--clear-groups", "--"]
        left = subprocess.Popen([*setpriv, "sleep", "300"], start_new_session=True)
        subprocess.run([*setpriv, "touch", f"/tmp/agentbench-left-{first.uid}"], check=True)
    assert left.wait(timeout=10) == -signal.SIGKILL  # killed when its trial ended
    assert not Path(f"/tmp/agentbench-left-{first.uid}").exists()


@needs_trial_users
def test_a_trial_folder_left_by_a_killed_run_is_out_of_reach_of_the_uids_next_trial():
    """A run killed outright (SIGKILL, power cut) leaves its trial folder handed to the uid; the next
    trial of that uid must not be able to write into it (nor into any other trial's)."""
    with users.trial_user() as user:
        assert user is not None
    stale = Path(tempfile.mkdtemp(prefix="agentbench-trial-"))  # as the killed run left it
    try:
        (stale / "workspace").mkdir()
        users.hand_over(user, stale, [stale / "workspace"])
        with users.trial_user() as again:
            assert again is not None
            setpriv = ["setpriv", f"--reuid={again.uid}", f"--regid={again.gid}", "--clear-groups", "--"]
            script = "for w in /tmp/agentbench-trial-*/workspace; do touch $w/vandal && echo WROTE $w; done"
            out = subprocess.run([*setpriv, "/bin/sh", "-c", script], capture_output=True, text=True).stdout
            assert "WROTE" not in out
            assert again.uid != user.uid or not stale.exists()
    finally:
        shutil.rmtree(stale, ignore_errors=True)


@needs_trial_users
def test_hand_over_and_reachability(tmp_path):
    with make_trial() as trial:
        assert trial.root.stat().st_uid == 0 and trial.root.stat().st_mode & 0o777 == 0o710
        assert trial.root.stat().st_gid == trial.user.gid
        for folder in (trial.workspace, trial.home, trial.tmp):
            assert folder.stat().st_uid == trial.user.uid and folder.stat().st_mode & 0o777 == 0o700
        assert users.reachable(trial.user, trial.workspace) is None
        private = Path(tempfile.mkdtemp(dir=tmp_path))  # 0700, root's
        (private / "tool").write_text("#!/bin/sh\n")
        problem = users.reachable(trial.user, private / "tool", execute=True)
        assert problem and "not enterable by the trial user" in problem
        assert users.reachable(trial.user, Path("/usr/bin/env"), execute=True) is None


@needs_trial_users
def test_isolation_says_what_each_trial_gets():
    label = users.isolation("none")
    assert label.label.startswith("process-group+user+cgroup")
    assert label.separated and label.jobs_problem(4) is None
    assert any(note.startswith("user: each trial runs as its own unprivileged uid") for note in label.notes)
    assert describe(Confinement(), cgroup=False).startswith("process-group")


def test_without_trial_users_jobs_need_a_sandbox():
    unseparated = users.Isolation(label="process-group", separated=False, notes=(), hint="h")
    assert unseparated.jobs_problem(1) is None
    problem = unseparated.jobs_problem(2)
    assert problem and "--jobs 2" in problem


@needs_bwrap
def test_root_in_bwrap_without_a_trial_user_has_no_capabilities(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("only root keeps capabilities in bwrap")
    result = process.run(["/bin/sh", "-c", "mount -o remount,rw / && echo REMOUNTED; "
                          "grep CapEff /proc/self/status; echo x > /etc/agentbench-escaped"],
                         cwd=tmp_path, env=ENV, timeout_s=20, stdout_path=tmp_path / "out",
                         stderr_path=tmp_path / "err",
                         confinement=Confinement(sandbox="bwrap", writable=(tmp_path,)))
    out = (tmp_path / "out").read_text()
    assert "REMOUNTED" not in out and "CapEff:\t0000000000000000" in out, out
    assert not Path("/etc/agentbench-escaped").exists()
    assert result.returncode != 0


# -- item 7: symlinked executables under the system temp folder stay runnable in bwrap ---------------

@pytest.fixture
def tools() -> Iterator[Path]:
    """An installer's layout under the system temp folder: bin/ links into package folders."""
    root = Path(tempfile.mkdtemp(prefix="agentbench-tools-"))
    root.chmod(0o755)
    package = root / "tool-pkg" / "node_modules" / "tool"
    package.mkdir(parents=True)
    (package / "data.txt").write_text("install tree visible\n")
    (package / "cli.sh").write_text(
        "#!/usr/bin/env mysh\n"
        'here=$(dirname "$(readlink -f "$0")")\n'
        'cat "$here/data.txt"\n'
        'echo "interpreter $(readlink -f /proc/$$/exe)"\n')
    (package / "cli.sh").chmod(0o755)
    interp = root / "interp" / "libexec"
    interp.mkdir(parents=True)
    shutil.copy2(os.path.realpath("/bin/sh"), interp / "real-sh")
    bin_dir = root / "bin"
    bin_dir.mkdir()
    (bin_dir / "tool").symlink_to("../tool-pkg/node_modules/tool/cli.sh")
    (bin_dir / "mysh").symlink_to(interp / "real-sh")
    for dirpath, dirnames, _ in os.walk(root):
        for name in dirnames:
            os.chmod(os.path.join(dirpath, name), 0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


def run_tool(tmp_path: Path, tools: Path, confinement: Confinement, cwd: Path) -> tuple[process.ProcessResult, str]:
    env = {**ENV, "PATH": f"{tools / 'bin'}:{ENV['PATH']}"}
    result = process.run([str(tools / "bin" / "tool")], cwd=cwd, env=env, timeout_s=20,
                         stdout_path=tmp_path / "out", stderr_path=tmp_path / "err",
                         confinement=confinement)
    return result, (tmp_path / "out").read_text() + (tmp_path / "err").read_text()


def test_symlinked_tool_runs_unconfined(tmp_path, tools):
    result, out = run_tool(tmp_path, tools, Confinement(), tmp_path)
    assert result.ok and "install tree visible" in out, out


@needs_bwrap
def test_symlinked_tool_and_interpreter_under_tmp_run_in_bwrap(tmp_path, tools):
    workspace = Path(tempfile.mkdtemp(prefix="agentbench-ws-"))
    try:
        result, out = run_tool(tmp_path, tools, Confinement(sandbox="bwrap", writable=(workspace,)), workspace)
    finally:
        shutil.rmtree(workspace)
    assert result.ok, out
    assert "install tree visible" in out
    assert f"interpreter {tools / 'interp' / 'libexec' / 'real-sh'}" in out


@needs_bwrap
@needs_trial_users
def test_symlinked_tool_runs_in_bwrap_as_the_trial_user(tmp_path, tools, trial):
    result, out = run_tool(tmp_path, tools, trial.confinement("bwrap"), trial.workspace)
    assert result.ok, out
    assert "install tree visible" in out


@needs_bwrap
def test_tools_tree_is_read_only_and_the_rest_of_tmp_stays_hidden(tmp_path, tools):
    stranger = Path(tempfile.mkdtemp(prefix="agentbench-other-"))
    (stranger / "secret").write_text("other trial\n")
    script = (f"cat {stranger}/secret; echo x > {tools}/bin/planted && echo WROTE; "
              f"ls {tools}/tool-pkg/node_modules/tool")
    try:
        process.run(["/bin/sh", "-c", script, str(tools / "bin" / "tool")], cwd=Path("/"), env=ENV,
                    timeout_s=20, stdout_path=tmp_path / "out", stderr_path=tmp_path / "err",
                    confinement=Confinement(sandbox="bwrap", readable=(tools / "bin",)))
    finally:
        shutil.rmtree(stranger)
    out = (tmp_path / "out").read_text()
    assert "other trial" not in out and "WROTE" not in out
    assert not (tools / "bin" / "planted").exists()
    assert "cli.sh" in out  # the install tree of the link in a visible PATH folder is visible


@needs_bwrap
def test_hidden_folders_are_empty_in_bwrap_but_named_files_in_them_stay(tmp_path, root_folder):
    named = root_folder / "prompt.txt"
    named.write_text("the prompt\n")
    script = f"ls -a {root_folder}; cat {named}"
    process.run(["/bin/sh", "-c", script, str(named)], cwd=Path("/"), env=ENV, timeout_s=20,
                stdout_path=tmp_path / "out", stderr_path=tmp_path / "err",
                confinement=Confinement(sandbox="bwrap", hidden=(root_folder,)))
    out = (tmp_path / "out").read_text()
    assert "test_hidden.py" not in out
    assert "the prompt" in out


# -- the real agent CLIs run as the trial user (their per-trial config files are given to it) ---------

REAL_CLIS = {"claude-code": "claude", "codex": "codex", "gemini": "gemini", "aider": "aider",
             "opencode": "opencode", "qwen": "qwen"}
TOOLS_BIN = os.path.join(os.environ.get("AGENTBENCH_TOOLS", "/opt/agentbench-tools"), "bin")


@pytest.mark.realcli
@needs_bwrap
@needs_trial_users
@pytest.mark.parametrize("agent", sorted(REAL_CLIS))
def test_real_cli_works_as_the_trial_user_in_bwrap(agent, tmp_path, monkeypatch, tiny_challenges):
    from agentbench.adapters.base import AdapterContext
    from agentbench.adapters.registry import get_adapter
    from agentbench.loader import load_challenge
    from agentbench.modelserver import RunningServer, Script, ScriptedFile

    monkeypatch.setenv("PATH", TOOLS_BIN + os.pathsep + os.environ.get("PATH", ""))
    if shutil.which(REAL_CLIS[agent]) is None:
        (pytest.fail if CI else pytest.skip)(f"{REAL_CLIS[agent]} is not installed (run ci/install/*.sh)")
    files = (ScriptedFile(path="hello.py", content="print('hello')\n"),)
    challenge = load_challenge(tiny_challenges / "easy" / "adder.yaml")
    with make_trial() as trial, RunningServer(Script(files=files)) as server:
        adapter = get_adapter(agent, {})
        scripted = tuple((k, v.format(url=server.url)) for k, v in adapter.scripted_env)
        adapter.config = dataclasses.replace(adapter.config, env=(*adapter.config.env, *scripted))
        context = AdapterContext(challenge=challenge, logs_dir=tmp_path / "logs", home=trial.home,
                                 tmp=trial.tmp, confinement=trial.confinement("bwrap"))
        result = adapter.run_challenge("Write hello.py.", trial.workspace, 3, context=context)
        written = trial.workspace / "hello.py"
        assert server.ledger.calls > 0, (tmp_path / "logs" / "stderr.log").read_text()[-2000:]
        assert result.success, result.error
        assert written.read_text() == files[0].content and written.stat().st_uid == trial.user.uid
