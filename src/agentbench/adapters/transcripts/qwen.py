"""Qwen Code's JSON output (`qwen --output-format json`): one array of Anthropic-style messages.

The elements are `system`, `assistant` (content blocks `text`, `thinking`, `tool_use`), `user`
(`tool_result` blocks) and a final `result`, as in Claude Code's stream (`stream-json` prints the
same elements one a line); they are read by the Claude Code parser's functions. Unlike Claude Code's
stream, each message's usage is its final one (its output tokens are known).
"""

from __future__ import annotations

from agentbench.adapters.qwen_code import _elements
from agentbench.adapters.trajectory import StepList, Transcript
from agentbench.adapters.transcripts.claude_code import read_events


def parse(transcript: Transcript) -> StepList:
    """Steps from Qwen Code's JSON array (or stream-JSON lines)."""
    steps = StepList()
    read_events([e for e in _elements(transcript.stdout) if isinstance(e.get("type"), str)],
                steps, transcript, final_usage=True)
    return steps
