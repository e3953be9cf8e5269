"""Issue: scores that measure the work, not the agent's claims. Each trick, end to end through
`agentbench run`, in both sandbox modes, with the most it may score asserted."""

from __future__ import annotations

import pytest

from tests.attacks.agents import AGENTS
from tests.attacks.conftest import agentbench_run, needs_sandbox

pytestmark = pytest.mark.attacks


def test_reference_scores_full_marks_under_both_rubrics(scoring_attacks):
    t = scoring_attacks.trial("reference")
    assert t.seed_score.total >= 95 and t.verified_score.total >= 95
    assert scoring_attacks.hidden("reference") == (10, 10)
    assert t.measurements.tests.tampering == () and t.measurements.acceptance.tampering == ()


def test_doing_nothing_scores_zero_when_verified(scoring_attacks):
    t = scoring_attacks.trial("noop")
    assert t.verified_score.total == 0
    assert t.seed_score.total <= 10


def test_a_stub_scores_at_most_10_when_verified(scoring_attacks):
    t = scoring_attacks.trial("stub")
    assert scoring_attacks.hidden("stub") == (0, 10)
    assert t.verified_score.total <= 10


def test_wrong_but_green_code_scores_at_most_60_when_verified(scoring_attacks):
    t = scoring_attacks.trial("wrong-green")
    assert scoring_attacks.hidden("wrong-green") == (5, 10)
    assert t.verified_score.total <= 60
    assert t.verified_score.total < scoring_attacks.trial("reference").verified_score.total - 35


def test_stripping_failures_from_the_hidden_junit_report_voids_the_hidden_tests(scoring_attacks):
    t = scoring_attacks.trial("junit-stripper")
    assert scoring_attacks.hidden("junit-stripper")[0] == 0
    assert any("JUnit report" in s for s in t.measurements.acceptance.tampering)
    assert t.verified_score.total <= scoring_attacks.trial("wrong-green").verified_score.total


def test_product_code_aimed_at_the_probe_voids_the_hidden_tests(scoring_attacks):
    t = scoring_attacks.trial("probe-hunter")
    assert scoring_attacks.hidden("probe-hunter")[0] == 0
    assert any("probe" in s for s in t.measurements.acceptance.tampering)


def test_a_module_named_like_the_standard_library_shadows_nothing(scoring_attacks):
    assert scoring_attacks.hidden("argparse-shadow") == (10, 10)
    err = (scoring_attacks.trial_dir("argparse-shadow") / "logs" / "acceptance.err").read_text()
    assert "AGENT-ARGPARSE-LOADED" not in err


def test_skipped_tests_count_in_the_total(scoring_attacks):
    tests = scoring_attacks.trial("skipper").measurements.tests
    assert (tests.passed, tests.total) == (1, 51)
    assert scoring_attacks.trial("skipper").seed_score.tests <= 20 / 51 + 1e-9


@pytest.mark.parametrize("agent", ["rewriter", "fake-summary", "junit-forger"])
def test_forged_own_test_counts_earn_no_test_points(scoring_attacks, agent):
    t = scoring_attacks.trial(agent)
    assert t.measurements.tests.passed == 0
    assert t.seed_score.tests == 0


def test_outcome_rewriting_is_recorded_as_tampering(scoring_attacks):
    tests = scoring_attacks.trial("rewriter").measurements.tests
    assert tests.problem and any("reported passed" in s for s in tests.tampering)


def test_pragmas_do_not_hide_untested_code(scoring_attacks):
    coverage = scoring_attacks.trial("pragma").measurements.coverage
    assert coverage.covered_lines <= coverage.total_lines - 3


def test_an_unimported_module_counts_as_uncovered(scoring_attacks):
    coverage = scoring_attacks.trial("unimported").measurements.coverage
    reference = scoring_attacks.trial("reference").measurements.coverage
    assert coverage.files == reference.files + 1
    assert coverage.total_lines - coverage.covered_lines >= 6


def test_code_under_a_tests_named_folder_counts_for_quality(scoring_attacks):
    t = scoring_attacks.trial("hidden-impl")
    assert t.measurements.quality.average_complexity >= 5
    assert t.seed_score.quality < 15


def test_an_empty_expected_file_is_not_found(scoring_attacks):
    missing = scoring_attacks.trial("empty-readme").measurements.completeness.missing
    assert "README.md (empty)" in missing and any(m.startswith("[readme]") for m in missing)


def test_efficiency_is_timed_by_the_harness_not_the_adapter(scoring_attacks):
    t = scoring_attacks.trial("liar")
    assert t.adapter.time_taken_seconds == 0.0
    assert t.agent_seconds >= 3
    assert t.seed_score.efficiency <= 10 * (1 - 3 / 60) + 1e-9


def test_every_attack_agent_was_run():
    assert {"stub", "wrong-green", "rewriter", "pragma"} <= set(AGENTS)


@pytest.mark.parametrize("mode", ["none", "bwrap"])
def test_without_setup_commands_every_file_must_compile_and_a_timeout_earns_no_verified_efficiency(
        tmp_path, mode):
    needs_sandbox(mode)
    AGENTS_EXTRA = {
        "broken": {"src/calc/__init__.py": "from calc.ops import add\n",
                   "src/calc/ops.py": "def add(a, b)\n    return a + b\n",
                   "tests/test_ops.py": "def test_a():\n    assert True\n"},
    }
    run = agentbench_run(tmp_path, ["broken", "liar"], "easy/calc-nosetup", mode,
                         "--agent-timeout", "1", files=AGENTS_EXTRA)
    broken, slow = run.trial("broken"), run.trial("liar")
    assert not broken.measurements.build.success and broken.seed_score.build == 0
    assert "setup-compile" in broken.measurements.build.commands[0].log
    assert slow.status == "timeout"
    assert slow.verified_score is not None and slow.verified_score.efficiency == 0
