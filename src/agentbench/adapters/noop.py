"""The `noop` agent: does nothing. A floor for every challenge and a check that it discriminates."""

from __future__ import annotations

from pathlib import Path

from agentbench.adapters.base import AgentAdapter
from agentbench.models import AdapterResult


class NoopAdapter(AgentAdapter):
    """Writes nothing and reports success instantly."""

    @property
    def name(self) -> str:
        """Registry name."""
        return "noop"

    def run_challenge(
        self,
        prompt: str,
        output_dir: Path,
        time_limit_minutes: int = 30,
    ) -> AdapterResult:
        """Do nothing."""
        return AdapterResult(time_taken_seconds=0.0, prompts_used=0, success=True,
                             final_message="did nothing")
