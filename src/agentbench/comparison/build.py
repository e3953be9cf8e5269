"""`build_comparison`: results files in, a frozen `Comparison` out (cells, agents, notes), pure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from agentbench import stats
from agentbench.attempts import passed
from agentbench.comparison.model import (
    COMPONENTS,
    CONDITIONAL,
    AgentSummary,
    Cell,
    CompareOptions,
    Comparison,
    LanguageScore,
    TierScore,
    TrialRow,
    tier_of,
)
from agentbench.comparison.ranking import rank_agents
from agentbench.comparison.verdicts import build_verdicts, family_notes
from agentbench.errors import ResultsFileError
from agentbench.models import (
    COST_SOURCES,
    TIERS,
    TOKEN_SOURCES,
    AdapterResult,
    RunRecord,
    ScoreBreakdown,
    TrialRecord,
    cost_source_of,
    known_cost,
)


def build_comparison(
    runs: Sequence[RunRecord],
    *,
    sources: Sequence[str] = (),
    models: Sequence[str | None] = (),
    options: CompareOptions | None = None,
) -> Comparison:
    """Compare agents' runs: per-cell statistics, aggregates with intervals, paired verdicts.

    Args:
        runs: One results file each.
        sources: Where each run was read from (for error messages).
        models: The model each run asked for (from its run plan), parallel to `runs`; empty when
            unknown.
        options: Which score, which view, confidence, alpha, power (default: `CompareOptions()`).

    Raises:
        ResultsFileError: no run given, the same results given twice, or the runs share no
            challenge at all.
    """
    if not runs:
        raise ResultsFileError("<none>", "no results to compare", "pass one or more results files")
    options = options or CompareOptions()
    where = ", ".join(sources) or "results"
    _refuse_duplicates(runs, sources, where)
    identities = [_identity(run, models[i] if i < len(models) else None,
                            sources[i] if i < len(sources) else f"#{i + 1}")
                  for i, run in enumerate(runs)]
    labels = _labels(identities, where)
    rubric, field, notes = _pick_field(runs, options.score)
    cells = tuple(c for label, run in zip(labels, runs, strict=True)
                  for c in _cells(label, run.trials, field))
    challenges = tuple(dict.fromkeys(t.challenge_id for run in runs for t in run.trials))
    agents = tuple(
        _agent_summary(label, ident, run, cells, rubric, options)
        for label, ident, run in zip(labels, identities, runs, strict=True))
    notes += _input_notes(agents, runs, cells, where, options)
    verdicts = build_verdicts(agents, cells, options)
    agents = rank_agents(agents, runs, cells, verdicts, challenges)
    notes += family_notes(verdicts, options)
    population = (f"on these {len(challenges)} challenges only" if options.view == CONDITIONAL
                  else "over challenges like these")
    return Comparison(
        rubric=rubric, score_field=field, view=options.view, population=population,
        confidence=options.confidence, alpha=options.alpha, agents=agents,
        challenges=challenges, cells=cells, verdicts=verdicts,
        trials=tuple(_trial_row(label, run.run_id, t, field)
                     for label, run in zip(labels, runs, strict=True) for t in run.trials),
        notes=notes,
    )


@dataclass(frozen=True, slots=True)
class _Identity:
    agent: str
    model: str | None
    version: str | None
    run_id: str
    source: str
    """Where the results were read from (its folder's name), telling apart runs that share an ID."""


def _refuse_duplicates(runs: Sequence[RunRecord], sources: Sequence[str], where: str) -> None:
    """The same results given twice are refused; results that only share a run ID are not."""
    for i, run in enumerate(runs):
        for j in range(i):
            if runs[j] == run:
                shown = " and ".join(sources[k] for k in (j, i) if k < len(sources)) or where
                raise ResultsFileError(shown, f"the results of {run.agent!r} (run {run.run_id}) "
                                       "are given twice", "pass each results file once")


def _identity(run: RunRecord, model: str | None, source: str) -> _Identity:
    versions = Counter(t.adapter.version for t in run.trials
                       if t.adapter is not None and t.adapter.version)
    version = "/".join(sorted(versions)) or None
    if model is None:  # NOTE: the model the trials themselves recorded (schema 2 records)
        used = Counter(t.adapter.model for t in run.trials if t.adapter is not None and t.adapter.model)
        model = "/".join(sorted(used)) or None
    folder = Path(source).parent.name if "/" in source or "\\" in source else source
    return _Identity(agent=run.agent, model=model, version=version, run_id=run.run_id,
                     source=folder or source)


_PARTS = (("model", "default model"), ("version", "unknown version"), ("run_id", ""),
          ("source", ""))


def _labels(identities: Sequence[_Identity], where: str) -> tuple[str, ...]:
    """The agent's name; for runs of the same agent, what tells them apart (model, version, run)."""
    labels = [i.agent for i in identities]
    for agent in {i.agent for i in identities}:
        group = [n for n, i in enumerate(identities) if i.agent == agent]
        if len(group) == 1:
            continue
        shown: list[tuple[str, str]] = []
        for name, missing in _PARTS:
            values = {getattr(identities[n], name) for n in group}
            if len(values) > 1 or name == "run_id":
                shown.append((name, missing))
            candidate = {n: " · ".join([agent, *(str(getattr(identities[n], f) or m)
                                                 for f, m in shown)]) for n in group}
            if len(set(candidate.values())) == len(group):
                break
        for n in group:
            labels[n] = candidate[n]
    twice = [label for label, count in Counter(labels).items() if count > 1]
    if twice:
        raise ResultsFileError(where, f"the results of {twice[0]!r} are given twice",
                               "pass each results file once")
    return tuple(labels)


def _pick_field(runs: Sequence[RunRecord], field: str) -> tuple[str, str, tuple[str, ...]]:
    """(rubric, score field, notes): `score` is the run's rubric, `<rubric>_score` that rubric's
    score; `score` of runs with different rubrics falls back to the seed score."""
    rubrics = sorted({run.rubric for run in runs})
    if field != "score":
        return field.removesuffix("_score"), field, ()
    if len(rubrics) == 1:
        return rubrics[0], field, ()
    return "seed", "seed_score", (
        f"the results were scored with different rubrics ({', '.join(rubrics)}); "
        "every agent is compared on the seed rubric",)


def score_of(trial: TrialRecord, field: str) -> ScoreBreakdown | None:
    """The score a comparison reads from a trial (`field` names it), None when it is unscored."""
    if not trial.scored:
        return None
    score: ScoreBreakdown | None = getattr(trial, field)
    return score


def _hidden(trial: TrialRecord) -> tuple[int, int] | None:
    if trial.measurements is None or trial.measurements.acceptance is None:
        return None
    tests = trial.measurements.acceptance.tests
    return tests.passed, tests.total


def _outcome(trial: TrialRecord) -> float | None:
    hidden = _hidden(trial)
    return None if hidden is None else float(hidden[1] > 0 and hidden[0] == hidden[1])


def _cells(label: str, trials: Sequence[TrialRecord], field: str) -> Iterable[Cell]:
    by_challenge: dict[str, list[tuple[TrialRecord, ScoreBreakdown]]] = {}
    for trial in sorted(trials, key=lambda t: t.trial):
        score = score_of(trial, field)
        if score is not None:
            by_challenge.setdefault(trial.challenge_id, []).append((trial, score))
    for challenge_id, scored in by_challenge.items():
        yield _cell(label, challenge_id, scored)


def _cell(label: str, challenge_id: str,
          scored: Sequence[tuple[TrialRecord, ScoreBreakdown]]) -> Cell:
    totals = tuple(score.total for _, score in scored)
    rates = [r.acceptance_rate for r, _ in scored if r.acceptance_rate is not None]
    outcomes = tuple(o for o in (_outcome(r) for r, _ in scored) if o is not None)
    return Cell(
        agent=label, challenge_id=challenge_id, scores=totals, summary=stats.summarize(totals),
        components=tuple((name, fmean([getattr(s, name) for _, s in scored]))
                         for name in COMPONENTS),
        hidden_rate=fmean(rates) if rates else None, outcomes=outcomes,
    )


def _mean_or_none(values: Iterable[float | int | None]) -> float | None:
    known = [float(v) for v in values if v is not None]
    return fmean(known) if known else None


def _spread(values: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    """(mean, median, 90th percentile), Nones for no values."""
    if not values:
        return None, None, None
    return fmean(values), stats.percentile(values, 50), stats.percentile(values, 90)


def _interval(cells: Sequence[Cell], options: CompareOptions) -> stats.Interval | None:
    if not cells:
        return None
    if options.view == CONDITIONAL:
        return stats.within(stats.stratified_interval([c.scores for c in cells], options.confidence))
    return stats.within(stats.mean_interval([c.summary.mean for c in cells], options.confidence))


def _agent_summary(label: str, ident: _Identity, run: RunRecord, all_cells: Sequence[Cell],
                   rubric: str, options: CompareOptions) -> AgentSummary:
    cells = [c for c in all_cells if c.agent == label]
    adapters = [t.adapter for t in run.trials if t.scored and t.adapter is not None]
    time_mean, time_median, time_p90 = _spread([a.time_taken_seconds for a in adapters])
    costs = [c for c in map(known_cost, adapters) if c is not None]
    cost_mean, cost_median, cost_p90 = _spread(costs)
    sources = Counter(cost_source_of(a) for a in adapters)
    run_cost, run_unknown = _run_cost(run.trials)
    aggregate = fmean([c.summary.mean for c in cells]) if cells else None
    hidden = [c.hidden_rate for c in cells if c.hidden_rate is not None]
    solve_rates = [r for r in (c.solve_rate for c in cells) if r is not None]
    return AgentSummary(
        label=label, agent=run.agent, model=ident.model, cli_version=ident.version,
        run_id=run.run_id, rubric=rubric, created_at=run.created_at, rank=None,
        aggregate=aggregate, challenges=len(cells), trials=sum(c.summary.n for c in cells),
        trials_per_challenge=min((c.summary.n for c in cells), default=0),
        trials_most=max((c.summary.n for c in cells), default=0),
        single_trial_challenges=tuple(c.challenge_id for c in cells if c.summary.n == 1),
        interval=_interval(cells, options),
        components=tuple((name, fmean([dict(c.components)[name] for c in cells]) if cells else 0.0)
                         for name in COMPONENTS),
        hidden_rate=fmean(hidden) if hidden else None,
        solve_rate=fmean(solve_rates) if solve_rates else None,
        solved=sum(c.solved for c in cells), attempts=sum(c.attempts for c in cells),
        pass_at=_pass_at(cells),
        mean_time_s=time_mean, median_time_s=time_median, p90_time_s=time_p90,
        mean_cost_usd=cost_mean, median_cost_usd=cost_median, p90_cost_usd=cost_p90,
        total_cost_usd=sum(costs) if costs else None,
        points_per_dollar=(aggregate / cost_mean if aggregate is not None and cost_mean
                           and not sources["unknown"] else None),
        cost_sources=tuple((s, sources[s]) for s in COST_SOURCES if sources[s]),
        token_sources=_token_sources(adapters),
        run_cost_usd=run_cost, run_cost_unknown=run_unknown,
        mean_input_tokens=_mean_or_none(a.input_tokens for a in adapters),
        mean_output_tokens=_mean_or_none(a.output_tokens for a in adapters),
        statuses=tuple(sorted(Counter(t.status.value for t in run.trials).items())),
        tiers=_tiers(cells),
        languages=_languages(cells, {t.challenge_id: t.language for t in run.trials if t.language}),
    )


def _run_cost(trials: Sequence[TrialRecord]) -> tuple[float | None, int]:
    """(known cost of every trial, trials whose cost is unknown); a trial whose agent never
    started (no result, or no prompt and no token) spent nothing."""
    known, unknown = [], 0
    for trial in trials:
        adapter = trial.adapter
        if adapter is None or (adapter.prompts_used == 0 and adapter.input_tokens is None
                               and adapter.output_tokens is None and adapter.cost_usd is None):
            continue
        cost = known_cost(adapter)
        if cost is None:
            unknown += 1
        else:
            known.append(cost)
    return (sum(known) if known else None), unknown


def _pass_at(cells: Sequence[Cell]) -> tuple[tuple[int, float], ...]:
    graded = [c for c in cells if c.attempts > 0]
    if not graded:
        return ()
    most = min(c.attempts for c in graded)
    return tuple((k, fmean([stats.pass_at_k(c.attempts, c.solved, k) for c in graded]))
                 for k in range(1, most + 1))


def _tiers(cells: Sequence[Cell]) -> tuple[TierScore, ...]:
    by_tier: dict[str, list[float]] = {}
    for cell in cells:
        by_tier.setdefault(tier_of(cell.challenge_id), []).append(cell.summary.mean)
    order = [t for t in TIERS if t in by_tier] + sorted(set(by_tier) - set(TIERS))
    return tuple(TierScore(tier=t, score=fmean(by_tier[t]), challenges=len(by_tier[t]))
                 for t in order)


def _languages(cells: Sequence[Cell], language_of: Mapping[str, str]) -> tuple[LanguageScore, ...]:
    by_language: dict[str, list[float]] = {}
    for cell in cells:
        if cell.challenge_id in language_of:
            by_language.setdefault(language_of[cell.challenge_id], []).append(cell.summary.mean)
    return tuple(LanguageScore(language=name, score=fmean(scores), challenges=len(scores))
                 for name, scores in sorted(by_language.items()))


def _trial_row(label: str, run_id: str, trial: TrialRecord, field: str) -> TrialRow:
    score, hidden = score_of(trial, field), _hidden(trial)
    adapter = trial.adapter
    return TrialRow(
        agent=label, challenge_id=trial.challenge_id, trial=trial.trial, status=trial.status.value,
        score=None if score is None else score.total,
        hidden_passed=None if hidden is None else hidden[0],
        hidden_total=None if hidden is None else hidden[1],
        time_s=adapter.time_taken_seconds if adapter else None,
        cost_usd=known_cost(adapter), cost_source=cost_source_of(adapter) if adapter else "unknown",
        input_tokens=adapter.input_tokens if adapter else None,
        output_tokens=adapter.output_tokens if adapter else None,
        tokens_source=_tokens_source(adapter),
        run_id=run_id, logs_dir=trial.logs_dir, note=_note(trial), **_change_fields(trial),
    )


def _token_sources(adapters: Sequence[AdapterResult]) -> tuple[tuple[str, int], ...]:
    counts = Counter(s for s in map(_tokens_source, adapters) if s)
    return tuple((s, counts[s]) for s in TOKEN_SOURCES if counts[s])


def _tokens_source(adapter: AdapterResult | None) -> str | None:
    """Where a trial's tokens come from (older records without it: the CLI's report)."""
    if adapter is None or (adapter.input_tokens is None and adapter.output_tokens is None):
        return None
    return adapter.tokens_source or "cli"


def _change_fields(trial: TrialRecord) -> dict[str, Any]:
    """The diff's size and the change sets' verdict, for the changes table."""
    c = trial.changes
    m = trial.measurements
    sets = m.acceptance.sets if m is not None and m.acceptance is not None else None
    first = trial.attempts[0] if trial.attempts else None
    return {"lines_added": c.lines_added if c else None, "lines_removed": c.lines_removed if c else None,
            "protected_changed": len(c.protected) if c else 0,
            "resolved": None if sets is None else sets.resolved,
            "pass_1": first.passed if first else None,
            "pass_2": passed(m) if first else None}


def _note(trial: TrialRecord) -> str:
    text = trial.error or (trial.adapter.final_message if trial.adapter else "") or ""
    return text if len(text) <= 200 else text[:199] + "\u2026"


def _input_notes(agents: Sequence[AgentSummary], runs: Sequence[RunRecord],
                 cells: Sequence[Cell], where: str, options: CompareOptions) -> tuple[str, ...]:
    notes: list[str] = []
    for agent, run in zip(agents, runs, strict=True):
        left_out = Counter(t.status.value for t in run.trials if not t.scored)
        if left_out:
            shown = ", ".join(f"{n} {status}" for status, n in sorted(left_out.items()))
            notes.append(f"{agent.label}: {sum(left_out.values())} trial(s) left out of the "
                         f"scores ({shown})")
        notes.extend(_agent_notes(agent, options))
    notes.extend(_challenge_notes(agents, cells, where))
    if len(agents) == 1:
        notes.append("one results file: there is nothing to compare it with")
    return tuple(notes)


def _agent_notes(agent: AgentSummary, options: CompareOptions) -> list[str]:
    if agent.aggregate is None:
        return [f"{agent.label} has no scored trial, so it has no score"]
    singles = agent.single_trial_challenges
    if options.view == CONDITIONAL and len(singles) == agent.challenges:
        return [f"{agent.label}: every challenge has a single scored trial, so the spread between "
                "trials is unknown and the conditional view has no interval (run with --trials 2 "
                "or more, or drop --condition-on-challenges)"]
    notes = []
    if singles and len(singles) < agent.challenges:
        shown = ", ".join(singles[:3]) + (", ..." if len(singles) > 3 else "")
        borrowed = (f"; its spread between trials is taken from {agent.label}'s other challenges"
                    if options.view == CONDITIONAL else "")
        notes.append(f"{agent.label}: {len(singles)} challenge(s) have a single scored trial "
                     f"({shown}); each still counts with its one score{borrowed}")
    if agent.challenges == 1 and options.view != CONDITIONAL:
        notes.append(f"{agent.label} has scores on one challenge only, so there is no interval "
                     "over challenges (--condition-on-challenges gives one for this challenge)")
    return notes


def _challenge_notes(agents: Sequence[AgentSummary], cells: Sequence[Cell],
                     where: str) -> list[str]:
    sets = {a.label: {c.challenge_id for c in cells if c.agent == a.label}
            for a in agents if a.aggregate is not None}
    if len(sets) < 2:
        return []
    common = set.intersection(*sets.values())
    if not common and not any(a & b for x, a in sets.items() for y, b in sets.items() if x < y):
        raise ResultsFileError(
            where, "these results share no challenge, so they cannot be compared",
            "run every agent on the same challenges (the same --tier, --challenge or --all)")
    every = set.union(*sets.values())
    notes = [f"{label} has no score on {len(every - own)} challenge(s) others have: "
             f"{', '.join(sorted(every - own))}" for label, own in sets.items() if every - own]
    if notes:
        notes.append(f"the agents ran different challenges, so their own aggregates are not like "
                     f"for like: the ranking orders them by a difficulty-adjusted score (an "
                     f"additive model of agent and challenge), and each paired verdict uses only "
                     f"the challenges both agents have ({len(common)} shared by all)")
    return notes
