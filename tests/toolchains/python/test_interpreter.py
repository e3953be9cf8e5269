"""Trial environments from a Python the trial users can run, when AgentBench's own is out of reach.

The "unreachable" interpreter is AgentBench's own, seen through a link inside a folder of mode 0700
(as /root/.pyenv is under a /root of mode 0700); /root itself is never touched.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from agentbench import process, users
from agentbench.sandbox import Confinement, TrialUser
from agentbench.toolchains.python import env as env_module
from agentbench.toolchains.python import interpreter
from agentbench.workspace import shared_if_hidden

CI = os.environ.get("CI") == "true"
PROBLEM = users.trial_users_problem()
pytestmark = pytest.mark.skipif(
    PROBLEM is not None and not CI,
    reason=f"needs trial users (run the tests as root with util-linux's setpriv): {PROBLEM}")
USER = TrialUser(users.TRIAL_UID_BASE + 7, users.TRIAL_UID_BASE + 7)
SYSTEM = interpreter.system_pythons()


@pytest.fixture
def hidden_python(tmp_path: Path) -> Path:
    """AgentBench's own interpreter reached through a folder only root may enter."""
    private = tmp_path / "private"
    (private / "bin").mkdir(parents=True)
    private.chmod(0o700)
    link = private / "bin" / "python3"
    link.symlink_to(os.path.realpath(interpreter.running_python()))
    return link


def run_as_user(argv: list[str], tmp_path: Path) -> str:
    out = tmp_path / "out.txt"
    result = process.run(argv, cwd=Path("/"), env={"PATH": "/usr/bin:/bin"}, timeout_s=60,
                         stdout_path=out, stderr_path=tmp_path / "err.txt",
                         confinement=Confinement(user=USER))
    assert result.ok, (tmp_path / "err.txt").read_text()
    return out.read_text()


def test_a_reachable_interpreter_is_kept(tmp_path: Path) -> None:
    running = Path(os.path.realpath(interpreter.running_python()))
    if users.reachable(USER, running, execute=True):
        pytest.skip("AgentBench's own Python is out of the trial users' reach on this machine")
    chosen = interpreter.choose(USER, running, tmp_path)
    assert chosen.executable == running and chosen.note == ""


@pytest.mark.skipif(not SYSTEM, reason="no system python3 (apt-get install python3)")
def test_an_unreachable_interpreter_gives_way_to_the_system_one(hidden_python: Path,
                                                                tmp_path: Path) -> None:
    chosen = interpreter.choose(USER, hidden_python, tmp_path)
    assert chosen.executable in SYSTEM
    assert str(hidden_python.parent.parent) in chosen.note and str(chosen.executable) in chosen.note
    # a trial environment made from it runs as the trial user, with the template on its path
    template = tmp_path / "template-site"
    template.mkdir()
    (template / "marker_from_template.py").write_text("VALUE = 42\n")
    work = tmp_path / "work"
    work.mkdir()
    original = interpreter.base_python
    try:
        env_module.base_python = lambda: chosen  # type: ignore[assignment]
        made = env_module.create_env(work / "venv", template)
    finally:
        env_module.base_python = original  # type: ignore[assignment]
    for path in (tmp_path, work, template):
        path.chmod(0o755)
    (template / "marker_from_template.py").chmod(0o644)
    report = json.loads(run_as_user(
        [str(made.python), "-c", "import json, sys, marker_from_template as m; "
         "print(json.dumps([sys.prefix, sys.version, m.VALUE]))"], tmp_path))
    assert report[0] == str(work / "venv") and report[2] == 42
    assert report[1].split()[0] == chosen.version


def test_nothing_reachable_keeps_the_own_interpreter(hidden_python: Path, tmp_path: Path) -> None:
    hidden_cache = tmp_path / "private" / "cache"
    chosen = interpreter.choose(USER, hidden_python, hidden_cache, candidates=[])
    assert chosen.executable == hidden_python and chosen.note == ""
    assert users.reachable(USER, chosen.executable, execute=True)  # the runner then warns


@pytest.mark.skipif(not Path("/usr/bin/python3").exists(), reason="no /usr/bin/python3 (apt-get install python3)")
def test_a_copy_in_the_cache_runs_as_the_trial_user(tmp_path: Path) -> None:
    """Driven by the system Python (its libpython is linked in, so a copy of it can work)."""
    cache = tmp_path / "cache"
    script = (
        "import json, sys; from pathlib import Path; from agentbench.toolchains.python import interpreter as i; "
        "from agentbench.sandbox import TrialUser; "
        f"u = TrialUser({USER.uid}, {USER.gid}); "
        "print(json.dumps(str(i.copy_python(u, Path(sys.argv[1]), Path(sys.argv[2])))))")
    src = Path(interpreter.__file__).parents[3]
    result = subprocess.run(["/usr/bin/python3", "-c", script, "/usr/bin/python3", str(cache)],
                            env={"PYTHONPATH": str(src), "PATH": os.environ["PATH"]},
                            capture_output=True, text=True, timeout=300, check=False)
    if "No module named" in result.stderr:
        pytest.skip(f"the system Python cannot import AgentBench's modules: {result.stderr[-200:]}")
    assert result.returncode == 0, result.stderr
    copy = Path(json.loads(result.stdout))
    assert copy.is_relative_to(cache) and copy.is_file()
    prefix = run_as_user([str(copy), "-I", "-c", "import sys, venv; print(sys.prefix)"], tmp_path)
    assert prefix.strip() == str(cache / "python" / copy.parent.parent.name)


def test_the_cache_moves_out_of_a_hidden_home(tmp_path: Path) -> None:
    private = tmp_path / "home"
    private.mkdir(mode=0o700)
    shared = tmp_path / "shared"
    assert shared_if_hidden(private / ".cache" / "agentbench", shared) == shared
    assert shared_if_hidden(tmp_path / "open" / "agentbench", shared) == tmp_path / "open" / "agentbench"


def test_the_running_python_is_this_one() -> None:
    assert os.path.realpath(interpreter.running_python()) == os.path.realpath(sys._base_executable)  # type: ignore[attr-defined]


def test_the_fallback_hint_fits_root() -> None:
    """As root, with trial users off and no sandbox, the hint never says "run as root"."""
    hint = users.isolation("none", without_users="the trial user cannot reach /x").hint
    assert "run AgentBench as root" not in hint
    assert "/x" in hint and "--sandbox bwrap" in hint
