"""The `reference` agent: writes the challenge's reference solution into the workspace (no API key)."""

from __future__ import annotations

import time
from pathlib import Path

from agentbench.adapters.base import AdapterContext, AgentAdapter
from agentbench.models import AdapterResult
from agentbench.workspace import copy_tree


class ReferenceAdapter(AgentAdapter):
    """An oracle: copies `challenges/<tier>/<name>/reference/` into the workspace."""

    @property
    def name(self) -> str:
        """Registry name."""
        return "reference"

    def run_challenge(
        self,
        prompt: str,
        output_dir: Path,
        time_limit_minutes: int = 30,
        *,
        context: AdapterContext | None = None,
    ) -> AdapterResult:
        """Copy the reference solution; fail clearly when the challenge has none."""
        start = time.monotonic()
        reference = context.challenge.reference_dir if context else None
        if reference is None:
            challenge = context.challenge.id if context else "this challenge"
            return AdapterResult(
                time_taken_seconds=0.0, prompts_used=0, success=False,
                error=f"{challenge} has no reference solution (expected a reference/ folder)",
            )
        copy_tree(reference, output_dir)
        return AdapterResult(
            time_taken_seconds=time.monotonic() - start, prompts_used=1, success=True,
            final_message=f"copied the reference solution of {context.challenge.id if context else ''}",
        )
