"""`agentbench doctor`: can this machine run the benchmark, and is each agent CLI wired right?

Environment checks: Python, the scoring environment cache, the sandbox (bubblewrap), cgroups,
rlimits. Agent checks: the CLI is installed (and its version, read from its package metadata); then
the real CLI runs a tiny task against the scripted loopback model server (no API key, no tokens
spent) inside the sandbox a trial would give it (`--sandbox bwrap` where bubblewrap is installed),
and each step is judged: did it start in that sandbox (and if not, why), did it reach the server,
did it exit cleanly, did the scripted files appear with the right content, do its usage figures
match what the server reported. The generic `command` agent with nothing configured is shown as
"not configured", which is not a failure.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from agentbench.adapters.base import AdapterContext
from agentbench.adapters.cli_base import AgentUnavailableError, CommandAdapter, tools_bin
from agentbench.adapters.command import CommandTemplateAdapter
from agentbench.adapters.registry import ADAPTERS, get_adapter
from agentbench.errors import AgentBenchError
from agentbench.loader import load_challenge
from agentbench.models import AdapterResult, AgentConfig
from agentbench.modelserver import RunningServer, Script, ScriptedFile
from agentbench.process import cgroups_available
from agentbench.sandbox import Confinement, NoSandbox, Sandbox, TrialUser, best_sandbox, bwrap_path
from agentbench.users import hand_over, trial_user
from agentbench.workspace import cache_dir

DOCTOR_FILES = (
    ScriptedFile(path="hello.py", content='print("hello from agentbench doctor")\n'),
    ScriptedFile(path="notes/README.md", content="# Doctor\n\nWritten by the scripted model.\n"),
)
DOCTOR_PROMPT = ("Create hello.py printing a greeting and notes/README.md with a title. "
                 "This is an AgentBench wiring check.")


class Check(NamedTuple):
    """One line of the doctor's report. A missing optional piece is `ok` (the main job runs
    without it) with `detail` saying what it costs and `fix` the one command that adds it."""

    subject: str
    check: str
    ok: bool
    detail: str
    fix: str = ""


CLI_SCRIPTS = frozenset({"claude-code", "codex", "gemini", "aider", "opencode", "qwen"})
"""Built-in agents that `ci/install/<name>.sh` installs into the tools folder."""
LANGUAGE_SCRIPTS = {"typescript": "bash ci/install/node22.sh", "go": "bash ci/install/go.sh"}


def environment_checks() -> list[Check]:
    """What this machine offers: Python, cache, sandbox, trial users, cgroups, rlimits, each
    language's tools. Only Python and the cache are needed for the main job; the rest say what
    their absence costs and the command that adds them."""
    cache = cache_dir()
    writable = _writable(cache)
    return [
        Check("machine", "python", sys.version_info >= (3, 11), sys.version.split()[0],
              "" if sys.version_info >= (3, 11) else "install Python 3.11 or newer"),
        Check("machine", "cache folder", writable, f"{cache} ({'writable' if writable else 'NOT writable'})",
              "" if writable else "set AGENTBENCH_CACHE to a folder you can write"),
        _bwrap_check(), _trial_users_check(), _cgroup_check(),
        Check("machine", "prlimit", True, "available" if shutil.which("prlimit") else
              "not installed: costs nothing for trials (limits are set by setrlimit)"),
        *_toolchain_checks(),
    ]


def _bwrap_check() -> Check:
    if bwrap_path():
        return Check("machine", "sandbox (bwrap)", True, f"available: {bwrap_path()}")
    return Check("machine", "sandbox (bwrap)", True,
                 "not installed: costs --sandbox bwrap (a read-only host, own /tmp and PID namespace "
                 "per trial); trials see the host file system", "apt-get install bubblewrap")


def _trial_users_check() -> Check:
    from agentbench.users import trial_users_problem

    problem = trial_users_problem()
    if problem is None:
        return Check("machine", "trial users", True, "each trial runs as its own unprivileged user")
    fix = ("run AgentBench as root (e.g. sudo)" if os.geteuid() != 0
           else "apt-get install util-linux (setpriv)")
    return Check("machine", "trial users", True,
                 f"none ({problem}): costs per-trial users, so agents can read and write what "
                 "AgentBench's user can, and without bwrap trials run one at a time", fix)


def _cgroup_check() -> Check:
    if cgroups_available():
        return Check("machine", "cgroups", True, "available: pids and memory limits, reliable kill")
    return Check("machine", "cgroups", True,
                 "not available: costs the memory and process limits per trial (rlimits only) and "
                 "the sure kill of daemons that leave their session",
                 "run AgentBench as root on a machine with cgroup v2" if os.geteuid() != 0
                 else "mount cgroup v2 at /sys/fs/cgroup (mount -t cgroup2 none /sys/fs/cgroup)")


def _toolchain_checks() -> list[Check]:
    """Each language's tools: ready, or what is missing (its challenges are then left out of tier,
    --all and --language runs, so this is a note, not a failure)."""
    from agentbench.toolchains import available_languages, missing_tools

    checks = []
    for language in available_languages():
        problem = missing_tools(language)
        checks.append(Check("machine", f"{language} toolchain", True, "ready" if problem is None else
                            f"not ready: costs its challenges, left out of runs; {problem}",
                            "" if problem is None else LANGUAGE_SCRIPTS.get(language, "")))
    return checks


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path):
            return True
    except OSError:
        return False


def agent_checks(names: Sequence[str], configs: Mapping[str, AgentConfig], *,
                 required: bool = True) -> list[Check]:
    """Install and wiring checks for each named agent (built-ins without a CLI just load). A CLI
    that is not installed fails when `required` (asked for by name), else is a missing piece."""
    checks: list[Check] = []
    for name in names:
        checks.extend(_check_agent(name, configs, required=required))
    return checks


def default_agents(configs: Mapping[str, AgentConfig]) -> list[str]:
    """Every agent that drives a CLI: registered and configured ones."""
    names = []
    for name in dict.fromkeys([*ADAPTERS, *configs]):
        try:
            if isinstance(get_adapter(name, configs), CommandAdapter):
                names.append(name)
        except AgentBenchError:
            names.append(name)
    return names


def _check_agent(name: str, configs: Mapping[str, AgentConfig], *, required: bool = True) -> list[Check]:
    try:
        adapter = get_adapter(name, configs)
    except AgentBenchError as exc:
        return [Check(name, "adapter", False, exc.message)]
    if not isinstance(adapter, CommandAdapter):
        return [Check(name, "adapter", True, "built in, needs no CLI")]
    if isinstance(adapter, CommandTemplateAdapter) and not adapter.configured:
        return [Check(name, "configured", True, f"not configured: {adapter.how_to_configure()}")]
    try:
        executable = adapter.resolve_executable()
    except AgentBenchError as exc:
        return [Check(name, "installed", False, exc.message)]
    if executable is None:
        return [_not_installed(name, adapter, required)]
    installed = Check(name, "installed", True, f"{executable} ({adapter.version() or 'version unknown'})")
    return [installed, *_wiring(adapter)]


def _not_installed(name: str, adapter: CommandAdapter, required: bool) -> Check:
    """A CLI that is not installed: a failure when asked for, else what it costs and its fix."""
    fix = (f"bash ci/install/{name}.sh" if name in CLI_SCRIPTS
           else f"install {adapter.package}" if adapter.package
           else "set `executable` in the agents config")
    detail = f"'{adapter.wanted_executable()}' not found (neither on PATH nor in {tools_bin()})"
    if required:
        return Check(name, "installed", False, f"{detail}; {fix}", fix)
    return Check(name, "installed", True, f"{detail}: costs benchmarking {name} here", fix)


def doctor_sandbox() -> Sandbox:
    """The sandbox the doctor runs each CLI in: the strongest a trial can get here."""
    return best_sandbox()


def _wiring(adapter: CommandAdapter) -> list[Check]:
    """Run the CLI on the doctor task against the scripted server and judge every step."""
    script = Script(files=DOCTOR_FILES, final_message="Doctor task complete.")
    with (RunningServer(script) as server, trial_user() as user,
          tempfile.TemporaryDirectory(prefix="agentbench-doctor-") as tmp):
        env = tuple((k, v.format(url=server.url)) for k, v in adapter.scripted_env)
        adapter.config = dataclasses.replace(adapter.config, env=(*adapter.config.env, *env))
        workspace = Path(tmp) / "workspace"
        workspace.mkdir()
        context = _context(Path(tmp), doctor_sandbox(), user)
        try:
            result = adapter.run_challenge(DOCTOR_PROMPT, workspace, 3, context=context)
        except (AgentUnavailableError, OSError) as exc:
            return [Check(adapter.name, "runs", False, str(exc))]
        started = _start_check(adapter, result)
        if not started.ok:
            return [started]
        return [started, *_judge(adapter.name, result, workspace, server, Path(tmp) / "logs")]


def _start_check(adapter: CommandAdapter, result: AdapterResult) -> Check:
    """Whether the CLI started in the sandbox a trial would give it; if not, why."""
    where = doctor_sandbox().described
    error = result.error or ""
    if not (result.infra_error and error.startswith("cannot start")):
        return Check(adapter.name, "starts in the sandbox", True, f"started {where}")
    exe = adapter.resolve_executable() or adapter.wanted_executable()
    real = str(Path(exe).resolve())
    hint = (f"; its real path is {real}: the sandbox must show it and its install tree"
            if real != exe else "")
    return Check(adapter.name, "starts in the sandbox", False, f"{error} (run {where}){hint}")


def _context(tmp: Path, sandbox: Sandbox | None = None, user: TrialUser | None = None) -> AdapterContext:
    """The context a trial would give the CLI: its sandbox and, as root, its own user."""
    challenge_file = tmp / "challenges" / "easy" / "doctor.yaml"
    challenge_file.parent.mkdir(parents=True)
    challenge_file.write_text(f'name: Doctor\nlanguage: python\nprompt: "{DOCTOR_PROMPT}"\n'
                              "expected_files: [hello.py]\ntest_commands: [python hello.py]\n"
                              "scoring_rubric: {min_files: 1}\n", encoding="utf-8")
    for sub in ("home", "tmp", "logs"):
        (tmp / sub).mkdir()
    hand_over(user, tmp, writable=(tmp / "workspace", tmp / "home", tmp / "tmp"))
    return AdapterContext(challenge=load_challenge(challenge_file), logs_dir=tmp / "logs",
                          home=tmp / "home", tmp=tmp / "tmp",
                          confinement=Confinement(sandbox=sandbox or NoSandbox(), user=user))


def _judge(name: str, result: AdapterResult, workspace: Path, server: RunningServer,
           logs: Path) -> list[Check]:
    ledger = server.ledger
    tail = _tail(logs)
    reached = Check(name, "reaches the scripted server", ledger.calls > 0,
                    f"{ledger.calls} model calls" if ledger.calls else
                    f"no model call arrived: check the base-URL variable and flags. {tail}")
    finished = Check(name, "exits cleanly", result.success and not result.timed_out,
                     "ok" if result.success else f"{result.error or 'failed'}. {tail}")
    wrong = [f.path for f in DOCTOR_FILES
             if not (workspace / f.path).is_file() or (workspace / f.path).read_text() != f.content]
    files = Check(name, "writes the scripted files", not wrong,
                  f"{len(DOCTOR_FILES)} files with the exact content" if not wrong else
                  f"missing or different: {', '.join(wrong)}")
    return [reached, finished, files, _usage_check(name, result, ledger.input_tokens, ledger.output_tokens)]


def _usage_check(name: str, result: AdapterResult, sent_in: int, sent_out: int) -> Check:
    if result.input_tokens is None and result.output_tokens is None:
        return Check(name, "reports usage", True, "this CLI reports no token usage")
    same = (result.input_tokens, result.output_tokens) == (sent_in, sent_out)
    metered = (result.tokens_source or "").startswith("meter")
    return Check(name, "reports usage", True,
                 f"tokens in/out {result.input_tokens}/{result.output_tokens}; server sent {sent_in}/{sent_out}"
                 + (" (counted by the harness's meter)" if metered else "")
                 + ("" if same else " (counted differently)"))


def _tail(logs: Path) -> str:
    for name in ("stderr.log", "stdout.log"):
        path = logs / name
        if path.is_file():
            lines = [line for line in path.read_text(errors="replace").splitlines() if line.strip()]
            if lines:
                return "Last output: " + " | ".join(lines[-3:])[:400]
    return ""


class Row(NamedTuple):
    """A check and the machine it ran on."""

    where: str
    subject: str
    check: str
    ok: bool
    detail: str
    fix: str = ""


def checks_here(agents: Sequence[str], configs: Mapping[str, AgentConfig]) -> list[Check]:
    """Every check on this machine (the function Dask workers run too)."""
    names = list(agents) or default_agents(configs)
    return [*environment_checks(), *agent_checks(names, configs, required=bool(agents))]


def run_doctor(agents: Sequence[str], configs: Mapping[str, AgentConfig], *, executor: str = "local",
               address: str | None = None) -> list[Row]:
    """The doctor's rows, from this machine or from every worker of a Dask cluster."""
    if executor != "dask":
        return [Row("local", *check) for check in checks_here(agents, configs)]
    from agentbench.executors.dask import run_on_workers

    per_worker = run_on_workers(checks_here, address, list(agents), dict(configs))
    return [Row(worker, *check) for worker, checks in sorted(per_worker.items()) for check in checks]
