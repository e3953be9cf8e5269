"""The seed's adapter interface: `AgentAdapter` (an ABC) and `AdapterResult`.

An adapter runs one agent on one prompt inside `output_dir` and reports what it did. The seed's
signature is kept exactly; built-in adapters also accept an optional keyword-only `context` (the
challenge, where to put logs, the trial's home and temp folders), which the runner passes only to
adapters whose `run_challenge` declares it, so adapters written to the seed keep working.
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path

from agentbench.models import AdapterResult, Challenge
from agentbench.sandbox import Confinement

__all__ = ["AdapterContext", "AdapterResult", "AgentAdapter", "accepts_context"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AdapterContext:
    """Extra, optional context for adapters that want it."""

    challenge: Challenge
    """The challenge being attempted."""
    logs_dir: Path
    """Folder for the agent's transcript and logs (inside the trial folder)."""
    home: Path
    """A fresh HOME for the agent (no state shared between trials)."""
    tmp: Path
    """A fresh TMPDIR for the agent."""
    model: str | None = None
    """Model requested with `--model`, if any."""
    confinement: Confinement | None = None
    """How the agent's processes are confined (sandbox, limits); None: limits only."""


class AgentAdapter(ABC):
    """Abstract base class of every agent integration (the seed's interface)."""

    @property
    @abstractmethod
    def name(self) -> str:
        """The adapter's registry name, e.g. `claude-code`."""

    @abstractmethod
    def run_challenge(
        self,
        prompt: str,
        output_dir: Path,
        time_limit_minutes: int = 30,
    ) -> AdapterResult:
        """Run the agent on `prompt`, writing its work into `output_dir`."""

    def version(self) -> str | None:
        """The agent's version, where the adapter can tell (None otherwise)."""
        return None


def accepts_context(adapter: AgentAdapter) -> bool:
    """Whether `adapter.run_challenge` takes the optional `context` keyword."""
    try:
        return "context" in inspect.signature(adapter.run_challenge).parameters
    except (TypeError, ValueError):
        return False
