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


def test_has_intervals_breakdown_usage_tiers_verdicts_and_power():
    c = build_comparison([make_run("a", NOISY_A, cost=0.25), make_run("b", NOISY_B)],
                         options=CompareOptions(power_gap=5))
    text = render(c, Format.MARKDOWN)
    for heading in ("## Confidence intervals and hidden tests", "## Score breakdown",
                    "## Spread over trials", "## Time, tokens and cost", "## By tier",
                    "## Paired verdicts"):
        assert heading in text
    assert "| Agent | Build (25) | Tests (20) | Coverage (15) | Quality (15) |" in text
    assert "| a | 0.2" not in text and "$0.250" in text
    assert "**Score:** a is ahead of b by" in text
    assert "Power: to detect a 5\\-point gap" not in text  # '-' inside a line is not escaped
    assert "Power: to detect a 5-point gap" in text
    assert "| easy | 68.7 | 62.7 |" in text


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


def test_run_links_are_percent_encoded():
    run = make_run("a", NOISY_A, run_id="r 1")
    text = render_markdown(build_comparison([run]), links={"a": "../results"})
    assert "[r 1](<../results/r%201/>)" in text
