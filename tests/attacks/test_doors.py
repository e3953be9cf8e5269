"""Issue 22, "every door closed": nothing of a run outlives the harness, however it ends.

End to end through `agentbench run` (a real subprocess) with a sleeping agent that also leaves a
grandchild in its own session with an empty environment; both are found again by a token in their
command lines, which the test reads from /proc.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.attacks.agents import CHALLENGES, agent_config, defined
from tests.attacks.conftest import ROOT, agentbench_run, needs_sandbox

pytestmark = pytest.mark.attacks

SLEEPER = '''
import os, subprocess, sys
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)  # TOKEN-grandchild"],
                 env={}, start_new_session=True, stdin=subprocess.DEVNULL,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(600)  # TOKEN-agent"])
'''


def with_token(token: str) -> list[int]:
    """Live processes whose command line holds `token`."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            if token.encode() in (entry / "cmdline").read_bytes():
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state not in ("Z", "X"):
                    found.append(int(entry.name))
    return found


def wait_for(condition, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def start_sleeper_run(tmp_path: Path, mode: str, token: str, *extra: str) -> tuple[subprocess.Popen, list[str]]:
    with defined({"sleeper": {"__python__": SLEEPER.replace("TOKEN", token)}}):
        config = agent_config(tmp_path, ["sleeper"])
    argv = [sys.executable, "-m", "agentbench", "run", "--agent", "sleeper", "--challenge",
            "easy/calc-nosetup", "--challenges", str(CHALLENGES), "--agents-config", str(config),
            "--results", str(tmp_path / "results"), "--sandbox", mode, "--run-id", "k", *extra]
    proc = subprocess.Popen(argv, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not wait_for(lambda: len(with_token(token)) == 2, 120):
        proc.kill()
        pytest.fail(f"the sleeping agent never started: {proc.communicate()[1][-2000:]}")
    return proc, argv


@contextlib.contextmanager
def swept(token: str):
    try:
        yield
    finally:
        for pid in with_token(token):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_nothing_of_the_run_survives_a_kill_9_of_the_harness(tmp_path, mode):
    needs_sandbox(mode)
    token = f"agentbench-sleeper-{uuid.uuid4().hex}"
    with swept(token):
        proc, _ = start_sleeper_run(tmp_path, mode, token)
        proc.kill()
        proc.communicate(timeout=30)
        assert wait_for(lambda: not with_token(token), 10), f"survivors: {with_token(token)}"


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_end_the_run_like_ctrl_c_and_it_resumes(tmp_path, sig):
    token = f"agentbench-sleeper-{uuid.uuid4().hex}"
    with swept(token):
        proc, _ = start_sleeper_run(tmp_path, "none", token, "--agent-timeout", "3")
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 128 + sig, err
        assert "--resume k" in err
        assert not with_token(token), "the signal left processes of the run alive"
        resumed = subprocess.run([sys.executable, "-m", "agentbench", "run", "--resume", "k",
                                  "--results", str(tmp_path / "results")], cwd=ROOT,
                                 env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                                 text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stderr[-2000:]
        assert (tmp_path / "results" / "sleeper.json").is_file()
        assert wait_for(lambda: not with_token(token), 10)


IPC_COMMON = '''
import ctypes, json, os, pathlib
libc = ctypes.CDLL(None, use_errno=True)
librt = ctypes.CDLL("librt.so.1", use_errno=True)
libc.shmat.restype = ctypes.c_void_p
SECRET = b"SECRET_VALUE"
SHM_KEY, MSG_KEY, MQ, FILES = 0x5EC1207, 0x5EC1208, b"/agentbench-door", ("/run/lock/agentbench-door", "/dev/shm/agentbench-door")

class Msg(ctypes.Structure):
    _fields_ = [("mtype", ctypes.c_long), ("mtext", ctypes.c_char * 64)]
'''

IPC_LEAVER = IPC_COMMON + '''
left = {}
shm = libc.shmget(SHM_KEY, 4096, 0o1666)
if shm >= 0:
    ctypes.memmove(libc.shmat(shm, None, 0), SECRET, len(SECRET))
left["shm"] = shm
msq = libc.msgget(MSG_KEY, 0o1666)
left["msg"] = msq >= 0 and libc.msgsnd(msq, ctypes.byref(Msg(1, SECRET)), 64, 0) == 0
attr = (ctypes.c_long * 8)(0, 4, 64, 0)
mq = librt.mq_open(MQ, os.O_CREAT | os.O_RDWR, 0o666, attr)
left["mq"] = mq >= 0 and librt.mq_send(mq, SECRET, len(SECRET), 0) == 0
for name in FILES:
    try:
        pathlib.Path(name).write_bytes(SECRET)
        os.chmod(name, 0o666)
        left[name] = True
    except OSError as exc:
        left[name] = str(exc)
pathlib.Path("left.json").write_text(json.dumps(left))
'''

IPC_READER = IPC_COMMON + '''
found = []
shm = libc.shmget(SHM_KEY, 0, 0)
if shm >= 0:
    address = libc.shmat(shm, None, 0o10000)
    if address not in (None, ctypes.c_void_p(-1).value):
        found.append(ctypes.string_at(address, 64))
msq = libc.msgget(MSG_KEY, 0)
message = Msg()
if msq >= 0 and libc.msgrcv(msq, ctypes.byref(message), 64, 0, 0o4000) >= 0:
    found.append(message.mtext)
mq = librt.mq_open(MQ, os.O_RDONLY | os.O_NONBLOCK)
buffer = ctypes.create_string_buffer(64)
if mq >= 0 and librt.mq_receive(mq, buffer, 64, None) >= 0:
    found.append(buffer.value)
for name in FILES:
    try:
        found.append(pathlib.Path(name).read_bytes())
    except OSError:
        pass
pathlib.Path("found.json").write_text(json.dumps([f.decode(errors="replace") for f in found]))
'''


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_ipc_objects_and_lock_files_a_trial_leaves_are_gone_for_the_next_trial(tmp_path, mode):
    """A trial leaves a 0666 shm segment, message queue, POSIX queue, /run/lock and /dev/shm file
    holding a secret; the next trial (one at a time, so it gets the same trial uid) finds none."""
    needs_sandbox(mode)
    if os.geteuid() != 0:
        pytest.skip("trial users need root (CI runs as root)")
    secret = f"door-{uuid.uuid4().hex}"
    agents = {"ipc-leaver": {"__python__": IPC_LEAVER.replace("SECRET_VALUE", secret)},
              "ipc-reader": {"__python__": IPC_READER}}
    run = agentbench_run(tmp_path, list(agents), "easy/calc-nosetup", mode, "--jobs", "1", files=agents)
    left = json.loads((run.trial_dir("ipc-leaver") / "workspace" / "left.json").read_text())
    assert left["shm"] >= 0 and left["msg"] and left["mq"], left  # the leaving worked
    found = json.loads((run.trial_dir("ipc-reader") / "workspace" / "found.json").read_text())
    assert not [f for f in found if secret in f], found
    for name in ("/run/lock/agentbench-door", "/dev/shm/agentbench-door"):
        assert not os.path.lexists(name)


def test_release_removes_the_ipc_objects_a_trial_user_made_outside_any_namespace():
    """Where no IPC namespace is made (no `unshare`), the uid's objects are removed by owner."""
    import shutil

    from agentbench.sandbox import TrialUser
    from agentbench.users import TRIAL_UID_BASE, TRIAL_UID_COUNT, release

    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv")
    uid = TRIAL_UID_BASE + TRIAL_UID_COUNT - 1
    make = ("import ctypes; c = ctypes.CDLL(None); "
            "assert c.shmget(0, 4096, 0o1666) >= 0 and c.msgget(0, 0o1666) >= 0 and c.semget(0, 1, 0o1666) >= 0")
    subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", sys.executable,
                    "-c", make], check=True)

    def owned() -> int:
        return sum(str(uid) in line.split() for table in ("shm", "msg", "sem")
                   for line in Path(f"/proc/sysvipc/{table}").read_text().splitlines()[1:])

    assert owned() == 3
    release(TrialUser(uid, uid))
    assert owned() == 0


SNOOP = '''
import json, os, pathlib
seen = []
def read(path):
    try:
        return pathlib.Path(path).read_bytes().replace(b"\\0", b" ").decode(errors="replace")
    except OSError:
        return ""
for entry in pathlib.Path("/proc").iterdir():
    if entry.name.isdigit():
        for part in ("cmdline", "environ"):
            text = read(entry / part)
            if "postgres" in text:
                seen.append(text)
# spaced out, so that no redaction of what the trial leaves can hide a find from the test
pathlib.Path("seen.json").write_text(json.dumps([" ".join(s) for s in seen]))
print("\\n".join(seen))
'''


def _psql(sql: str) -> None:
    subprocess.run(["su", "postgres", "-c", "psql -v ON_ERROR_STOP=1 -q"], input=sql, text=True,
                   check=True, capture_output=True, timeout=60)


@pytest.fixture
def postgres_with_password():
    """A fresh role with a random password and its database (needs root and the local server)."""
    import shutil

    if os.geteuid() != 0 or shutil.which("psql") is None:
        pytest.skip("needs root and a local PostgreSQL server (.ci/run installs one)")
    name, password = f"door_{uuid.uuid4().hex[:10]}", f"pw{uuid.uuid4().hex}"
    try:
        _psql(f"CREATE ROLE {name} LOGIN PASSWORD '{password}'; CREATE DATABASE {name} OWNER {name};")
    except (subprocess.CalledProcessError, OSError) as exc:
        pytest.skip(f"cannot create a PostgreSQL role here: {exc}")
    try:
        yield f"postgresql://{name}:{password}@127.0.0.1:5432/{name}", password
    finally:
        _psql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE); DROP ROLE IF EXISTS {name};")


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_a_trial_never_sees_the_database_password(tmp_path, mode, postgres_with_password):
    """`--db postgresql://user:PASSWORD@...`: no process's command line or environment that the
    trial can read holds the password, and nothing in the results does; the run still indexes."""
    needs_sandbox(mode)
    url, password = postgres_with_password
    run = agentbench_run(tmp_path, ["snoop"], "easy/calc-nosetup", mode, "--db", url,
                         files={"snoop": {"__python__": SNOOP}})
    seen = json.loads((run.trial_dir("snoop") / "workspace" / "seen.json").read_text())
    assert not [s for s in seen if " ".join(password) in s]
    if mode == "none":  # control: the harness's command line is readable, the URL is on it
        assert any(" ".join(url.replace(f":{password}", "")) in s for s in seen), seen
    leaked = [p for p in tmp_path.rglob("*") if p.is_file() and password.encode() in p.read_bytes()]
    assert not leaked
    import psycopg

    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT count(*) FROM trials").fetchone() == (1,)


DASK_INTRUDER = '''
import json, pathlib, subprocess, sys
ATTEMPT = (
    "import pathlib, sys\\n"
    "from distributed import Client\\n"
    "with Client(sys.argv[1], timeout=3) as client:\\n"
    "    client.run(lambda: pathlib.Path('/tmp/agentbench-dask-door').write_text('pwned'))\\n"
    "    print('ran code')\\n")
ports = set()
for table in ("/proc/net/tcp", "/proc/net/tcp6"):
    try:
        rows = pathlib.Path(table).read_text().splitlines()[1:]
    except OSError:
        continue
    for row in rows:
        local, state = row.split()[1], row.split()[3]
        if state == "0A":
            ports.add(int(local.rsplit(":", 1)[1], 16))
tried = {}
for port in sorted(ports)[:40]:
    for scheme in ("tcp", "tls"):
        address = f"{scheme}://127.0.0.1:{port}"
        try:  # one process per attempt: an HTTP port holds a Dask client for ever
            out = subprocess.run([sys.executable, "-c", ATTEMPT, address], capture_output=True,
                                 text=True, timeout=8).stdout
            tried[address] = "ran code" if "ran code" in out else "refused"
        except subprocess.TimeoutExpired:
            tried[address] = "timeout"
pathlib.Path("intruder.json").write_text(json.dumps(tried))
'''


def test_the_intruder_runs_code_on_an_open_local_cluster(tmp_path):
    """Control: against a Dask cluster without security the same code gets in."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, processes=True, dashboard_address=None):
        subprocess.run([sys.executable, "-c", DASK_INTRUDER], cwd=tmp_path, timeout=200, check=True,
                       capture_output=True)
    assert "ran code" in json.loads((tmp_path / "intruder.json").read_text()).values()


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_a_trial_cannot_reach_the_local_dask_cluster(tmp_path, mode):
    """`--executor dask` without `--address`: the trial finds the cluster's ports and gets nowhere."""
    pytest.importorskip("distributed")
    needs_sandbox(mode)
    run = agentbench_run(tmp_path, ["intruder"], "easy/calc", mode, "--executor", "dask",
                         files={"intruder": {"__python__": DASK_INTRUDER}})
    tried = json.loads((run.trial_dir("intruder") / "workspace" / "intruder.json").read_text())
    assert len(tried) >= 2 and "ran code" not in tried.values(), tried
