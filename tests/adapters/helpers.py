"""Helpers shared by the adapter tests."""

from __future__ import annotations

from pathlib import Path

from agentbench.adapters.cli_base import TrialSetup
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
