"""Helpers shared by the adapter tests."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from agentbench import process
from agentbench.adapters.base import AdapterContext
from agentbench.adapters.cli_base import CommandAdapter, Runner, TrialSetup
from agentbench.adapters.registry import ADAPTERS
from agentbench.models import AgentConfig, Challenge, Rubric
from agentbench.modelserver import RunningServer, Script, ScriptedFile
from agentbench.sandbox import Confinement


def trial_setup(tmp_path: Path, model: str | None = None, prompt: str | None = None) -> TrialSetup:
    """A trial's folders (ws, home, tmp, logs) under tmp_path; `prompt` is written to the prompt file."""
    for name in ("ws", "home", "tmp", "logs"):
        (tmp_path / name).mkdir(exist_ok=True)
    prompt_file = tmp_path / "logs" / "prompt.txt"
    if prompt is not None:
        prompt_file.write_text(prompt, encoding="utf-8")
    return TrialSetup(workspace=tmp_path / "ws", home=tmp_path / "home", tmp=tmp_path / "tmp",
                      logs_dir=tmp_path / "logs", prompt_file=prompt_file, model=model,
                      confinement=Confinement())


CALC_FILES = (
    ScriptedFile(path="calc/__init__.py", content='"""Calculator."""\n'),
    ScriptedFile(path="calc/ops.py", content="def add(a, b):\n    return a + b\n"),
    ScriptedFile(path="tests/test_ops.py",
                 content="from calc.ops import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n"),
)
"""A nested three-file package the real-CLI tests have the scripted model write."""
CALC_SCRIPT = Script(files=CALC_FILES, final_message="All three files written.", input_tokens=321,
                     output_tokens=54)
"""The scripted model's run in the real-CLI tests: it writes CALC_FILES, then a final message."""


def assert_files_written(workspace: Path, files: Sequence[ScriptedFile]) -> None:
    """Every scripted file is in the workspace with exactly the scripted content."""
    for scripted in files:
        assert (workspace / scripted.path).read_text(encoding="utf-8") == scripted.content


@contextlib.contextmanager
def silent_endpoint() -> Iterator[str]:
    """`http://127.0.0.1:PORT`: accepts connections (into its backlog) and never answers."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        yield f"http://127.0.0.1:{silent.getsockname()[1]}"


@contextlib.contextmanager
def healthy_endpoint() -> Iterator[str]:
    """`http://127.0.0.1:PORT` of a scripted model server that answers normally: the harness's own
    check of the endpoint passes, so a failed (replayed) run stays the agent's failure."""
    with RunningServer(Script(files=())) as server:
        yield server.url


def recorded_run(data: Path, name: str) -> tuple[str, str]:
    """(stdout, stderr) of a run recorded as `<name>.stdout` and `<name>.stderr` in `data`."""
    return ((data / f"{name}.stdout").read_text(encoding="utf-8"),
            (data / f"{name}.stderr").read_text(encoding="utf-8"))


def recorded_returncode(data: Path, name: str) -> int:
    """The exit status of a run recorded as `<name>.rc` in `data`."""
    return int((data / f"{name}.rc").read_text())


def replaying(outputs: tuple[str, str], returncode: int | None, timed_out: bool = False,
              duration_s: float = 1.0) -> Callable[..., process.ProcessResult]:
    """A runner that replays a recorded run (its (stdout, stderr) `outputs`, ending with
    `returncode`) instead of starting the CLI; the prompt on its stdin must be "the prompt"."""

    def run(argv: list[str], **kwargs: Any) -> process.ProcessResult:
        if "stdin_path" not in kwargs:  # NOTE: the harness's own start check, run for real
            return process.run(argv, **kwargs)
        stdout, stderr = outputs
        kwargs["stdout_path"].write_text(stdout, encoding="utf-8")
        kwargs["stderr_path"].write_text(stderr, encoding="utf-8")
        assert kwargs["stdin_path"].read_text(encoding="utf-8") == "the prompt"
        return process.ProcessResult(argv=tuple(argv), returncode=returncode, timed_out=timed_out,
                                     duration_s=duration_s, stdout_path=kwargs["stdout_path"],
                                     stderr_path=kwargs["stderr_path"])

    return run


REAL_CLIS = {"claude-code": "claude", "codex": "codex", "gemini": "gemini", "aider": "aider",
             "opencode": "opencode", "qwen": "qwen"}
"""The six agent CLIs `ci/install/*.sh` installs: agent name -> executable."""


def scripted_adapter(agent: str, url: str, executable: str, run: Runner | None = None,
                     env: tuple[tuple[str, str], ...] = ()) -> CommandAdapter:
    """The agent's adapter pointed at the model server at `url` (its `scripted_env`), plus `env`."""
    cls = ADAPTERS[agent]
    assert issubclass(cls, CommandAdapter)
    scripted = tuple((k, v.format(url=url)) for k, v in cls.scripted_env)
    config = AgentConfig(name=agent, executable=executable, env=(*scripted, *env))
    return cls(config, run=run) if run else cls(config)


def trial_context(root: Path, sandbox: str = "none") -> AdapterContext:
    """An adapter context for a trial in `root` (home, tmp and logs made there)."""
    for name in ("home", "tmp", "logs"):
        (root / name).mkdir(parents=True, exist_ok=True)
    challenge = Challenge(id="easy/doctor", name="Doctor", tier="easy", language="python",
                          prompt="Write a.py.", expected_files=("a.py",), test_commands=(),
                          scoring_rubric=Rubric(min_files=1))
    return AdapterContext(challenge=challenge, logs_dir=root / "logs", home=root / "home",
                          tmp=root / "tmp", confinement=Confinement(sandbox=sandbox))


AIDER_PRICES = {"openai/scripted": {"max_input_tokens": 128000, "max_output_tokens": 8192,
                                    "input_cost_per_token": 0.000003, "output_cost_per_token": 0.000015,
                                    "litellm_provider": "openai", "mode": "chat"}}
"""LiteLLM's metadata of the scripted model (Aider's limits and prices for it)."""


def aider_env(tmp_path: Path, url: str) -> tuple[tuple[str, str], ...]:
    """Aider's environment for the scripted server at `url`, with the scripted model's metadata
    written to `tmp_path/model-metadata.json`."""
    metadata = tmp_path / "model-metadata.json"
    metadata.write_text(json.dumps(AIDER_PRICES), encoding="utf-8")
    return (("OPENAI_API_BASE", url + "/v1"), ("OPENAI_API_KEY", "sk-scripted"),
            ("AIDER_MODEL_METADATA_FILE", str(metadata)))
