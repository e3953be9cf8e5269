"""A hostile agent's output for the viewer's attack tests: HTML, script, terminal escapes.

`EVIL` goes everywhere an agent's text can reach a page: file names and contents in the workspace,
stdout and stderr, the final message, and (through the real Claude Code parser) every field of a
trajectory step. If any of it ran, `window.__pwned` would be set or a dialog would open.
"""

from __future__ import annotations

import json
from pathlib import Path

from agentbench.adapters.trajectory import dumps
from agentbench.adapters.transcripts import build_trajectory

EVIL = ('<script>window.__pwned=1;alert("script")</script>'
        '<img src=x onerror="window.__pwned=2;alert(2)">'
        '<a href="javascript:alert(3)" id="evil-link">click</a>'
        '<iframe src="http://203.0.113.9/"></iframe><style>body{display:none}</style>'
        '"><svg onload=alert(4)> {{ 7*7 }} \x1b[31mRED\x1b]0;title\x07 \u202eevil\x00')

NAMES = ("<script>alert(1)<_script>.py", "pkg/__init__.py", "x\x1b[2J<b>.txt")
"""Files the hostile agent leaves (relative to its workspace)."""

SCRIPT = f"""\
import os, sys
evil = {EVIL!r}
workspace = sys.argv[1]
os.makedirs(os.path.join(workspace, "pkg"), exist_ok=True)
for name in {NAMES!r}:
    with open(os.path.join(workspace, name), "w") as f:
        f.write(evil + "\\n")
sys.stderr.write(evil + "\\n")
print(evil)
"""


def agent_config(folder: Path) -> Path:
    """An agents config with the hostile `evil` command agent (its script written beside it)."""
    script = folder / "evil_agent.py"
    script.write_text(SCRIPT)
    script.chmod(0o755)
    config = folder / "agentbench.toml"
    config.write_text(f'[agents.evil]\nadapter = "command"\ncommand = ["python3", {json.dumps(str(script))}, '
                      '"{workspace}"]\n')
    return config


def stream_json(workspace: str) -> str:
    """A Claude Code stream-JSON transcript whose every field is hostile."""
    events = [
        {"type": "assistant", "timestamp": "2026-01-01T00:00:01Z", "message": {"id": "m1", "content": [
            {"type": "thinking", "thinking": EVIL}, {"type": "text", "text": EVIL},
            {"type": "tool_use", "id": "t1", "name": EVIL, "input": {"command": EVIL}},
            {"type": "tool_use", "id": "t2", "name": "Write",
             "input": {"file_path": f"{workspace}/{EVIL}", "content": EVIL}}],
            "usage": {"input_tokens": 1, "output_tokens": 2}}},
        {"type": "user", "message": {"content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": EVIL * 50, "is_error": True},
            {"type": "tool_result", "tool_use_id": "t2", "content": [{"type": "text", "text": EVIL}]}]}},
        {"type": "system", "subtype": EVIL, "message": EVIL},
        {"type": "result", "subtype": "error", "is_error": True, "result": EVIL},
    ]
    return "\n".join(json.dumps(e) for e in events) + "\n" + EVIL + "\n"


def plant_trajectory(trial_dir: Path) -> None:
    """Replace a trial's transcript and trajectory with the hostile Claude Code stream, parsed by
    the real parser (as if the agent had been Claude Code)."""
    (trial_dir / "agent" / "stdout.log").write_text(stream_json("/tmp/agentbench-trial-x/workspace"))
    trajectory = build_trajectory(agent="evil", adapter="claude-code", prompt=EVIL, trial_dir=trial_dir)
    assert trajectory.header.parsed and len(trajectory.steps) > 4
    (trial_dir / "trajectory.jsonl").write_text(dumps(trajectory))
