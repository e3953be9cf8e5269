"""The Markdown report: the seed's tables first, every figure, and untrusted text made inert."""

from agentbench.comparison import CompareOptions, build_comparison
from agentbench.report import Format, render
from agentbench.report.markdown import md_escape, render_markdown
from tests.test_comparison import NOISY_A, NOISY_B, make_run, seed_runs

SEED_AGGREGATE = """\
## Aggregate scores

| Agent | Aggregate Score | Challenges |
| --- | --: | --: |
| claude-code | 82.8 | 3 |
| codex | 74.2 | 3 |

## Per-challenge scores

| Challenge | claude-code | codex |
| --- | --: | --: |
| easy/password-gen | 91.4 | 78.1 |
| easy/todo-api | 84.9 | 70.0 |
| easy/markdown-parser | 72.0 | 74.5 |
"""


def test_opens_with_the_seeds_two_tables():
    text = render_markdown(build_comparison(seed_runs()))
    assert text.startswith("# AgentBench comparison\n")
    assert SEED_AGGREGATE in text
    assert text.index("## Aggregate scores") < text.index("## Paired verdicts")


def test_has_ranking_matrices_breakdown_usage_statuses_agents_tiers_verdicts_and_power():
    c = build_comparison([make_run("a", NOISY_A, cost=0.25), make_run("b", NOISY_B)],
                         options=CompareOptions(power_gap=5))
    text = render(c, Format.MARKDOWN)
    headings = ["## Aggregate scores", "## Per-challenge scores",
                "## Ranking, over challenges like these", "## Pairwise verdicts: score",
                "## Score breakdown", "## Time, cost and tokens per trial", "## Trials by status",
                "## Agents", "## By tier", "## Spread over trials", "## Paired verdicts in words"]
    positions = [text.index(h) for h in headings]
    assert positions == sorted(positions)  # the seed's two tables first, then the new views
    assert "| 1 | a | 61.3 | 46.3 to 76.4 | 8 | 3 | - |" in text
    assert "| #1 | a | - | +6.2 ▲ (8-0) |" in text and "| #2 | b | -6.2 ▼ (0-8) | - |" in text
    assert "| Agent | Build (25) | Tests (20) | Coverage (15) | Quality (15) |" in text
    assert "| a | 60.0 s | 60.0 s | $0.250 | $0.250 | $6.000 | 245 | cli 24 | 1000 | - |" in text
    assert "**Score:** a is ahead of b by 6.2 points over challenges like these" in text
    assert "Power: to detect a 5-point gap" in text  # '-' inside a line is not escaped
    assert "| easy | 74.9 | 68.6 |" in text
    assert "Inference over challenges like these: 95% Student t intervals over challenges" in text
    assert "-0.0" not in text


def test_conditional_view_says_so():
    c = build_comparison([make_run("a", NOISY_A), make_run("b", NOISY_B)],
                         options=CompareOptions(condition_on_challenges=True))
    text = render_markdown(c)
    assert "Inference on these 8 challenges only (--condition-on-challenges)" in text
    assert "## Ranking, on these 8 challenges only" in text


def test_untrusted_names_cannot_break_tables_or_inject_html():
    evil = "x|y<script>alert(1)</script>[link](javascript:z)"
    c = build_comparison([make_run(evil, NOISY_A), make_run("b", NOISY_B)])
    text = render_markdown(c)
    assert "<script>" not in text and "[link](javascript" not in text
    assert "x\\|y\\<script\\>alert(1)\\</script\\>\\[link\\](javascript:z)" in text
    for line in text.splitlines():
        if line.startswith("| x"):
            assert line.count(" | ") == line.replace("\\|", "").count(" | ")


def test_md_escape():
    assert md_escape("a_b*c`d`") == "a\\_b\\*c\\`d\\`"
    assert md_escape("# title") == "\\# title"
    assert md_escape("1. item") == "1\\. item"
    assert md_escape("line\nbreak\x1b[31m") == "line break\\\\x1b\\[31m"
    assert md_escape("2026-01-01T00:00:00+00:00") == "2026-01-01T00:00:00+00:00"
    assert md_escape("-6.6") == "-6.6" and md_escape("- item") == "\\- item"
    assert md_escape("58.2") == "58.2" and md_escape("---") == "\\---"


def test_run_links_are_percent_encoded():
    run = make_run("a", NOISY_A, run_id="r 1")
    text = render_markdown(build_comparison([run]), links={"a": "../results"})
    assert "[r 1](<../results/r%201/>)" in text


def test_a_second_score_can_sit_beside_the_first_in_the_ranking():
    # The hook a verified-score column uses: the same runs compared on another TrialRecord score.
    runs = [make_run("a", NOISY_A, rubric="verified"), make_run("b", NOISY_B, rubric="verified")]
    main = build_comparison(runs)
    seed = build_comparison(runs, options=CompareOptions(score="seed_score"))
    text = render(main, Format.MARKDOWN, others=(("Seed score", seed),))
    assert "| Rank | Agent | Score | 95% CI | Seed score | 95% CI | Challenges |" in text
    a_seed = seed.agents[0]
    assert f"| 1 | a | {main.agents[0].aggregate:.1f} |" in text
    assert f" | {a_seed.aggregate:.1f} | {a_seed.interval.low:.1f} to {a_seed.interval.high:.1f} | 8 |" in text
    assert "under the verified rubric" in text
