"""`CommandAdapter`: the shared base of every adapter that drives an agent CLI as a subprocess.

A subclass declares data (`executable`, `package`, `passthrough_env`, `error_patterns`) and implements
two pure methods: `build_argv` (the prompt is one argv element or a file, never shell-quoted) and
`parse_output` (tokens, cost, turns and final message from the CLI's machine-readable output). This
base's `run_challenge` is the only place an agent process is started: through `process.run`, in its
own process group, with the trial's own HOME and TMPDIR, an explicit environment (an allowlist, the
variables the adapter declares, the agents config's `env`), the time limit enforced by killing the
whole tree, and stdout/stderr kept as the trial's transcript.

A failed run is the infrastructure's (`AdapterResult.infra_error`) only on harness-side evidence (see
`agentbench.adapters.failures`): the endpoint fails the harness's own request too, or the CLI never
started. The version is read from the CLI's package metadata (`version_source`); only where that is
not possible is the CLI run for it, confined like the agent, for a few seconds, its output capped.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import tempfile
import uuid
from abc import abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from agentbench import process
from agentbench.adapters.base import AdapterContext, AgentAdapter
from agentbench.adapters.endpoint import Endpoint, endpoint_failure
from agentbench.adapters.failures import (
    START_CHECK_FAILED,
    START_FAILURE_STATUSES,
    LogTail,
    RetryStop,
    RetryWatch,
    start_check_argv,
    workspace_state,
)
from agentbench.adapters.meter import METER_LOG, Meter, MeterReading, unmeterable, write_reading
from agentbench.adapters.versions import VersionSource, read_version
from agentbench.errors import ConfigError, RunError
from agentbench.models import AdapterResult, AgentConfig
from agentbench.pricing import CallTokens, estimate, find_price
from agentbench.sandbox import Confinement, best_sandbox
from agentbench.users import give

BASE_ENV_NAMES = ("PATH", "LANG", "LC_ALL", "TZ", "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
                  "HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY")
"""Variables taken from the user's environment for every agent (plus each adapter's own): locale,
certificates and proxies, which every agent needs to reach its API the way the user does."""

Runner = Callable[..., process.ProcessResult]

TOOLS_VARIABLE = "AGENTBENCH_TOOLS"
DEFAULT_TOOLS = "/opt/agentbench-tools"

VERSION_TIMEOUT_S = 5.0
"""Time limit of a version probe that has to run the CLI."""

VERSION_OUTPUT_BYTES = 4096
"""Output kept of a version probe (the rest is drained and dropped)."""

_TAIL_LINES = 40
"""Lines at the end of stdout searched for the endpoint's error (earlier ones hold the agent's work)."""

_ADAPTER_KEY = re.compile(r"(KEY|TOKEN)$")
"""Names of keys among an adapter's own variables (blanked under the meter, but the metered one's)."""

_PROVIDER_KEY = re.compile(r"_API_KEY$|_AUTH_TOKEN$")
"""Names of model-provider keys among the agents config's other variables (blanked too)."""

STOP_VARIABLE = "AGENTBENCH_STOP_MARKER"
"""Carried by an agent's processes so that a watch outside `process.run` (`LogTail`) can end them."""


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
    model: str | None = None
    """The model the CLI says it used (None: it does not say)."""
    cache_read_tokens: int | None = None
    """Input tokens read from the prompt cache (part of `input_tokens`), where reported."""
    cache_write_tokens: int | None = None
    """Input tokens written to the prompt cache (part of `input_tokens`), where reported."""
    calls: tuple[CallTokens, ...] = ()
    """Each model request's usage where the CLI reports it (prices tiered by context length need
    it); empty: read from the trajectory's model turns when needed."""


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
    version_source: ClassVar[VersionSource | None] = None
    """Where the CLI's package metadata says its version (read without running the CLI)."""
    passthrough_env: ClassVar[tuple[str, ...]] = ()
    error_patterns: ClassVar[tuple[ErrorPattern, ...]] = ()
    retry_watch: ClassVar[RetryWatch | None] = None
    """Output lines by which the CLI announces it retries a failed model request (stopped early
    when the endpoint fails the harness's own request too)."""
    retry_log_folder: ClassVar[str | None] = None
    """A folder under the trial HOME whose log files also carry the retry lines (watched too)."""
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

    def read_usage(self, stdout: str, stderr: str, setup: TrialSetup) -> Usage:
        """Usage after the run: `parse_output`, which an adapter may complete from files the CLI
        left in the trial HOME (read without following links)."""
        return self.parse_output(stdout, stderr)

    def prepare(self, setup: TrialSetup) -> dict[str, str]:
        """Write per-trial config files (into setup.home); return extra environment variables."""
        return {}

    def stdin_file(self, setup: TrialSetup) -> Path | None:
        """A file fed to the CLI's standard input (default: none, /dev/null)."""
        return None

    def preflight(self) -> None:
        """Fail before the run starts when the CLI is missing (raises AgentUnavailableError), or
        under `meter` when its endpoint cannot be metered (ConfigError)."""
        if self.resolve_executable() is None:
            raise AgentUnavailableError(
                f"{self.name}: executable '{self.wanted_executable()}' not found",
                f"install it ({self.package})" if self.package else "check the agents config file",
            )
        if self.config.meter:
            with tempfile.TemporaryDirectory(prefix="agentbench-meter-check-") as scratch:
                self.meter_target(_setup("", Path(scratch), None, Path(scratch), self.config.model))

    def wanted_executable(self) -> str:
        """The executable asked for: the config's, else the adapter's own."""
        return self.config.executable or self.executable

    def needed_paths(self) -> tuple[tuple[str, bool], ...]:
        """(path, must be runnable) of the files the agent's process runs or reads by path (its
        executable; a script named in the command): a trial user must be able to reach them."""
        exe = self.resolve_executable()
        return ((exe, True),) if exe else ()

    def resolve_executable(self) -> str | None:
        """The executable's full path (from PATH, else the tools folder `ci/install/*.sh` fills),
        or None when it is not installed."""
        wanted = self.wanted_executable()
        if not wanted:
            return None
        found = shutil.which(wanted)
        if found is None and os.sep not in wanted:
            found = shutil.which(wanted, path=str(tools_bin()))
        return found

    def variable(self, name: str) -> str | None:
        """`name` from the agents config's env, else from the user's environment."""
        return dict(self.config.env).get(name) or os.environ.get(name)

    def endpoint(self, setup: TrialSetup) -> Endpoint | None:
        """The model API the CLI is pointed at, for the harness's own check (None: unknown, and an
        endpoint failure is then never counted as the infrastructure's)."""
        return None

    def version(self, confinement: Confinement | None = None) -> str | None:
        """The CLI's version: from its package metadata, else from `<cli> --version` run confined
        (`confinement`; default: the bwrap sandbox where installed) for at most a few seconds."""
        exe = self.resolve_executable()
        if exe is None:
            return None
        return read_version(exe, self.version_source) or self._probe_version(exe, confinement)

    def _probe_version(self, exe: str, confinement: Confinement | None) -> str | None:
        confinement = confinement or Confinement(sandbox=best_sandbox())
        with tempfile.TemporaryDirectory(prefix="agentbench-version-") as tmp:
            root = Path(tmp)
            (root / "home").mkdir()
            out, err = root / "out", root / "err"
            result = self._run([exe, *self.version_args], cwd=root / "home",
                               env={**_base_env(), "HOME": str(root / "home"), "TMPDIR": str(root / "home")},
                               timeout_s=VERSION_TIMEOUT_S, stdout_path=out, stderr_path=err,
                               max_output_bytes=VERSION_OUTPUT_BYTES,
                               confinement=replace(confinement, writable=(root / "home",)))
            text = out.read_text(errors="replace").strip() or err.read_text(errors="replace").strip()
        first = text.splitlines()[0].strip() if text else ""
        return first[:200] if result.ok and first.isprintable() and first else None

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
            if self.config.meter:
                return self._run_metered(prompt, setup, time_limit_minutes * 60.0)
            return self._run_cli(prompt, setup, time_limit_minutes * 60.0)

    def meter_variables(self, endpoint: Endpoint) -> tuple[str, ...]:
        """The variables naming the base URL the CLI sends `endpoint`'s requests to (default: those
        `scripted_env` points at a server)."""
        return tuple(name for name, value in self.scripted_env if "{url}" in value)

    def _run_metered(self, prompt: str, setup: TrialSetup, timeout_s: float) -> AdapterResult:
        """Run the CLI through the harness's metering proxy; its tokens are what the meter counted."""
        endpoint, names = self.meter_target(setup)
        with Meter(endpoint) as meter:
            metered = copy.copy(self)
            metered.config = replace(self.config, meter=False, env=tuple(sorted(
                self._metered_env(endpoint, names, meter).items())))
            result = metered._run_cli(prompt, setup, timeout_s)
            reading = meter.reading()
        write_reading(setup.logs_dir / METER_LOG, reading)
        return self._with_reading(result, reading)

    def meter_target(self, setup: TrialSetup) -> tuple[Endpoint, tuple[str, ...]]:
        """The endpoint to meter and the variables that point the CLI at it (raises ConfigError
        when the agent cannot be metered)."""
        endpoint = self.endpoint(setup)
        names = self.meter_variables(endpoint) if endpoint else ()
        if endpoint is None or not names:
            raise ConfigError(f"{self.name}: cannot meter this agent: its model endpoint is not known",
                              "set the base URL and key in the agents config's env, or drop `meter`")
        problem = unmeterable(endpoint)
        if problem:
            raise ConfigError(f"{self.name}: cannot meter this agent: {problem}",
                              "give an http(s) base URL in the agents config's env, or drop `meter`")
        return endpoint, names

    def _metered_env(self, endpoint: Endpoint, names: tuple[str, ...], meter: Meter) -> dict[str, str]:
        """The config's env with the base URL pointing at the meter, the endpoint's key replaced by
        the trial's token, and every other model key blanked: the adapter's own key variables and
        any `*_API_KEY` / `*_AUTH_TOKEN` of the config's env."""
        env = dict(self.config.env)
        for name in {*self.passthrough_env, *env}:
            value = self.variable(name)
            if value and endpoint.key and value == endpoint.key:
                env[name] = meter.token or ""
            elif value and (_ADAPTER_KEY if name in self.passthrough_env else _PROVIDER_KEY).search(name):
                env[name] = ""
        env.update(dict.fromkeys(names, meter.base_url))
        env["NO_PROXY"] = ",".join(filter(None, ("127.0.0.1,localhost", self.variable("NO_PROXY"))))
        return env

    def _with_reading(self, result: AdapterResult, reading: MeterReading) -> AdapterResult:
        """`result` with the meter's tokens, and a cost from them where the model is priced; else the
        CLI's own cost only when its tokens are the meter's (it then priced every call); else unknown."""
        totals = reading.totals
        model = result.model or (reading.models[0] if reading.models else None)
        usage = Usage(input_tokens=totals.input, output_tokens=totals.output, model=model,
                      cache_read_tokens=totals.cache_read, cache_write_tokens=totals.cache_write,
                      calls=reading.calls)
        cost, source = self._metered_cost(usage, reading)
        agrees = (result.input_tokens, result.output_tokens) == (totals.input, totals.output)
        if cost is None and result.cost_source == "cli" and agrees and not reading.unmetered:
            cost, source = result.cost_usd, "cli"  # NOTE: the CLI's figure covers every call
        return replace(result, input_tokens=totals.input, output_tokens=totals.output,
                       cache_read_tokens=totals.cache_read, cache_write_tokens=totals.cache_write,
                       cost_usd=cost, cost_source=source, model=model,
                       tokens_source="meter-partial" if reading.unmetered else "meter")

    def _run_cli(self, prompt: str, setup: TrialSetup, timeout_s: float) -> AdapterResult:
        self.preflight()
        exe = self.resolve_executable() or ""
        argv = [exe, *self.build_argv(prompt, setup), *self.config.args]
        env = self.environment(setup)
        give(setup.confinement.user, (setup.home, setup.tmp))  # config files prepare() just wrote
        before = workspace_state(setup.workspace)
        watch = RetryStop(self.retry_watch, self.endpoint(setup)) if self.retry_watch else None
        tail = self._log_tail(setup, watch, env)
        try:
            result = self._run(argv, cwd=setup.workspace, env=env, timeout_s=timeout_s,
                               stdout_path=setup.logs_dir / "stdout.log",
                               stderr_path=setup.logs_dir / "stderr.log",
                               stdin_path=self.stdin_file(setup), confinement=setup.confinement,
                               stop_when=watch)
        finally:
            if tail:
                tail.finish()
        if tail and tail.reason and not result.stopped:
            result = replace(result, stopped=tail.reason)
        if result.start_error:
            return AdapterResult(time_taken_seconds=0.0, prompts_used=0, success=False, infra_error=True,
                                 error=f"cannot start: {exe}: {result.start_error}")
        adapter_result = self._result(result, setup)
        if adapter_result.success:
            return adapter_result
        infra = self._infra_reason(result, setup, before, watch, (exe, env))
        return replace(adapter_result, infra_error=True, error=infra) if infra else adapter_result

    def _log_tail(self, setup: TrialSetup, watch: RetryStop | None,
                  env: dict[str, str]) -> LogTail | None:
        """Follow the CLI's retry log (`retry_log_folder`) while it runs; None when it has none."""
        if watch is None or self.retry_log_folder is None:
            return None
        marker = uuid.uuid4().hex
        env[STOP_VARIABLE] = marker
        tail = LogTail(setup.home / self.retry_log_folder, setup.home, watch,
                       lambda reason: process.kill_marked(STOP_VARIABLE, marker))
        tail.start()
        return tail

    def _infra_reason(self, result: process.ProcessResult, setup: TrialSetup,
                      before: frozenset[tuple[str, int, int]] | None, watch: RetryStop | None,
                      started: tuple[str, dict[str, str]]) -> str | None:
        """Why a failed run is the infrastructure's (harness-side evidence), or None."""
        stdout = result.stdout_path.read_text(encoding="utf-8", errors="replace")
        stderr = result.stderr_path.read_text(encoding="utf-8", errors="replace")
        if watch and watch.confirmed and result.stopped:
            return f"{watch.confirmed.kind}: {result.stopped}"
        if (result.returncode in START_FAILURE_STATUSES and not stdout.strip() and before is not None
                and workspace_state(setup.workspace) == before):
            problem = self._cannot_start(setup, *started)
            if problem:
                return f"cannot start {setup.confinement.sandbox.where} (the harness's own check): {problem}"
        endpoint = self.endpoint(setup)
        failure = endpoint_failure(endpoint) if endpoint else None
        if failure is None:
            return None
        said = self.classify("\n".join(stdout.splitlines()[-_TAIL_LINES:]) + "\n" + stderr, result)
        return (f"{failure.kind}: the model endpoint fails the harness's own request too "
                f"({failure.detail}); the agent's run: {said}")

    def _cannot_start(self, setup: TrialSetup, exe: str, env: dict[str, str]) -> str | None:
        """The harness's own check, confined like the CLI, of whether `exe` can start (see
        `failures.start_check_argv`): why it cannot, or None. The CLI's output is never read."""
        with tempfile.TemporaryDirectory(prefix="agentbench-start-check-") as tmp:
            out, err = Path(tmp) / "out", Path(tmp) / "err"
            check = self._run(start_check_argv(exe), cwd=setup.workspace, env=env,
                              timeout_s=START_CHECK_TIMEOUT_S, stdout_path=out, stderr_path=err,
                              confinement=setup.confinement)
            said = (out.read_text(errors="replace") + err.read_text(errors="replace")).strip()
        first = said.splitlines()[0][:300] if said else ""
        if check.start_error:
            return f"no process starts in this confinement: {check.start_error}"
        if check.returncode == START_CHECK_FAILED:
            return first
        if check.returncode != 0 or check.timed_out:
            return f"no process starts in this confinement (status {check.returncode}): {first}"
        return None

    def _result(self, result: process.ProcessResult, setup: TrialSetup) -> AdapterResult:
        stdout = result.stdout_path.read_text(encoding="utf-8", errors="replace")
        stderr = result.stderr_path.read_text(encoding="utf-8", errors="replace")
        try:
            usage = self.read_usage(stdout, stderr, setup)
        except Exception as exc:
            usage = Usage(error=f"could not parse the agent's output: {type(exc).__name__}: {exc}")
        usage = replace(usage, model=usage.model or setup.model)
        cost, source = self.cost(usage, lambda: self.request_usage(stdout, stderr, setup))
        transcript = stdout + "\n" + stderr
        error = (self.classify(transcript, result) if result.timed_out or result.stopped
                 else usage.error or self.classify(transcript, result))
        ok = result.ok and not result.stopped and usage.error is None
        if result.limit_hit and not result.ok:
            error = f"stopped by the harness: {result.limit_hit}"
        return AdapterResult(
            time_taken_seconds=round(result.duration_s, 3), prompts_used=usage.turns or 1,
            success=ok, timed_out=result.timed_out,
            input_tokens=usage.input_tokens, output_tokens=usage.output_tokens,
            cost_usd=cost, cost_source=source, cache_read_tokens=usage.cache_read_tokens,
            cache_write_tokens=usage.cache_write_tokens, final_message=usage.final_message[:4000],
            error=None if ok else error,
            output_dropped_bytes=result.output_dropped_bytes, limit_hit=result.limit_hit,
            model=usage.model, tokens_source="cli" if usage.input_tokens is not None else None,
        )

    def _metered_cost(self, usage: Usage, reading: MeterReading) -> tuple[float | None, str]:
        """The cost of the metered calls: unknown when some went unmetered; where the endpoint said
        which model answered each call, each call priced by that model (a weak model for
        summaries, or a model other than the configured one), unknown when one has no price;
        else priced by the trial's model."""
        if reading.unmetered:
            return None, "unknown"
        answered = reading.call_models
        if not answered or len(answered) != len(reading.calls) or not all(answered):
            return self.cost(usage)
        total = 0.0
        for model in sorted({m for m in answered if m}):
            group = [c for c, m in zip(reading.calls, answered, strict=True) if m == model]
            price = find_price(model, self.config.prices)
            summed = CallTokens(sum(c.input for c in group), sum(c.output for c in group),
                                sum(c.cache_read for c in group), sum(c.cache_write for c in group))
            cost = estimate(price, summed, group) if price else None
            if cost is None:
                return None, "unknown"
            total += cost
        return round(total, 6), "price-table"

    def cost(self, usage: Usage,
             requests: Callable[[], tuple[CallTokens, ...]] = tuple) -> tuple[float | None, str]:
        """(cost, source): the CLI's own figure (`cli`); else computed from the tokens and the
        model's prices (`price-table`, the agents config's over the shipped table); else
        (None, `unknown`). A CLI's $0 for a run that used tokens is its missing price, not a cost."""
        spent = bool(usage.input_tokens or usage.output_tokens)
        if usage.cost_usd is not None and not (usage.cost_usd == 0 and spent):
            return usage.cost_usd, "cli"
        price = find_price(usage.model, self.config.prices)
        if price is None or usage.input_tokens is None or usage.output_tokens is None:
            return None, "unknown"
        total = CallTokens(usage.input_tokens, usage.output_tokens, usage.cache_read_tokens or 0,
                           usage.cache_write_tokens or 0)
        cost = estimate(price, total, usage.calls or requests())
        return (None, "unknown") if cost is None else (cost, "price-table")

    def request_usage(self, stdout: str, stderr: str, setup: TrialSetup) -> tuple[CallTokens, ...]:
        """Each model request's tokens, from the trajectory's model turns (empty: not known)."""
        from agentbench.adapters.trajectory import Transcript
        from agentbench.adapters.transcripts import PARSERS

        parser = PARSERS.get(self.adapter_name)
        if parser is None:
            return ()
        try:
            steps = parser(Transcript(stdout=stdout, stderr=stderr, workspace=setup.workspace,
                                      home=setup.home)).steps
        except Exception:  # NOTE: the agent's output is arbitrary; no requests known then
            return ()
        return tuple(CallTokens(s.input_tokens or 0, s.output_tokens or 0)
                     for s in steps if s.type == "model")

    def classify(self, transcript: str, result: process.ProcessResult) -> str:
        """Why a run failed, from the adapter's error patterns, else from the exit status."""
        if result.timed_out:
            return f"timed out after {result.duration_s:.0f}s (killed with all its children)"
        if result.stopped:
            return result.stopped
        for pattern in self.error_patterns:
            if re.search(pattern.regex, transcript, re.IGNORECASE | re.MULTILINE):
                return f"{pattern.kind}: {pattern.message}"
        return f"exited with status {result.returncode}"


START_CHECK_TIMEOUT_S = 20.0
"""The harness's own start check ends within this."""


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


def tools_bin() -> Path:
    """Where `ci/install/*.sh` links the agent CLIs and the Node 22 they run on
    (`$AGENTBENCH_TOOLS/bin`, default /opt/agentbench-tools/bin)."""
    return Path(os.environ.get(TOOLS_VARIABLE) or DEFAULT_TOOLS) / "bin"


def _base_env() -> dict[str, str]:
    """The user's locale, certificates, proxies and PATH, with the tools folder first on PATH when
    it exists (a CLI installed there runs on the Node installed there)."""
    env = {k: os.environ[k] for k in BASE_ENV_NAMES if k in os.environ}
    tools = tools_bin()
    if tools.is_dir():
        env["PATH"] = os.pathsep.join([str(tools), env.get("PATH", os.defpath)])
    return env


def _setup(prompt: str, workspace: Path, context: AdapterContext | None, scratch: Path,
           default_model: str | None) -> TrialSetup:
    logs = context.logs_dir if context else scratch / "logs"
    home = context.home if context else scratch / "home"
    tmp = context.tmp if context else scratch / "tmp"
    for folder in (logs, home, tmp):
        folder.mkdir(parents=True, exist_ok=True)
    (logs / "prompt.txt").write_text(prompt, encoding="utf-8")
    # NOTE: the agent reads its own copy, in a folder it can reach (the trial's user cannot enter
    # the results folder)
    prompt_file = tmp / "agentbench-prompt.txt"
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
