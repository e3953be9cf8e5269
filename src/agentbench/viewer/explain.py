"""Where each point of a trial's score went: one line per rubric component, with the evidence.

Built from the trial record (the harness's measurements and score) and the harness's own files in
the trial folder: per-test outcomes (`logs/test-<n>.outcomes.json`, `logs/hidden-tests.json`),
per-file coverage (`coverage.json`) and complexity per function (`logs/quality.log`). The rules are
docs/scoring-integrity.md's; nothing here re-scores anything.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentbench.models import CommandResult, Measurements, ScoreBreakdown, TrialRecord
from agentbench.scoring import QUALITY_BANDS, RUBRICS
from agentbench.viewer.files import read_text

MAX_NAMES = 8
"""Failed tests, files or functions named per component at most."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Component:
    """One rubric component of a trial's score."""

    name: str
    points: float
    weight: float
    why: str
    """How the points were reached, in words."""
    details: tuple[str, ...] = ()
    """The evidence: failed tests, missing items, least covered files..."""

    @property
    def lost(self) -> float:
        """Points not earned."""
        return max(0.0, round(self.weight - self.points, 2))


def explain(record: TrialRecord, trial_dir: Path, score: ScoreBreakdown | None = None) -> tuple[Component, ...]:
    """Each component of `score` (default: the record's own) with why points were lost."""
    score = score or record.score
    m = record.measurements
    if score is None or m is None:
        return ()
    weights = RUBRICS[score.rubric].weights if score.rubric in RUBRICS else RUBRICS["seed"].weights
    scale = "" if score.scale == 1.0 else f"; x {score.scale:.2f} (the hidden-test pass rate)"
    parts = (("build", *_build(m)), ("tests", *_tests(m, trial_dir)), ("coverage", *_coverage(m, trial_dir)),
             ("quality", *_quality(m, trial_dir)), ("completeness", *_completeness(m)),
             ("efficiency", *_efficiency(record, score)))
    # NOTE: the verified rubric scales every component, efficiency included, by the hidden-test
    # pass rate; only a timed-out trial's efficiency (0 whatever the rate) needs no factor.
    found = [Component(name=name, points=getattr(score, name), weight=getattr(weights, name),
                       why=why + ("" if why.startswith("timed out") else scale), details=details)
             for name, why, details in parts]
    if m.acceptance is not None:
        found.append(Component(name="hidden tests", points=score.acceptance, weight=weights.acceptance,
                               why=_hidden_words(m), details=_hidden_failures(trial_dir)))
    return tuple(found)


def _build(m: Measurements) -> tuple[str, tuple[str, ...]]:
    failed = [c for c in m.build.commands if not c.ok]
    if m.build.success:
        return ("every setup command exited 0" if m.build.commands else "the source files compile"), ()
    raised = [f for f in m.failures if f.step in ("prepare", "build", "snapshot", "changes", "measuring")]
    if raised:
        return f"measuring step '{raised[0].step}' raised {raised[0].error}: counts zero", ()
    if not m.build.commands:
        return "no build: no source file, or one that does not compile", ()
    return f"{len(failed)} of {len(m.build.commands)} setup commands failed", tuple(map(_command, failed))


def _command(c: CommandResult) -> str:
    how = c.ending or ("timed out" if c.timed_out else f"exited {c.returncode}")
    return f"`{c.command}` {how} (log: {c.log})"


def _tests(m: Measurements, trial_dir: Path) -> tuple[str, tuple[str, ...]]:
    t = m.tests
    if t.problem:
        return f"no test counts: {t.problem}", tuple(t.tampering)
    if t.total == 0:
        return "no test was collected", tuple(_command(c) for c in t.commands if not c.ok)
    failed = [name for c in t.commands for name in _failed(trial_dir, _outcomes_of(c.log))]
    words = f"{t.passed} of {t.total} tests passed"
    if t.skipped:
        words += f" ({t.skipped} skipped or xfailed: not passed)"
    return words, tuple(failed[:MAX_NAMES])


def _outcomes_of(log: str) -> str:
    """`logs/test-1.log` -> `logs/test-1.outcomes.json`."""
    return re.sub(r"\.log$", "", log) + ".outcomes.json"


def _failed(trial_dir: Path, relative: str) -> list[str]:
    data = _json(trial_dir / relative)
    outcomes = data.get("outcomes") if isinstance(data, dict) else None
    if not isinstance(outcomes, list):
        return []
    return [f"{pair[0]}: {pair[1]}" for pair in outcomes
            if isinstance(pair, list) and len(pair) == 2 and pair[1] != "passed"]


def _json(path: Path) -> Any:
    text = read_text(path, 8 * 1024 * 1024)
    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def _coverage(m: Measurements, trial_dir: Path) -> tuple[str, tuple[str, ...]]:
    c = m.coverage
    if c.problem:
        return f"not measured: {c.problem}", ()
    if not c.total_lines:
        return "no product code to cover", ()
    words = f"{c.covered_lines} of {c.total_lines} measured lines covered ({c.ratio:.0%}) in {c.files} files"
    data = _json(trial_dir / "coverage.json")
    files = data.get("files") if isinstance(data, dict) else None
    gaps = [gap for name, info in (files.items() if isinstance(files, dict) else [])
            for gap in [_gap(name, info)] if gap is not None]
    return words, tuple(text for _, text in sorted(gaps, reverse=True)[:MAX_NAMES])


def _gap(name: str, info: object) -> tuple[int, str] | None:
    """(missed, words) of one file of coverage.json: `statements` (Python, Go) or `lines` (Node)."""
    if not isinstance(info, dict) or not isinstance(info.get("covered"), int):
        return None
    unit = next((u for u in ("statements", "lines") if isinstance(info.get(u), int)), None)
    if unit is None:
        return None
    missing = info[unit] - info["covered"]
    return (missing, f"{name}: {missing} of {info[unit]} {unit} not run") if missing > 0 else None


def _quality(m: Measurements, trial_dir: Path) -> tuple[str, tuple[str, ...]]:
    q = m.quality
    if q.average_complexity is None:
        return "no function to assess (scores 0)", ()
    band = next((f"under {bound:g} earns {ratio:.0%}" for bound, ratio in QUALITY_BANDS
                 if q.average_complexity < bound), "20 or more earns nothing")
    words = f"average cyclomatic complexity {q.average_complexity:.2f} over {q.functions} functions ({band})"
    if q.weighted_complexity is not None:
        words += f"; weighted by lines (verified rubric) {q.weighted_complexity:.2f}"
    if q.unanalysed:
        words += f"; {len(q.unanalysed)} file(s) too large to analyse: the worst band"
    log = read_text(trial_dir / "logs" / "quality.log", 1024 * 1024) or ""
    worst = []
    for line in log.splitlines():
        head = line.split(maxsplit=1)
        if len(head) == 2 and head[0].isdigit() and int(head[0]) >= QUALITY_BANDS[0][0]:
            worst.append((int(head[0]), f"complexity {head[0]}: {head[1].strip()}"))
    return words, tuple(text for _, text in sorted(worst, reverse=True)[:MAX_NAMES])


def _completeness(m: Measurements) -> tuple[str, tuple[str, ...]]:
    c = m.completeness
    total = len(c.found) + len(c.missing)
    if not total:
        return "nothing expected", ()
    return f"{len(c.found)} of {total} items met", tuple(f"missing: {item}" for item in c.missing)


def _efficiency(record: TrialRecord, score: ScoreBreakdown) -> tuple[str, tuple[str, ...]]:
    seconds = record.agent_seconds if record.agent_seconds is not None else (
        record.adapter.time_taken_seconds if record.adapter else None)
    if record.adapter is not None and record.adapter.timed_out and score.efficiency == 0:
        return "timed out (the verified rubric gives no efficiency points then)", ()
    if seconds is None:
        return "no time recorded", ()
    return f"the agent took {seconds:.1f} s (timed by the harness); 10 x (1 - time / baseline)", ()


def _hidden_words(m: Measurements) -> str:
    a = m.acceptance
    if a is None:
        return ""
    t = a.tests
    if t.problem:
        return f"hidden tests void: {t.problem} (weight 0 in this rubric: shown for the verified score)"
    extra = f"; {a.uncollected} not even collected" if a.uncollected else ""
    return (f"{t.passed} of {t.total} hidden tests passed{extra} (weight 0 here; the verified score "
            "multiplies every component by this rate)")


def _hidden_failures(trial_dir: Path) -> tuple[str, ...]:
    return tuple(_failed(trial_dir, "logs/hidden-tests.json")[:MAX_NAMES])
