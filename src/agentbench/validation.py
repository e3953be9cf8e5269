"""Proving challenges fair: schema check, lint, reference and noop through the real pipeline, flakiness.

A challenge is valid when it loads, its lint is clean, the `reference` agent scores >= 95 with every
hidden test passing, the `noop` agent scores <= 10 with none passing, and the hidden tests give the
same outcome on every re-run against the reference solution.
"""

from __future__ import annotations

import ast
import re
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from agentbench.metrics import MeasureContext
from agentbench.metrics.acceptance import measure_acceptance
from agentbench.metrics.tests import parse_junit_cases
from agentbench.models import Challenge, TrialRecord
from agentbench.runner import Progress, RunConfig, execute
from agentbench.workspace import cache_dir, copy_tree, make_trial_dirs, template_site_packages

REFERENCE_MIN_SCORE = 95.0
NOOP_MAX_SCORE = 10.0
ALLOWED_TEST_IMPORTS = frozenset({"pytest", "_pytest"})
NETWORK_MODULES = frozenset({"socket", "urllib", "http", "requests", "httpx", "aiohttp", "ftplib",
                             "smtplib"})
"""A test file importing one of these and naming a remote URL may need the network."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChallengeVerdict:
    """Everything `validate` found about one challenge."""

    challenge_id: str
    problems: tuple[str, ...]
    reference: TrialRecord | None = None
    noop: TrialRecord | None = None
    flaky: tuple[str, ...] = ()

    @property
    def valid(self) -> bool:
        """No problem found."""
        return not self.problems


def lint_challenge(challenge: Challenge) -> tuple[str, ...]:
    """Static checks: a prompt leaking hidden tests, risky test dependencies, unasked-for files."""
    problems = [f"expected file '{f}' is never mentioned in the prompt"
                for f in challenge.expected_files if f not in challenge.prompt
                and Path(f).name not in challenge.prompt]
    if challenge.reference_dir is None:
        problems.append("no reference solution (add a reference/ folder beside the YAML)")
    if challenge.acceptance is None:
        problems.append("no hidden acceptance tests (add an acceptance/ folder beside the YAML)")
        return tuple(problems)
    packages = _solution_packages(challenge.reference_dir) | {
        p.stem for p in challenge.acceptance.files_dir.rglob("*.py")}  # the tests' own helpers
    for path in sorted(challenge.acceptance.files_dir.rglob("*")):
        problems.extend(_lint_test_file(path, challenge.prompt, packages))
    return tuple(problems)


def _solution_packages(reference: Path | None) -> frozenset[str]:
    if reference is None:
        return frozenset()
    roots = [reference / "src", reference]
    return frozenset(p.stem for root in roots if root.is_dir() for p in root.iterdir()
                     if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py")


def _lint_test_file(path: Path, prompt: str, packages: frozenset[str]) -> list[str]:
    name = path.name
    if name in ("requirements.txt", "requirements-test.txt"):
        return [f"{name}: unpinned requirement '{line}' (pin it with ==)"
                for line in path.read_text().splitlines()
                if line.strip() and not line.startswith("#") and "==" not in line]
    if path.suffix != ".py":
        return []
    text = path.read_text(encoding="utf-8")
    problems = [f"{name}: imports '{mod}', which is neither the standard library, pytest nor "
                "the solution (hidden tests must run offline with what the harness provides)"
                for mod in sorted(_imports(text)) if mod not in sys.stdlib_module_names
                and mod not in ALLOWED_TEST_IMPORTS and mod not in packages]
    if _imports(text) & NETWORK_MODULES:
        problems += [f"{name}: may reach the network address {url}" for url in _remote_urls(text)]
    problems += [f"{name}: the prompt contains this test's code: {line!r}"
                 for line in _leaked_lines(text, prompt)]
    return problems


def _imports(text: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def _remote_urls(text: str) -> list[str]:
    urls = re.findall(r"https?://[^\s'\"]+", text)
    return [u for u in urls if not re.match(r"https?://(localhost|127\.|\[::1\]|example\.)", u)]


def _leaked_lines(text: str, prompt: str) -> list[str]:
    lines = {line.strip() for line in text.splitlines()}
    return sorted(line for line in lines
                  if len(line) >= 40 and line.startswith(("assert", "def test_")) and line in prompt)


def validate(challenges: Sequence[Challenge], *, results_dir: Path, run_id: str,
             jobs: int = 1, repeats: int = 3, progress: Progress | None = None) -> tuple[ChallengeVerdict, ...]:
    """Run `reference` and `noop` on every challenge, then judge each one."""
    config = RunConfig(agents=("reference", "noop"), challenges=tuple(challenges),
                       results_dir=results_dir, run_id=run_id, jobs=jobs, retries=1,
                       challenge_dirs=())
    outcome = execute(config, progress, {a: results_dir / run_id / f"{a}.json" for a in config.agents})
    by_key = {(t.agent, t.challenge_id): t for r in outcome.records.values() for t in r.trials}
    return tuple(
        _judge(c, by_key.get(("reference", c.id)), by_key.get(("noop", c.id)),
               _flaky_tests(c, by_key.get(("reference", c.id)), outcome.run_dir, repeats))
        for c in challenges
    )


def _judge(challenge: Challenge, ref: TrialRecord | None, noop: TrialRecord | None,
           flaky: tuple[str, ...]) -> ChallengeVerdict:
    problems = [*lint_challenge(challenge), *_check_reference(ref), *_check_noop(noop)]
    problems += [f"flaky hidden test: {name}" for name in flaky]
    return ChallengeVerdict(challenge_id=challenge.id, problems=tuple(problems), reference=ref,
                            noop=noop, flaky=flaky)


def _check_reference(trial: TrialRecord | None) -> list[str]:
    if trial is None or trial.score is None:
        return [f"reference: no score ({trial.error if trial else 'not run'})"]
    problems = []
    if trial.score.total < REFERENCE_MIN_SCORE:
        problems.append(f"reference scored {trial.score.total:.1f}, expected >= "
                        f"{REFERENCE_MIN_SCORE:g} (see {trial.logs_dir})")
    if trial.acceptance_rate is not None and trial.acceptance_rate < 1.0:
        problems.append(f"reference passed only {trial.acceptance_rate:.0%} of the hidden tests "
                        f"(see {trial.logs_dir}/logs/acceptance.log)")
    return problems


def _check_noop(trial: TrialRecord | None) -> list[str]:
    if trial is None or trial.score is None:
        return [f"noop: no score ({trial.error if trial else 'not run'})"]
    problems = []
    if trial.score.total > NOOP_MAX_SCORE:
        problems.append(f"noop scored {trial.score.total:.1f}, expected <= {NOOP_MAX_SCORE:g}")
    if trial.acceptance_rate:
        problems.append(f"noop passed {trial.acceptance_rate:.0%} of the hidden tests: they do not "
                        "test the solution")
    return problems


def _flaky_tests(challenge: Challenge, ref: TrialRecord | None, run_dir: Path,
                 repeats: int) -> tuple[str, ...]:
    """Re-run the hidden tests on the reference's kept workspace; names whose outcome varies."""
    if challenge.acceptance is None or ref is None or repeats < 1:
        return ()
    kept = run_dir / ref.logs_dir / "workspace"
    template = template_site_packages(cache_dir(), run_dir / "logs")
    outcomes: list[dict[str, bool]] = []
    for n in range(1, repeats + 1):
        with tempfile.TemporaryDirectory(prefix="agentbench-flaky-") as tmp:
            dirs = make_trial_dirs(Path(tmp))
            copy_tree(kept, dirs.workspace)
            log_dir = run_dir / ref.logs_dir / f"flaky-{n}"
            measure_acceptance(challenge.acceptance, MeasureContext(
                dirs=dirs, trial_dir=log_dir, template_site=template))
            outcomes.append(parse_junit_cases(dirs.scratch / "junit" / "acceptance.xml"))
    return _varying(outcomes)


def _varying(outcomes: Iterable[dict[str, bool]]) -> tuple[str, ...]:
    runs = list(outcomes)
    names: set[str] = set().union(*runs) if runs else set()
    return tuple(sorted(n for n in names if len({run.get(n) for run in runs}) > 1))
