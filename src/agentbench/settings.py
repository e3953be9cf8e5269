"""The agents config file (TOML): per-agent executable, extra arguments, environment and model.

    [agents.claude-code]
    executable = "/opt/claude/bin/claude"
    model = "claude-sonnet-4-5"
    args = ["--verbose"]
    env = { ANTHROPIC_BASE_URL = "http://127.0.0.1:8765" }
    meter = true                      # count tokens at the harness's proxy, not from the CLI

    [agents.my-agent]                 # a new agent name, driven by the generic `command` adapter
    adapter = "command"
    command = ["my-agent", "--prompt-file", "{prompt_file}", "--dir", "{workspace}"]

    [prices."my-model"]               # US dollars per million tokens (over the shipped table)
    input = 0.5
    output = 1.5

It is found from `--agents-config FILE`, else `$AGENTBENCH_AGENTS_CONFIG`, else `./agentbench.toml`.
Values never end up in results: environment values may hold secrets. `[prices."MODEL"]` tables
(keys as in `agentbench/prices.toml`) extend and override the price table for every agent (see
`agentbench.pricing`); an agent the file does not configure gets them too, as long as the file has one `[agents.NAME]` table
(it may be empty).
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from agentbench.errors import ConfigError
from agentbench.models import AgentConfig
from agentbench.pricing import parse_prices

DEFAULT_FILE = "agentbench.toml"
_FIELDS = ("adapter", "executable", "args", "env", "model", "command", "stdin", "meter")


def find_agents_config(explicit: Path | None = None) -> Path | None:
    """The config file to use, or None when there is none."""
    if explicit is not None:
        return explicit
    if env := os.environ.get("AGENTBENCH_AGENTS_CONFIG"):
        return Path(env)
    default = Path.cwd() / DEFAULT_FILE
    return default if default.is_file() else None


def load_agents_config(path: Path | None) -> dict[str, AgentConfig]:
    """Parse the agents config file (an empty mapping when there is none)."""
    if path is None:
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: agents config file not found",
                          "check the path given to --agents-config") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}", "see https://toml.io for the syntax") from None
    agents = data.get("agents", {})
    unknown = sorted(set(data) - {"agents", "prices"})
    if unknown or not isinstance(agents, dict):
        raise ConfigError(f"{path}: expected only [agents.NAME] and [prices.\"MODEL\"] tables, "
                          f"found {unknown or 'agents'}", "write each agent as [agents.NAME]")
    prices = parse_prices(data.get("prices", {}), f"{path}: [prices]")
    return {name: replace(_agent(path, name, body), prices=prices) for name, body in agents.items()}


def with_meter(configs: Mapping[str, AgentConfig], agents: Iterable[str]) -> dict[str, AgentConfig]:
    """`configs` with `meter` on for each of `agents` (`run --meter`); an agent the file does not
    configure gets an entry of its own, with the file's prices."""
    prices = next((c.prices for c in configs.values() if c.prices), ())
    metered = dict(configs)
    for agent in agents:
        metered[agent] = replace(metered.get(agent) or AgentConfig(name=agent, prices=prices), meter=True)
    return metered


def _agent(path: Path, name: str, body: Any) -> AgentConfig:
    where = f"{path}: [agents.{name}]"
    if not isinstance(body, dict):
        raise ConfigError(f"{where}: expected a table")
    for key in body:
        if key not in _FIELDS:
            raise ConfigError(f"{where}: unknown key '{key}'", f"known keys: {', '.join(_FIELDS)}")
    return AgentConfig(
        name=name,
        adapter=_opt_str(where, body, "adapter"),
        executable=_opt_str(where, body, "executable"),
        args=_str_list(where, body, "args"),
        env=_str_map(where, body.get("env", {})),
        model=_opt_str(where, body, "model"),
        command=_str_list(where, body, "command"),
        stdin=_opt_str(where, body, "stdin"),
        meter=_bool(where, body, "meter"),
    )


def _bool(where: str, body: Mapping[str, Any], key: str) -> bool:
    value = body.get(key, False)
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: '{key}' must be true or false, got {type(value).__name__}")
    return value


def _opt_str(where: str, body: Mapping[str, Any], key: str) -> str | None:
    value = body.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"{where}: '{key}' must be a string, got {type(value).__name__}")
    return value


def _str_list(where: str, body: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = body.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: '{key}' must be a list of strings", f'e.g. {key} = ["--flag"]')
    return tuple(value)


def _str_map(where: str, value: Any) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise ConfigError(f"{where}: 'env' must map names to strings", 'e.g. env = { KEY = "value" }')
    return tuple(sorted(value.items()))
