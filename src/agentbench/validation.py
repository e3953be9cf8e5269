"""Proving challenges fair: schema check, lint, reference and noop through the real pipeline, flakiness.

A challenge is valid when it loads, its lint is clean, the `reference` agent scores >= 95 with every
hidden test passing, the `noop` agent scores <= 10 with none passing, and the hidden tests give the
same outcome on every re-run against the reference solution.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from agentbench.formats.base import append_sets
from agentbench.metrics.change import computed_sets, set_problems
from agentbench.models import Challenge, TrialRecord
from agentbench.runner import Progress, RunConfig, execute, prepare_shared
from agentbench.toolchains import MeasureContext, get_toolchain
from agentbench.toolchains.canaries import HiddenCatalog, describe, expected_tests
from agentbench.toolchains.canaries import problems as canary_problems
from agentbench.trial import RunShared
from agentbench.workspace import make_trial_dirs

REFERENCE_MIN_SCORE = 95.0
NOOP_MAX_SCORE = 10.0


@dataclass(frozen=True, slots=True, kw_only=True)
class ChallengeVerdict:
    """Everything `validate` found about one challenge."""

    challenge_id: str
    problems: tuple[str, ...]
    reference: TrialRecord | None = None
    noop: TrialRecord | None = None
    flaky: tuple[str, ...] = ()
    canaries: str = "-"
    """Canary counts (`toolchains.canaries.describe`)."""
    twinless: tuple[str, ...] = ()
    """Hidden test functions no canary guards (a forger that finds them can flip them)."""

    @property
    def valid(self) -> bool:
        """No problem found."""
        return not self.problems


def lint_challenge(challenge: Challenge) -> tuple[str, ...]:
    """Static checks: unasked-for files, missing reference or hidden tests, then the language's own."""
    problems = [f"expected file '{f}' is never mentioned in the prompt"
                for f in challenge.expected_files if f not in challenge.prompt
                and Path(f).name not in challenge.prompt
                and challenge.workspace is None]  # NOTE: a brownfield task's files are given
    if challenge.reference_dir is None:
        problems.append("no reference solution (add a reference/ folder beside the YAML)")
    if challenge.acceptance is None:
        problems.append("no hidden acceptance tests (add an acceptance/ folder beside the YAML)")
    return (*problems, *get_toolchain(challenge.language).lint(challenge))


def validate(challenges: Sequence[Challenge], *, results_dir: Path, run_id: str,  # noqa: PLR0913 - keyword-only options
             jobs: int = 1, repeats: int = 3, progress: Progress | None = None,
             write_sets: bool = False) -> tuple[ChallengeVerdict, ...]:
    """Run `reference` and `noop` on every challenge, then judge each one (`write_sets`: a
    brownfield challenge without FAIL_TO_PASS / PASS_TO_PASS gets the computed ones written)."""
    config = RunConfig(agents=("reference", "noop"), challenges=tuple(challenges),
                       results_dir=results_dir, run_id=run_id, jobs=jobs, retries=1,
                       challenge_dirs=())
    outcome = execute(config, progress, {a: results_dir / run_id / f"{a}.json" for a in config.agents})
    by_key = {(t.agent, t.challenge_id): t for r in outcome.records.values() for t in r.trials}
    shared = prepare_shared(config, challenges)
    return tuple(
        _judge(c, by_key.get(("reference", c.id)), by_key.get(("noop", c.id)),
               _flaky_tests(c, by_key.get(("reference", c.id)), outcome.run_dir, repeats, shared),
               shared.hidden.get(c.id), (outcome.run_dir, write_sets))
        for c in challenges
    )


def _judge(challenge: Challenge, ref: TrialRecord | None, noop: TrialRecord | None,
           flaky: tuple[str, ...], catalog: HiddenCatalog | None,
           run: tuple[Path, bool]) -> ChallengeVerdict:
    problems = [*lint_challenge(challenge),
                *_check_reference(ref, brownfield=challenge.workspace is not None),
                *_check_every_hidden_test(ref, noop, run[0], brownfield=challenge.workspace is not None)]
    if challenge.workspace is None:
        problems += _check_noop(noop)
    else:
        problems += _check_change(challenge, ref, noop, *run)
    problems += [f"flaky hidden test: {name}" for name in flaky]
    if challenge.acceptance is not None and challenge.reference_dir is not None:
        problems += canary_problems(catalog)
    return ChallengeVerdict(challenge_id=challenge.id, problems=tuple(problems), reference=ref,
                            noop=noop, flaky=flaky, canaries=describe(catalog),
                            twinless=catalog.twinless if catalog else ())


def _scores(trial: TrialRecord) -> list[tuple[str, float]]:
    """(rubric, total) of every score the trial has (seed, and verified where there are hidden tests)."""
    return [(s.rubric, s.total) for s in (trial.seed_score, trial.verified_score) if s is not None]


def _check_reference(trial: TrialRecord | None, *, brownfield: bool = False) -> list[str]:
    """Greenfield: the reference scores >= 95 on every rubric; brownfield (an existing project, whose
    coverage and quality are the project's as a whole): its hidden tests and sets all pass."""
    if trial is None or trial.seed_score is None:
        return [f"reference: no score ({trial.error if trial else 'not run'})"]
    problems = [f"reference scored {total:.1f} under the {rubric} rubric, expected >= "
                f"{REFERENCE_MIN_SCORE:g} (see {trial.logs_dir})"
                for rubric, total in _scores(trial) if total < REFERENCE_MIN_SCORE and not brownfield]
    if trial.acceptance_rate is not None and trial.acceptance_rate < 1.0:
        problems.append(f"reference passed only {trial.acceptance_rate:.0%} of the hidden tests "
                        f"(see {trial.logs_dir}/logs/hidden-tests.json)")
    return problems


def _check_every_hidden_test(ref: TrialRecord | None, noop: TrialRecord | None, run_dir: Path, *,
                             brownfield: bool) -> list[str]:
    """Every hidden test, counted or not (a test no canary guards is not counted in a trial's pass
    rate), passes on the reference and (greenfield) fails on noop."""
    problems = []
    ref_outcomes = _hidden_outcomes(ref, run_dir)
    ref_rate = _rate(ref_outcomes)
    if ref_rate < 1.0 and not (ref and ref.acceptance_rate is not None and ref.acceptance_rate < 1.0):
        failing = ", ".join(n for n, o in ref_outcomes if o != "passed")
        problems.append(f"reference passed only {ref_rate:.0%} of the hidden tests, counting those "
                        f"no canary guards (failed: {failing[:300]})")
    noop_outcomes = _hidden_outcomes(noop, run_dir)
    noop_rate = _rate(noop_outcomes) if noop_outcomes else 0.0
    if noop_rate > 0 and not brownfield and not (noop and noop.acceptance_rate):
        problems.append(f"noop passed {noop_rate:.0%} of the hidden tests: they do not test the "
                        "solution (counting those no canary guards)")
    return problems


def _rate(outcomes: list[tuple[str, str]]) -> float:
    """The share of `outcomes` that passed (1.0 when there are none)."""
    return sum(o == "passed" for _, o in outcomes) / len(outcomes) if outcomes else 1.0


def _hidden_outcomes(trial: TrialRecord | None, run_dir: Path) -> list[tuple[str, str]]:
    """(test, outcome) of every hidden test of `trial`, from its `logs/hidden-tests.json`."""
    if trial is None:
        return []
    try:
        body = json.loads((run_dir / trial.logs_dir / "logs" / "hidden-tests.json").read_text(encoding="utf-8"))
        return [(str(name), str(outcome)) for name, outcome in body.get("outcomes", [])]
    except (OSError, ValueError, TypeError, AttributeError):
        return []


def _check_noop(trial: TrialRecord | None) -> list[str]:
    if trial is None or trial.seed_score is None:
        return [f"noop: no score ({trial.error if trial else 'not run'})"]
    problems = [f"noop scored {total:.1f} under the {rubric} rubric, expected <= {NOOP_MAX_SCORE:g}"
                for rubric, total in _scores(trial) if total > NOOP_MAX_SCORE]
    if trial.acceptance_rate:
        problems.append(f"noop passed {trial.acceptance_rate:.0%} of the hidden tests: they do not "
                        "test the solution")
    return problems


def _check_change(challenge: Challenge, ref: TrialRecord | None, noop: TrialRecord | None,
                  run_dir: Path, write_sets: bool = False) -> list[str]:
    """A brownfield challenge: the reference leaves protected files alone, the FAIL_TO_PASS and
    PASS_TO_PASS sets hold (noop is the starting tree), and noop scores nothing verified."""
    if ref is None or noop is None or noop.verified_score is None:
        return [f"noop: no score ({noop.error if noop else 'not run'})"]
    problems = [f"the reference changes protected file {note}"
                for note in (ref.changes.protected if ref.changes else ())]
    start, changed = _outcomes(run_dir, noop), _outcomes(run_dir, ref)
    written = False
    if write_sets and not challenge.fail_to_pass and not challenge.pass_to_pass:
        f2p, p2p = computed_sets(start, changed)
        if f2p:  # NOTE: noop's verified score is then 0 by construction: every F2P fails on it
            append_sets(challenge.source_path, f2p, p2p)
            challenge, written = replace(challenge, fail_to_pass=f2p, pass_to_pass=p2p), True
    problems += set_problems(challenge, start, changed)
    if not written and noop.verified_score.total > NOOP_MAX_SCORE:
        problems.append(f"noop scored {noop.verified_score.total:.1f} under the verified rubric, "
                        f"expected <= {NOOP_MAX_SCORE:g}")
    return problems


def _outcomes(run_dir: Path, trial: TrialRecord) -> dict[str, str]:
    """The trial's hidden-test outcomes by test ID (empty when none were logged)."""
    path = run_dir / trial.logs_dir / "logs" / "hidden-tests.json"
    try:
        return {str(t): str(o) for t, o in json.loads(path.read_text(encoding="utf-8"))["outcomes"]}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _flaky_tests(challenge: Challenge, ref: TrialRecord | None, run_dir: Path,
                 repeats: int, shared: RunShared) -> tuple[str, ...]:
    """Re-run the hidden tests on the reference's kept workspace; names whose outcome varies."""
    if challenge.acceptance is None or ref is None or repeats < 1:
        return ()
    kept = run_dir / ref.logs_dir / "workspace"
    toolchain = get_toolchain(challenge.language)
    outcomes: list[dict[str, str]] = []
    for n in range(1, repeats + 1):
        with tempfile.TemporaryDirectory(prefix="agentbench-flaky-") as tmp:
            ctx = MeasureContext(dirs=make_trial_dirs(Path(tmp)), assets=shared.assets[toolchain.name],
                                 trial_dir=run_dir / ref.logs_dir / f"flaky-{n}",
                                 expected_acceptance_tests=expected_tests(shared.hidden.get(challenge.id)),
                                 hidden_catalog=shared.hidden.get(challenge.id))
            run = toolchain.run_hidden(challenge.acceptance, ctx, kept)
            outcomes.append(dict(run.outcomes))
    return _varying(outcomes)


def _varying(outcomes: Iterable[dict[str, str]]) -> tuple[str, ...]:
    runs = list(outcomes)
    names: set[str] = set().union(*runs) if runs else set()
    return tuple(sorted(n for n in names if len({run.get(n) for run in runs}) > 1))
