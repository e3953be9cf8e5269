"""The viewer in a real browser, on a real run this module makes: Claude Code and Codex on easy/semver
against the scripted model server (Claude Code is served the reference solution, Codex a flawed one:
no CLI tests, and `bump major` that keeps the minor number). Chromium clicks through runs -> run ->
trial -> side by side and must be able to answer "which tools did each agent use on easy/semver,
and why did Codex lose points there?". With AGENTBENCH_SCREENSHOTS=examples the screenshots of
README are saved (examples/viewer-*.png)."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from agentbench.loader import discover_challenges, select_challenges
from agentbench.modelserver import RunningServer, Script, ScriptedFile, script_from_directory
from tests.adapters.conftest import TOOLS_BIN
from tests.viewer.conftest import Watched, run_agents, serving

pytestmark = pytest.mark.realcli


def flawed(reference: Script) -> Script:
    """The reference without tests/test_cli.py, and `bump("major")` keeping the minor number."""
    files = []
    for f in reference.files:
        if f.path == "tests/test_cli.py":
            continue
        content = f.content.replace('"major": lambda: Version(self.major + 1, 0, 0)',
                                    '"major": lambda: Version(self.major + 1, self.minor, 0)')
        files.append(ScriptedFile(path=f.path, content=content))
    assert any("self.major + 1, self.minor, 0" in f.content for f in files)
    return Script(files=tuple(files), final_message="Done: semver_tool written.")


@pytest.fixture(scope="module")
def real_run(shared_folder: Path) -> Path:
    """The results folder of `agentbench run --agent claude-code --agent codex` on easy/semver."""
    for exe in ("claude", "codex"):
        if shutil.which(exe, path=TOOLS_BIN + os.pathsep + os.environ.get("PATH", "")) is None:
            if os.environ.get("CI"):
                pytest.fail(f"{exe} is not installed (run ci/install/*.sh)")
            pytest.skip(f"{exe} is not installed")
    (challenge,) = select_challenges(discover_challenges(), ids=("easy/semver",))
    reference = script_from_directory(challenge.reference_dir)
    results = shared_folder / "results"
    with RunningServer(reference) as claude, RunningServer(flawed(reference)) as codex:
        config = shared_folder / "agentbench.toml"
        config.write_text(
            f'[agents.claude-code]\nenv = {{ ANTHROPIC_BASE_URL = "{claude.url}", '
            'ANTHROPIC_API_KEY = "sk-ant-scripted" }\n'
            f'[agents.codex]\nenv = {{ OPENAI_BASE_URL = "{codex.url}/v1", OPENAI_API_KEY = "sk-scripted" }}\n')
        run_agents(results, "--agent", "claude-code", "--agent", "codex", "--challenge", "easy/semver",
                   "--agents-config", str(config), "--run-id", "semver-demo",
                   env={"PATH": TOOLS_BIN + os.pathsep + os.environ.get("PATH", "")})
    return results


def test_runs_run_trial_side_by_side(real_run, browser):
    with serving(real_run) as base:
        w = Watched(browser, base)
        page = w.goto("/")
        w.shot("runs")
        page.click("a.run-link")
        assert page.url.endswith("/runs/semver-demo")
        ranking = page.inner_text("#table-ranking")
        assert "claude-code" in ranking and "codex" in ranking
        behaviour = page.inner_text("#table-behaviour")
        assert re.search(r"claude-code\s+Write x8", behaviour), behaviour
        assert re.search(r"codex\s+file_change x7", behaviour), behaviour
        w.shot("run")
        page.click('#grid a.cell[title^="codex"]')
        assert "/trials/codex/easy/semver/1" in page.url
        points = page.inner_text("#points-table")
        # why Codex lost points: a failing bump test, an untested cli.py, a missing test file
        assert re.search(r"tests\s+19\.07\s+20\s+0\.93\s+41 of 43 tests passed", points), points
        assert "tests/test_version.py::test_bump[1.2.3-major-2.0.0]: failed" in points
        assert re.search(r"coverage\s+9\.83\s+15\s+5\.17", points), points
        assert "src/semver_tool/cli.py: 48 of 48 statements not run" in points
        assert re.search(r"completeness\s+13\.64\s+15\s+1\.36", points), points
        assert "missing: tests/test_cli.py" in points
        # the hidden tests (only those a canary guards count) catch the flawed `bump major`
        hidden = re.search(r"(\d+) of (\d+) hidden tests passed", points)
        assert hidden, points
        assert 50 <= int(hidden[1]) < int(hidden[2]), hidden[0]
        assert "file_change" in page.inner_text("dl.behaviour")
        w.shot("trial")
        page.click('a.side-by-side:text("claude-code")')
        assert "/compare/easy/semver" in page.url
        left, right = page.inner_text("#side-1"), page.inner_text("#side-2")
        assert "codex" in left and "file_change" in left and "claude-code" in right and "Write" in right
        diffs = page.inner_text("#file-diffs")
        assert "tests/test_cli.py: only right" in diffs and "src/semver_tool/version.py: differs" in diffs
        assert "Version(self.major + 1, self.minor, 0)" in diffs
        w.shot("compare")
        page.click("#side-1 li.step-tool details.result summary >> nth=0")
        assert page.is_visible("#side-1 li.step-tool details.result pre >> nth=0")
        assert w.dialogs == [] and w.errors == [] and w.foreign_requests() == []


def test_live_view_shows_finished_trials_without_reload(real_run, browser, tmp_path):
    copy = tmp_path / "results"
    shutil.copytree(real_run / "semver-demo", copy / "semver-demo")
    record = copy / "semver-demo" / "trials" / "codex" / "easy" / "semver" / "trial-1" / "record.json"
    kept = record.read_text()
    record.unlink()
    with serving(copy) as base:
        w = Watched(browser, base)
        page = w.goto("/runs/semver-demo")
        assert page.inner_text("#live-finished") == "1"
        record.write_text(kept)  # the trial finishes while the page is open
        page.wait_for_selector("#live-trials tr", timeout=15000)
        assert page.inner_text("#live-finished") == "2"
        row = page.inner_text("#live-trials tr")
        assert "codex" in row and "easy/semver" in row
        assert "Run complete" in page.inner_text("#live-state")
        w.shot("live")
        page.click("#live-trials a")
        assert "/trials/codex/easy/semver/1" in page.url
        assert w.dialogs == [] and w.errors == [] and w.foreign_requests() == []
