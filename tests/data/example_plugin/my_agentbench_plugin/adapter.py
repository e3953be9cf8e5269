"""EchoAgentAdapter: writes the prompt into PROMPT.md (a stand-in for a real agent)."""

from pathlib import Path

from agentbench.adapters.base import AdapterResult, AgentAdapter


class EchoAgentAdapter(AgentAdapter):
    @property
    def name(self) -> str:
        return "echo-agent"

    def run_challenge(self, prompt: str, output_dir: Path, time_limit_minutes: int = 30) -> AdapterResult:
        (output_dir / "PROMPT.md").write_text(prompt)
        return AdapterResult(time_taken_seconds=0.01, prompts_used=1, success=True,
                             final_message="echoed the prompt")
