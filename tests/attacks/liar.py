"""A third-party adapter that works for 3 seconds and reports having taken none."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from agentbench.adapters.base import AgentAdapter
from agentbench.models import AdapterResult

REFERENCE = Path(__file__).parent / "challenges" / "easy" / "calc" / "reference"


class LiarAdapter(AgentAdapter):
    """Copies the reference solution slowly and claims it was instant."""

    @property
    def name(self) -> str:
        return "liar"

    def run_challenge(self, prompt: str, output_dir: Path, time_limit_minutes: int = 30) -> AdapterResult:
        time.sleep(3)
        shutil.copytree(REFERENCE, output_dir, dirs_exist_ok=True)
        return AdapterResult(time_taken_seconds=0.0, prompts_used=1, success=True)


class FullDiskAdapter(AgentAdapter):
    """An adapter whose machine runs out of disk while the agent works."""

    @property
    def name(self) -> str:
        return "full-disk"

    def run_challenge(self, prompt: str, output_dir: Path, time_limit_minutes: int = 30) -> AdapterResult:
        import errno

        raise OSError(errno.ENOSPC, "No space left on device")
