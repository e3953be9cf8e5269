"""The `command` agent: any agent with a command line, from a template in the agents config file.

    [agents.my-agent]
    adapter = "command"
    command = ["my-agent", "--prompt-file", "{prompt_file}", "--dir", "{workspace}", "--model", "{model}"]
    stdin = "prompt"        # optional: feed the prompt on standard input too

Placeholders: {prompt_file}, {workspace}, {model}, {prompt}, {home}. Each template element becomes one
argv element after substitution: no shell, so the prompt is never quoted or interpreted.
"""

from __future__ import annotations

from pathlib import Path

from agentbench.adapters.cli_base import CommandAdapter, TrialSetup, Usage, template_values
from agentbench.adapters.endpoint import ANTHROPIC, OPENAI, Endpoint
from agentbench.errors import ConfigError


class CommandTemplateAdapter(CommandAdapter):
    """Runs `config.command` with placeholders filled in."""

    adapter_name = "command"
    scripted_env = (("AGENTBENCH_MODEL_URL", "{url}"), ("OPENAI_BASE_URL", "{url}/v1"),
                    ("OPENAI_API_KEY", "sk-scripted"), ("ANTHROPIC_BASE_URL", "{url}"),
                    ("ANTHROPIC_API_KEY", "sk-ant-scripted"))

    @property
    def configured(self) -> bool:
        """Whether the agents config gives this agent a `command`."""
        return bool(self.config.command)

    def how_to_configure(self) -> str:
        """What to add to the agents config file to use this agent."""
        return (f'add [agents.{self.name}] with command = ["my-agent", "{{prompt_file}}"] to the '
                "agents config file (agentbench.toml)")

    def _template(self) -> tuple[str, ...]:
        if not self.config.command:
            raise ConfigError(f"agent '{self.name}' uses the command adapter but has no `command`",
                              self.how_to_configure())
        return self.config.command

    def endpoint(self, setup: TrialSetup) -> Endpoint | None:
        """The endpoint the config's env names (`ANTHROPIC_BASE_URL`, else `OPENAI_BASE_URL`), for
        the harness's own check of an endpoint failure; None when it names none."""
        env = dict(self.config.env)
        if env.get("ANTHROPIC_BASE_URL"):
            return Endpoint(protocol=ANTHROPIC, base_url=env["ANTHROPIC_BASE_URL"],
                            key=self.variable("ANTHROPIC_API_KEY"))
        if env.get("OPENAI_BASE_URL"):
            return Endpoint(protocol=OPENAI, base_url=env["OPENAI_BASE_URL"],
                            key=self.variable("OPENAI_API_KEY"))
        return None

    def needed_paths(self) -> tuple[tuple[str, bool], ...]:
        """The executable (to run) and every existing file the command template names (to read)."""
        named = tuple((part, False) for part in self._template()[1:]
                      if "{" not in part and Path(part).is_file())
        return (*super().needed_paths(), *named)

    def wanted_executable(self) -> str:
        """The config's `executable`, else the template's first element."""
        return self.config.executable or self._template()[0]

    def build_argv(self, prompt: str, setup: TrialSetup) -> list[str]:
        """The template after the executable, placeholders filled."""
        values = template_values(setup, prompt)
        try:
            return [part.format_map(values) for part in self._template()[1:]]
        except (KeyError, ValueError) as exc:
            raise ConfigError(f"agent '{self.name}': bad placeholder in command: {exc}",
                              "use {prompt_file}, {workspace}, {model}, {prompt} or {home}") from None

    def stdin_file(self, setup: TrialSetup) -> Path | None:
        """The prompt file when the config says `stdin = "prompt"`."""
        return setup.prompt_file if self.config.stdin == "prompt" else None

    def parse_output(self, stdout: str, stderr: str) -> Usage:
        """No usage figures; the final message is the last non-empty line of stdout."""
        lines = [line for line in stdout.splitlines() if line.strip()]
        return Usage(final_message=lines[-1] if lines else "")
