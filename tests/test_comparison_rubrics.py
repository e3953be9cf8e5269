"""`compare` and `report` show the verified score beside the run's own and say when they rank apart."""

from __future__ import annotations

from agentbench.comparison import CompareOptions, compare_both
from agentbench.models import RunRecord, ScoreBreakdown, TrialRecord, TrialStatus
from tests.synthetic import breakdown

CHALLENGES = ("easy/a", "easy/b", "easy/c")


def run(agent: str, seed: float, verified: float) -> RunRecord:
    trials = []
    for cid in CHALLENGES:
        own = breakdown(seed)
        scale = verified / own.total
        checked = ScoreBreakdown(rubric="verified", scale=min(1.0, scale), **{
            name: getattr(own, name) * scale for name in
            ("build", "tests", "coverage", "quality", "completeness", "efficiency")})
        trials.append(TrialRecord(agent=agent, challenge_id=cid, trial=1, status=TrialStatus.COMPLETED,
                                  adapter=None, measurements=None, seed_score=own, score=own,
                                  verified_score=checked, started_at="2026-01-01T00:00:00+00:00",
                                  duration_s=1.0, logs_dir=f"t/{agent}/{cid}"))
    return RunRecord(agent=agent, run_id="r", rubric="seed", created_at="2026-01-01T00:00:00+00:00",
                     agentbench_version="0", trials=tuple(trials))


def test_the_verified_column_and_a_note_when_the_rankings_differ():
    stub, real = run("stub", 98.0, 2.0), run("real", 90.0, 85.0)
    main, others = compare_both([stub, real], sources=["s", "r"], models=[None, None],
                                options=CompareOptions())
    ((name, verified),) = others
    assert name == "Verified" and verified.rubric == "verified"
    assert {a.label: round(a.aggregate) for a in verified.agents} == {"stub": 2, "real": 85}
    assert any("rank these agents differently" in n for n in main.notes)


def test_no_note_when_both_rubrics_agree():
    main, others = compare_both([run("a", 95.0, 90.0), run("b", 60.0, 30.0)], sources=["a", "b"],
                                models=[None, None], options=CompareOptions())
    assert others and not any("rank these agents differently" in n for n in main.notes)


def test_scores_broken_down_by_language_when_there_are_several():
    from dataclasses import replace

    from agentbench.report import Format, render

    stub = run("a", 90.0, 80.0)
    trials = tuple(replace(t, language="go" if t.challenge_id == "easy/c" else "python")
                   for t in stub.trials)
    main, _ = compare_both([replace(stub, trials=trials)], sources=["a"], models=[None],
                           options=CompareOptions())
    assert main.languages == ("python", "go")
    (summary,) = main.agents
    assert {(s.language, s.challenges) for s in summary.languages} == {("python", 2), ("go", 1)}
    assert "By language" in render(main, Format("markdown"))
    single, _ = compare_both([stub], sources=["a"], models=[None], options=CompareOptions())
    assert "By language" not in render(single, Format("markdown"))
