"""Codex's per-request tokens from its session log (`$CODEX_HOME/sessions/.../rollout-*.jsonl`).

`session.stdout.jsonl` and `session.rollout.jsonl` (its `token_count` events) were recorded together
from the real CLI against the scripted model server: four model requests of 1,234 in / 56 out, one
Codex turn whose `turn.completed` reports only their sum.
"""

from __future__ import annotations

import os
from pathlib import Path

from agentbench.adapters.trajectory import Transcript
from agentbench.adapters.transcripts import PARSERS
from agentbench.adapters.transcripts.codex import request_usages

DATA = Path(__file__).parent / "data" / "codex"
SESSIONS = Path(".codex", "sessions", "2026", "12", "05")


def _home(tmp_path: Path, log: str) -> Path:
    folder = tmp_path / "home" / SESSIONS
    folder.mkdir(parents=True)
    (folder / "rollout-2026-12-05T21-49-35-x.jsonl").write_text(log, encoding="utf-8")
    return tmp_path / "home"


def _models(home: Path | None):
    stdout = (DATA / "session.stdout.jsonl").read_text()
    steps = PARSERS["codex"](Transcript(stdout=stdout, workspace=Path("/tmp/agentbench-record/workspace"),
                                        home=home))
    return [s for s in steps.steps if s.type == "model"], steps


def test_each_model_turn_gets_its_own_requests_tokens(tmp_path: Path) -> None:
    home = _home(tmp_path, (DATA / "session.rollout.jsonl").read_text())
    models, steps = _models(home)
    assert [(m.input_tokens, m.output_tokens) for m in models] == [(1234, 56)] * 4
    assert steps.sources == [f"HOME/{SESSIONS}/rollout-2026-12-05T21-49-35-x.jsonl"]
    assert not steps.notes


def test_without_the_session_log_the_turns_total_stays_on_its_last_step() -> None:
    models, _ = _models(None)
    assert [(m.input_tokens, m.output_tokens) for m in models] == [(None, None)] * 3 + [(4936, 224)]


def test_a_repeated_token_count_is_one_request() -> None:
    lines = (DATA / "session.rollout.jsonl").read_text().splitlines()
    counts = [line for line in lines if '"token_count"' in line]
    assert len(request_usages("\n".join([*counts, counts[-1], "not json", "{}"]))) == 4


def test_a_log_that_does_not_line_up_keeps_the_turn_totals_and_says_so(tmp_path: Path) -> None:
    lines = [line for line in (DATA / "session.rollout.jsonl").read_text().splitlines()
             if '"token_count"' in line]
    models, steps = _models(_home(tmp_path, "\n".join(lines[:2])))
    assert models[-1].input_tokens == 4936
    assert "2 model requests" in steps.notes[0]


def test_a_linked_sessions_folder_is_not_followed(tmp_path: Path) -> None:
    elsewhere = _home(tmp_path / "elsewhere", (DATA / "session.rollout.jsonl").read_text())
    home = tmp_path / "home"
    (home / ".codex").mkdir(parents=True)
    os.symlink(elsewhere / ".codex" / "sessions", home / ".codex" / "sessions")
    models, steps = _models(home)
    assert models[-1].input_tokens == 4936 and not steps.sources
