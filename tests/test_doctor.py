"""`agentbench doctor` on fake agent CLIs: OK when wired, exactly what failed otherwise."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

from tests.cli.helpers import invoke

# A minimal agent: talks the Anthropic Messages API at ANTHROPIC_BASE_URL, writes what the model asks.
MINI_AGENT = '''
import json, os, sys, urllib.request
prompt = open(sys.argv[1]).read()
url = os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages"
tools = [{"name": "Write", "description": "write a file",
          "input_schema": {"type": "object", "properties": {"file_path": {"type": "string"},
                                                            "content": {"type": "string"}}}}]
messages = [{"role": "user", "content": prompt}]
for _ in range(10):
    body = json.dumps({"model": "m", "max_tokens": 100, "messages": messages, "tools": tools}).encode()
    request = urllib.request.Request(url, body, {"content-type": "application/json",
                                                 "x-api-key": os.environ["ANTHROPIC_API_KEY"]})
    reply = json.load(urllib.request.urlopen(request))
    messages.append({"role": "assistant", "content": reply["content"]})
    calls = [b for b in reply["content"] if b["type"] == "tool_use"]
    if not calls:
        print(reply["content"][0]["text"])
        break
    results = []
    for call in calls:
        path = call["input"]["file_path"]
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        open(path, "w").write(call["input"]["content"])
        results.append({"type": "tool_result", "tool_use_id": call["id"], "content": "ok"})
    messages.append({"role": "user", "content": results})
'''


def agents_config(tmp_path: Path, name: str, script: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(script))
    config = tmp_path / "agents.toml"
    config.write_text(f'[agents.{name}]\nadapter = "command"\n'
                      f'command = ["{sys.executable}", "{path}", "{{prompt_file}}"]\n')
    return config


def test_doctor_says_ok_for_a_wired_command_agent(capsys, tmp_path):
    config = agents_config(tmp_path, "mini", MINI_AGENT)
    r = invoke(capsys, "doctor", "--agent", "mini", "--agents-config", str(config), "--json")
    assert r.exit_code == 0, r.out + r.err
    rows = {row["check"]: row for row in json.loads(r.out) if row["subject"] == "mini"}
    assert set(rows) == {"installed", "starts in the sandbox", "reaches the scripted server",
                         "exits cleanly", "writes the scripted files", "reports usage"}
    assert all(row["ok"] for row in rows.values()), rows
    assert "2 files with the exact content" in rows["writes the scripted files"]["detail"]


def test_doctor_names_a_missing_cli(capsys, tmp_path):
    config = tmp_path / "agents.toml"
    config.write_text('[agents.ghost]\nadapter = "command"\ncommand = ["ghost-agent-cli"]\n')
    r = invoke(capsys, "doctor", "--agent", "ghost", "--agents-config", str(config), "--json")
    assert r.exit_code == 1
    (row,) = [row for row in json.loads(r.out) if row["subject"] == "ghost"]
    assert row["check"] == "installed" and not row["ok"] and "ghost-agent-cli" in row["detail"]


def test_doctor_says_when_the_cli_never_reaches_the_model(capsys, tmp_path):
    config = agents_config(tmp_path, "deaf", """
        import sys
        print("I ignore the base URL", file=sys.stderr)
        sys.exit(4)
    """)
    r = invoke(capsys, "doctor", "--agent", "deaf", "--agents-config", str(config), "--json")
    assert r.exit_code == 1
    rows = {row["check"]: row for row in json.loads(r.out) if row["subject"] == "deaf"}
    assert not rows["reaches the scripted server"]["ok"]
    assert "I ignore the base URL" in rows["reaches the scripted server"]["detail"]
    assert not rows["exits cleanly"]["ok"] and "status 4" in rows["exits cleanly"]["detail"]
    assert not rows["writes the scripted files"]["ok"]


def test_doctor_reports_the_machine(capsys):
    r = invoke(capsys, "doctor", "--agent", "noop", "--json")
    assert r.exit_code == 0
    checks = {row["check"] for row in json.loads(r.out) if row["subject"] == "machine"}
    assert {"python", "cache folder", "sandbox (bwrap)", "cgroups"} <= checks
    tools = {row["check"]: row["detail"] for row in json.loads(r.out) if row["check"].endswith(" toolchain")}
    assert tools["python toolchain"] == "ready" and {"go toolchain", "typescript toolchain"} <= set(tools)


def test_doctor_names_a_language_whose_tools_are_missing(capsys, tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("AGENTBENCH_TOOLS", str(tmp_path / "empty"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    r = invoke(capsys, "doctor", "--agent", "noop", "--json")
    rows = {row["check"]: row for row in json.loads(r.out) if row["check"].endswith(" toolchain")}
    assert r.exit_code == 0 and rows["go toolchain"]["ok"]  # a note: go challenges are left out
    assert "left out" in rows["go toolchain"]["detail"] and "ci/install/go.sh" in rows["go toolchain"]["detail"]
    assert "ci/install/node22.sh" in rows["typescript toolchain"]["detail"]


def test_doctor_shows_an_unconfigured_command_agent_as_not_configured(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no agentbench.toml here
    monkeypatch.delenv("AGENTBENCH_AGENTS_CONFIG", raising=False)
    r = invoke(capsys, "doctor", "--agent", "command", "--json")
    assert r.exit_code == 0, r.out + r.err
    (row,) = [row for row in json.loads(r.out) if row["subject"] == "command"]
    assert row["ok"] and row["check"] == "configured" and row["detail"].startswith("not configured")
    listed = invoke(capsys, "agents", "--json")
    assert listed.exit_code == 0
    (agent,) = [a for a in json.loads(listed.out) if a["name"] == "command"]
    assert not agent["installed"] and agent["note"].startswith("not configured")


def test_doctor_says_why_a_cli_cannot_start_in_the_sandbox(capsys, tmp_path):
    from agentbench.sandbox import bwrap_path

    cli = tmp_path / "broken-cli"
    cli.write_text(f"#!{tmp_path}/no-such-interpreter\n")  # starts nowhere
    cli.chmod(0o755)
    config = tmp_path / "agents.toml"
    config.write_text(f'[agents.broken]\nadapter = "command"\ncommand = ["{cli}", "{{prompt_file}}"]\n')
    r = invoke(capsys, "doctor", "--agent", "broken", "--agents-config", str(config), "--json")
    assert r.exit_code == 1
    rows = [row for row in json.loads(r.out) if row["subject"] == "broken"]
    assert [row["check"] for row in rows] == ["installed", "starts in the sandbox"]
    started = rows[1]
    assert not started["ok"]
    if bwrap_path():  # the cause first, then where it ran
        assert started["detail"].startswith("cannot start in the bwrap sandbox")
        assert "(run inside bwrap (as under --sandbox bwrap))" in started["detail"]
    else:
        assert started["detail"].startswith("cannot start")
        assert "(run without a sandbox)" in started["detail"]
    assert "no-such-interpreter" in started["detail"]
    assert ("No such file or directory" in started["detail"]
            or "not an executable file here" in started["detail"])


def test_on_a_bare_machine_doctor_names_each_missing_piece_its_cost_and_fix_and_exits_0(
        capsys, tmp_path, monkeypatch):
    """No bubblewrap, no tools folder, no CLI: every missing piece says what it costs and the
    one command that adds it; the main job can run, so the exit status is 0."""
    from agentbench import diagnostics

    monkeypatch.setattr(diagnostics, "bwrap_path", lambda: None)
    monkeypatch.setenv("AGENTBENCH_TOOLS", str(tmp_path / "empty"))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setenv("COLUMNS", "80")
    r = invoke(capsys, "doctor")
    assert r.exit_code == 0, r.out + r.err
    out = " ".join(r.out.split())
    assert "missing (the main job runs without them):" in out
    assert "sandbox (bwrap): not installed: costs --sandbox bwrap" in out
    assert "add it: apt-get install bubblewrap" in out
    assert "go toolchain: not ready: costs its challenges" in out and "add it: bash ci/install/go.sh" in out
    assert "claude-code installed: 'claude' not found" in out
    assert "add it: bash ci/install/claude-code.sh" in out
    assert "the main job (agentbench run --agent reference --tier easy) can run here" in out
    assert all(len(line) <= 80 for line in r.out.splitlines())
    named = invoke(capsys, "doctor", "--agent", "codex", "--json")
    (row,) = [row for row in json.loads(named.out) if row["subject"] == "codex"]
    assert named.exit_code == 1 and not row["ok"] and row["fix"] == "bash ci/install/codex.sh"


def test_agents_finds_the_clis_in_the_tools_folder_as_run_does(capsys, tmp_path, monkeypatch):
    tools = tmp_path / "tools" / "bin"
    tools.mkdir(parents=True)
    cli = tools / "codex"
    cli.write_text("#!/bin/sh\necho 'codex-cli 9.9.9'\n")
    cli.chmod(0o755)
    monkeypatch.setenv("AGENTBENCH_TOOLS", str(tools.parent))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    r = invoke(capsys, "agents", "--json")
    (row,) = [row for row in json.loads(r.out) if row["name"] == "codex"]
    assert row["installed"] and row["executable"] == str(cli)
