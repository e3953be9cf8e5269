"""`CommandAdapter`: the shared base of every adapter that drives an agent CLI as a subprocess.

A subclass declares data (`executable`, `package`, `passthrough_env`, `error_patterns`) and implements
two pure methods: `build_argv` (the prompt is one argv element or a file, never shell-quoted) and
`parse_output` (tokens, cost, turns and final message from the CLI's machine-readable output). This
base's `run_challenge` is the only place an agent process is started: through `process.run`, in its
own process group, with the trial's own HOME and TMPDIR, an explicit environment (an allowlist, the
variables the adapter declares, the agents config's `env`), the time limit enforced by killing the
whole tree, and stdout/stderr kept as the trial's transcript.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from abc import abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from agentbench import process
from agentbench.adapters.base import AdapterContext, AgentAdapter
from agentbench.errors import RunError
from agentbench.models import AdapterResult, AgentConfig
from agentbench.sandbox import Confinement
from agentbench.users import give

BASE_ENV_NAMES = ("PATH", "LANG", "LC_ALL", "TZ", "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
                  "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")
"""Variables taken from the user's environment for every agent (plus each adapter's own): locale,
certificates and proxies, which every agent needs to reach its API the way the user does."""

Runner = Callable[..., process.ProcessResult]


class AgentUnavailableError(RunError):
    """The agent's CLI is not installed or cannot start: an infrastructure error, not the agent's."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Usage:
    """What an agent's output says about its own run."""

    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None
    turns: int | None = None
    final_message: str = ""
    error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrorPattern:
    """A regex over the transcript that classifies a failure (auth, rate limit, model not found)."""

    regex: str
    kind: str
    message: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TrialSetup:
    """Where one agent run happens."""

    workspace: Path
    home: Path
    tmp: Path
    logs_dir: Path
    prompt_file: Path
    model: str | None
    confinement: Confinement


class CommandAdapter(AgentAdapter):
    """Base class of adapters that run an agent CLI."""

    adapter_name: ClassVar[str] = ""
    executable: ClassVar[str] = ""
    package: ClassVar[str | None] = None
    version_args: ClassVar[tuple[str, ...]] = ("--version",)
    passthrough_env: ClassVar[tuple[str, ...]] = ()
    error_patterns: ClassVar[tuple[ErrorPattern, ...]] = ()
    scripted_env: ClassVar[tuple[tuple[str, str], ...]] = ()
    """Variables that point the CLI at AgentBench's scripted model server (`{url}` is replaced);
    used by `agentbench doctor`."""

    def __init__(self, config: AgentConfig | None = None, run: Runner = process.run) -> None:
        self.config = config or AgentConfig(name=self.adapter_name)
        self._run = run

    @property
    def name(self) -> str:
        """The agent's name (the config's name when configured under another one)."""
        return self.config.name or self.adapter_name

    @abstractmethod
    def build_argv(self, prompt: str, setup: TrialSetup) -> list[str]:
        """The command line after the executable (pure; the prompt is one element or a file)."""

    @abstractmethod
    def parse_output(self, stdout: str, stderr: str) -> Usage:
        """Usage and final message from the CLI's output (pure; never raises on garbage)."""

    def prepare(self, setup: TrialSetup) -> dict[str, str]:
        """Write per-trial config files (into setup.home); return extra environment variables."""
        return {}

    def stdin_file(self, setup: TrialSetup) -> Path | None:
        """A file fed to the CLI's standard input (default: none, /dev/null)."""
        return None

    def preflight(self) -> None:
        """Fail before the run starts when the CLI is missing (raises AgentUnavailableError)."""
        if self.resolve_executable() is None:
            raise AgentUnavailableError(
                f"{self.name}: executable '{self.wanted_executable()}' not found",
                f"install it ({self.package})" if self.package else "check the agents config file",
            )

    def wanted_executable(self) -> str:
        """The executable asked for: the config's, else the adapter's own."""
        return self.config.executable or self.executable

    def resolve_executable(self) -> str | None:
        """The executable's full path, or None when it is not installed."""
        wanted = self.wanted_executable()
        return shutil.which(wanted) if wanted else None

    def version(self) -> str | None:
        """First line of `<cli> --version`, or None."""
        exe = self.resolve_executable()
        if exe is None:
            return None
        with tempfile.TemporaryDirectory(prefix="agentbench-version-") as tmp:
            out, err = Path(tmp) / "out", Path(tmp) / "err"
            result = self._run([exe, *self.version_args], cwd=Path(tmp),
                               env={**_base_env(), "HOME": tmp}, timeout_s=30,
                               stdout_path=out, stderr_path=err)
            text = out.read_text(errors="replace").strip() or err.read_text(errors="replace").strip()
        return text.splitlines()[0][:200] if result.ok and text else None

    def environment(self, setup: TrialSetup) -> dict[str, str]:
        """The agent's complete, explicit environment."""
        passed = {k: os.environ[k] for k in self.passthrough_env if k in os.environ}
        return {**_base_env(), "HOME": str(setup.home), "TMPDIR": str(setup.tmp), "TERM": "dumb",
                "NO_COLOR": "1", **passed, **self.prepare(setup), **dict(self.config.env)}

    def run_challenge(
        self,
        prompt: str,
        output_dir: Path,
        time_limit_minutes: int = 30,
        *,
        context: AdapterContext | None = None,
    ) -> AdapterResult:
        """Run the CLI on `prompt` in `output_dir` until it exits or its time limit."""
        with tempfile.TemporaryDirectory(prefix="agentbench-agent-") as scratch:
            setup = _setup(prompt, output_dir, context, Path(scratch), self.config.model)
            return self._run_cli(prompt, setup, time_limit_minutes * 60.0)

    def _run_cli(self, prompt: str, setup: TrialSetup, timeout_s: float) -> AdapterResult:
        self.preflight()
        exe = self.resolve_executable() or ""
        argv = [exe, *self.build_argv(prompt, setup), *self.config.args]
        env = self.environment(setup)
        give(setup.confinement.user, (setup.home, setup.tmp))  # config files prepare() just wrote
        result = self._run(argv, cwd=setup.workspace, env=env, timeout_s=timeout_s,
                           stdout_path=setup.logs_dir / "stdout.log",
                           stderr_path=setup.logs_dir / "stderr.log", stdin_path=self.stdin_file(setup),
                           confinement=setup.confinement)
        if result.start_error:
            raise AgentUnavailableError(f"{self.name}: could not start {exe}: {result.start_error}")
        return self._result(result)

    def _result(self, result: process.ProcessResult) -> AdapterResult:
        stdout = result.stdout_path.read_text(encoding="utf-8", errors="replace")
        stderr = result.stderr_path.read_text(encoding="utf-8", errors="replace")
        try:
            usage = self.parse_output(stdout, stderr)
        except Exception as exc:
            usage = Usage(error=f"could not parse the agent's output: {type(exc).__name__}: {exc}")
        transcript = stdout + "\n" + stderr
        error = (self.classify(transcript, result) if result.timed_out
                 else usage.error or self.classify(transcript, result))
        if result.limit_hit and not result.ok:
            error = f"stopped by the harness: {result.limit_hit}"
        return AdapterResult(
            time_taken_seconds=round(result.duration_s, 3), prompts_used=usage.turns or 1,
            success=result.ok and usage.error is None, timed_out=result.timed_out,
            input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
            cost_usd=usage.cost_usd, final_message=usage.final_message[:4000],
            error=None if result.ok and usage.error is None else error,
            output_dropped_bytes=result.output_dropped_bytes, limit_hit=result.limit_hit,
        )

    def classify(self, transcript: str, result: process.ProcessResult) -> str:
        """Why a run failed, from the adapter's error patterns, else from the exit status."""
        if result.timed_out:
            return f"timed out after {result.duration_s:.0f}s (killed with all its children)"
        for pattern in self.error_patterns:
            if re.search(pattern.regex, transcript, re.IGNORECASE | re.MULTILINE):
                return f"{pattern.kind}: {pattern.message}"
        return f"exited with status {result.returncode}"


def json_events(stdout: str) -> list[dict[str, Any]]:
    """The JSON objects with a string `type` among a CLI's output lines (anything else is skipped).

    Shared by every adapter whose CLI prints JSON lines (stream-JSON, JSONL events).
    """
    found = []
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith("{"):
            continue
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("type"), str):
            found.append(value)
    return found


def _base_env() -> dict[str, str]:
    return {k: os.environ[k] for k in BASE_ENV_NAMES if k in os.environ}


def _setup(prompt: str, workspace: Path, context: AdapterContext | None, scratch: Path,
           default_model: str | None) -> TrialSetup:
    logs = context.logs_dir if context else scratch / "logs"
    home = context.home if context else scratch / "home"
    tmp = context.tmp if context else scratch / "tmp"
    for folder in (logs, home, tmp):
        folder.mkdir(parents=True, exist_ok=True)
    prompt_file = logs / "prompt.txt"
    prompt_file.write_text(prompt, encoding="utf-8")
    model = (context.model if context else None) or default_model
    confinement = (context.confinement if context and context.confinement else None) or Confinement()
    confinement = replace(confinement, writable=(workspace, home, tmp))
    return TrialSetup(workspace=workspace, home=home, tmp=tmp, logs_dir=logs,
                      prompt_file=prompt_file, model=model, confinement=confinement)


def template_values(setup: TrialSetup, prompt: str) -> Mapping[str, Any]:
    """Values for `{placeholders}` in command templates."""
    return {"prompt_file": str(setup.prompt_file), "workspace": str(setup.workspace),
            "model": setup.model or "", "prompt": prompt, "home": str(setup.home)}
