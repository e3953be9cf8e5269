"""The built-in challenges are fair: flawed solutions are caught, planted files change nothing.

The full `agentbench validate` of every challenge runs in test_builtin_valid.py.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from agentbench.adapters import ADAPTERS, AdapterResult, AgentAdapter
from agentbench.loader import discover_challenges, select_challenges
from agentbench.models import TrialRecord
from agentbench.runner import RunConfig, execute
from agentbench.validation import lint_challenge, validate
from tests.requirements import require

FLAWED = Path(__file__).parent / "flawed"
LANGUAGE_NEEDS = {"typescript": ("node22",), "go": ("go",)}
FLAWED_IDS = sorted(f"{p.parent.name}/{p.stem}" for p in FLAWED.glob("*/*.patch"))


def flawed_solution(challenge_id: str, dest: Path) -> Path:
    """The reference solution with the challenge's one deliberate bug applied (FLAWED/<id>.patch,
    whose `#` header says what the bug is)."""
    (challenge,) = select_challenges(discover_challenges(), ids=(challenge_id,))
    shutil.copytree(challenge.reference_dir, dest)
    patch = FLAWED / f"{challenge_id}.patch"
    subprocess.run(["git", "apply", "-p2", str(patch)], cwd=dest, check=True)
    return dest


def copying_adapter(source: Path, extra: dict[str, str] | None = None) -> type[AgentAdapter]:
    """An agent that writes a fixed folder (plus extra files) into the workspace."""

    class DirectoryAdapter(AgentAdapter):
        @property
        def name(self) -> str:
            return "directory"

        def run_challenge(self, prompt: str, output_dir: Path, time_limit_minutes: int = 30) -> AdapterResult:
            shutil.copytree(source, output_dir, dirs_exist_ok=True,
                            ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
            for rel, text in (extra or {}).items():
                (output_dir / rel).parent.mkdir(parents=True, exist_ok=True)
                (output_dir / rel).write_text(text)
            return AdapterResult(time_taken_seconds=1.0, prompts_used=1, success=True)

    return DirectoryAdapter


def run_directory_agent(challenge_id: str, source: Path, tmp_path: Path,
                        extra: dict[str, str] | None = None) -> TrialRecord:
    challenge = select_challenges(discover_challenges(), ids=(challenge_id,))
    ADAPTERS["directory"] = copying_adapter(source, extra)
    try:
        outcome = execute(RunConfig(agents=("directory",), challenges=challenge,
                                    results_dir=tmp_path, run_id="t"))
    finally:
        del ADAPTERS["directory"]
    (trial,) = outcome.records["directory"].trials
    return trial


def test_there_is_a_flawed_solution_per_tier():
    assert {cid.split("/")[0] for cid in FLAWED_IDS} == {"easy", "medium", "hard"}


@pytest.mark.parametrize("challenge_id", FLAWED_IDS)
def test_hidden_tests_catch_the_flawed_solution(challenge_id, tmp_path):
    (challenge,) = select_challenges(discover_challenges(), ids=(challenge_id,))
    require(*LANGUAGE_NEEDS.get(challenge.language, ()))
    source = flawed_solution(challenge_id, tmp_path / "flawed")
    trial = run_directory_agent(challenge_id, source, tmp_path / "run")
    assert trial.measurements.build.success
    assert trial.acceptance_rate is not None and 0.5 < trial.acceptance_rate < 1.0, (
        (FLAWED / f"{challenge_id}.patch").read_text().splitlines()[0])


PLANTS = {
    "conftest.py": "import pytest\n@pytest.hookimpl(hookwrapper=True)\n"
                   "def pytest_runtest_makereport(item, call):\n    outcome = yield\n"
                   "    outcome.get_result().outcome = 'passed'\n",
    "sitecustomize.py": "import builtins\nbuiltins.__dict__['AGENT_WAS_HERE'] = True\n",
    "src/sitecustomize.py": "raise SystemExit(0)\n",
    "pytest.ini": "[pytest]\naddopts = -p no:python\n",
    "pytest.py": "import sys\nsys.exit(0)\n",
    "src/pytest.py": "import sys\nsys.exit(0)\n",
    ".agentbench/acceptance/test_fake.py": "def test_ok():\n    assert True\n",
    "evil.pth": "import os\n",
}


def test_planted_files_cannot_fake_a_pass_and_are_recorded(tmp_path):
    flawed = flawed_solution("easy/todo-api", tmp_path / "flawed")
    honest = run_directory_agent("easy/todo-api", flawed, tmp_path / "a")
    planted = run_directory_agent("easy/todo-api", flawed, tmp_path / "b", PLANTS)
    honest_tests = honest.measurements.acceptance.tests
    planted_tests = planted.measurements.acceptance.tests
    assert (planted_tests.passed, planted_tests.failed) == (honest_tests.passed, honest_tests.failed)
    assert planted_tests.failed > 0
    tampering = set(planted.measurements.acceptance.tampering)
    assert {"conftest.py", "sitecustomize.py", "src/sitecustomize.py", "pytest.ini", "evil.pth"} <= tampering
    # hidden tests run from a harness folder outside the project: a planted copy of their path is inert
    assert planted_tests.total == honest_tests.total
    assert honest.measurements.acceptance.tampering == ()


def test_validate_accepts_a_builtin_challenge(tmp_path):
    challenges = select_challenges(discover_challenges(), ids=("easy/password-gen",))
    (verdict,) = validate(challenges, results_dir=tmp_path, run_id="v", repeats=2)
    assert verdict.valid, verdict.problems
    assert verdict.reference.score.total >= 95 and verdict.noop.score.total <= 10
    assert verdict.flaky == ()


def test_every_builtin_challenge_passes_lint():
    problems = {c.id: lint_challenge(c) for c in discover_challenges()}
    assert {cid: p for cid, p in problems.items() if p} == {}
