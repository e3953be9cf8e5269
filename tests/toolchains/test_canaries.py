"""Canary twins: the judgement's rules, and twins that really are the same test with one expected
literal changed (the end-to-end attacks are in tests/attacks/test_canary_attacks.py)."""

from __future__ import annotations

import ast

from agentbench.toolchains.canaries import HiddenCatalog, Mutation, Role, judge, pick
from agentbench.toolchains.python.canaries import candidates, render

STRONG = Mutation(file="t.py", test="test_a", site=0, literal="'abd'", described="t.py:2: 'abc' -> 'abd'")
WEAK = Mutation(file="t.py", test="test_b", site=0, literal="3", described="t.py:5: 2 -> 3", strong=False)
ROLES = {"r1": Role(original="t.py::test_a"), "c1": Role(original="t.py::test_a", canary=STRONG),
         "r2": Role(original="t.py::test_b"), "c2": Role(original="t.py::test_b", canary=WEAK)}
EXPECTED = ("t.py::test_a", "t.py::test_b")


def _judge(outcomes: dict[str, str]):
    return judge(outcomes.items(), ROLES.get, EXPECTED)


def test_a_strong_canary_that_passes_is_evidence_of_forgery():
    verdict = _judge({"r1": "failed", "c1": "passed", "r2": "failed", "c2": "failed"})
    assert len(verdict.forged) == 1 and "twin of t.py::test_a" in verdict.forged[0]


def test_a_weak_canary_alone_cancels_one_passing_test_and_with_its_twin_is_forgery():
    honest_but_wrong = _judge({"r1": "passed", "c1": "failed", "r2": "failed", "c2": "passed"})
    assert honest_but_wrong.forged == () and honest_but_wrong.passed == 0
    assert honest_but_wrong.cancelled == 1 and honest_but_wrong.failed == 2
    nothing_to_cancel = _judge({"r1": "failed", "c1": "failed", "r2": "failed", "c2": "passed"})
    assert nothing_to_cancel.passed == 0 and nothing_to_cancel.forged == ()
    both = _judge({"r1": "failed", "c1": "failed", "r2": "passed", "c2": "passed"})
    assert len(both.forged) == 1 and "both passed" in both.forged[0]


def test_an_expected_test_never_reported_fails_and_unknown_ids_count_nothing():
    verdict = _judge({"r1": "passed", "c1": "failed", "planted": "passed"})
    assert verdict.outcomes == (("t.py::test_a", "passed"), ("t.py::test_b", "failed"))
    assert (verdict.passed, verdict.failed, verdict.missing) == (1, 1, 1)


def test_python_twins_differ_in_one_expected_literal_and_look_alike():
    source = "import m\n\n\ndef test_a():\n    assert m.f('x') == 'result-123'\n\n\ndef helper():\n    return 1\n"
    generated = candidates({"test_t.py": source})
    assert len(generated) == 1 and generated[0].strong
    rendered = render({"test_t.py": source}, pick(HiddenCatalog(tests=(), canaries=tuple(generated))))
    tree = ast.parse(rendered.sources["test_t.py"])
    tests = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")]
    assert len(tests) == 2 and {len(t.name) for t in tests} == {len("test_") + 12}
    texts = [ast.unparse(t).replace(t.name, "NAME") for t in tests]
    assert texts[0] != texts[1] and "m.f('x')" in texts[0] and "m.f('x')" in texts[1]
    assert {rendered.resolve(f"test_t.py::{t.name}").canary is None for t in tests} == {True, False}
    assert any(isinstance(n, ast.FunctionDef) and n.name == "helper" for n in tree.body)


def _weak_pairs(n: int) -> tuple[dict[str, Role], list[str]]:
    roles, expected = {}, []
    for i in range(n):
        weak = Mutation(file="t.py", test=f"test_{i}", site=0, literal="4", described=f"t.py:{i}: 2 -> 4",
                        strong=False)
        roles[f"r{i}"] = Role(original=f"t.py::test_{i}")
        roles[f"c{i}"] = Role(original=f"t.py::test_{i}", canary=weak)
        expected.append(f"t.py::test_{i}")
    return roles, expected


def test_two_weak_canaries_passing_are_forgery_and_name_the_evidence():
    roles, expected = _weak_pairs(4)
    one = judge({"r0": "passed", "c1": "passed"}.items(), roles.get, expected)
    assert one.forged == () and one.passed == 0
    two = judge({"r0": "passed", "c1": "passed", "c2": "passed"}.items(), roles.get, expected)
    assert len(two.forged) == 1 and "2 weak canaries passed" in two.forged[0] and "t.py::test_2" in two.forged[0]


def test_tests_no_canary_guards_are_reported_but_not_counted():
    verdict = judge({"r1": "passed", "r2": "passed", "r3": "passed"}.items(),
                    {**ROLES, "r3": Role(original="t.py::test_c")}.get, (*EXPECTED, "t.py::test_c"),
                    counted=EXPECTED)
    assert verdict.outcomes[-1] == ("t.py::test_c", "passed") and verdict.uncounted == ("t.py::test_c",)
    assert (verdict.passed, verdict.failed) == (2, 0)


def test_flipping_one_of_each_weak_pair_at_random_gains_nothing_on_average():
    """A forger that cannot tell a real test from its canary flips one of each failing pair: each
    flip is a fair coin between +1 (the real test) and -1 (a passing weak canary cancels a pass);
    two canaries void the run. Over many runs it scores no more than the honest product."""
    import random

    rng = random.Random(7)
    roles, expected = _weak_pairs(8)
    honest = {f"r{i}": "passed" for i in range(3)}
    gains = []
    for _ in range(4000):
        flipped = {(f"r{i}" if rng.random() < 0.5 else f"c{i}"): "passed" for i in range(3, 8)}
        verdict = judge({**honest, **flipped}.items(), roles.get, expected)
        gains.append((0 if verdict.forged else verdict.passed) - 3)
    assert sum(gains) / len(gains) < 0 and max(gains) <= 5
    cautious = []  # flips one pair only: below the forged threshold, a coin of +1 / -1
    for _ in range(4000):
        pick = "r3" if rng.random() < 0.5 else "c3"
        cautious.append(judge({**honest, pick: "passed"}.items(), roles.get, expected).passed - 3)
    assert abs(sum(cautious) / len(cautious)) < 0.05


TRUTHS = '''\
import pytest

import m


class Oops(Exception):
    pass


def test_even():
    assert m.is_even(4)


def test_odd():
    assert not m.is_even(3)


@pytest.mark.parametrize("n, expected", [(2, True), (5, False)])
def test_table(n, expected):
    assert m.is_even(n) == expected


def test_raises():
    with pytest.raises(Oops):
        m.is_even(None)
'''
PRODUCT = '''\
def is_even(n):
    if n is None:
        from test_t import Oops
        raise Oops()
    return n % 2 == 0
'''


def test_python_truth_and_exception_twins_run_the_same_code_and_expect_the_opposite(tmp_path):
    """Tests without a literal get twins too: `assert f(x)`, `assert not f(x)` and `== expected` become
    `assert bool(...) == <table attribute>`, `pytest.raises(E)` reads E from the table; each pair
    compiles to the same bytecode, and on a correct product the real test passes and its twin fails."""
    import subprocess
    import sys

    generated = candidates({"test_t.py": TRUTHS})
    assert {m.test for m in generated} == {"test_even", "test_odd", "test_table", "test_raises"}
    assert all(m.common and not m.strong for m in generated)
    rendered = render({"test_t.py": TRUTHS}, generated)
    (tmp_path / "test_t.py").write_text(rendered.sources["test_t.py"])
    (tmp_path / "m.py").write_text(PRODUCT)
    module = compile(rendered.sources["test_t.py"], "test_t.py", "exec")
    codes: dict[str, set[bytes]] = {}
    for const in module.co_consts:
        if hasattr(const, "co_code") and const.co_name.startswith("test_"):
            codes.setdefault(rendered.resolve(f"t::{const.co_name}").group, set()).add(const.co_code)
    assert len(codes) == 4 and all(len(shapes) == 1 for shapes in codes.values())
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", str(tmp_path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    outcomes = {}
    for line in proc.stdout.splitlines():
        if line.startswith(("PASSED ", "FAILED ")):
            state, nodeid = line.split()[:2]
            role = rendered.resolve(nodeid.split(" ")[0])
            outcomes.setdefault(role.canary is None, set()).add(state)
    assert outcomes == {True: {"PASSED"}, False: {"FAILED"}}, proc.stdout


GO_TABLE = '''package roman

import "testing"

func TestTable(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"IV", 4},
		{"MCMXC", 1990},
	}
	for _, tc := range cases {
		if got := Parse(tc.in); got != tc.want {
			t.Fatalf("%s", tc.in)
		}
	}
}
'''


def test_go_unkeyed_table_rows_get_twins_on_their_want_field():
    from agentbench.toolchains.go.canaries import candidates as go_candidates
    from agentbench.toolchains.go.canaries import render as go_render

    generated = go_candidates({"r_test.go": GO_TABLE})
    assert sorted(m.described.split(": ")[1].split(" ->")[0] for m in generated) == ["1990", "4"]
    strong = next(m for m in generated if m.strong)
    text = go_render({"r_test.go": GO_TABLE}, [strong]).sources["r_test.go"]
    assert text.count('{"MCMXC", 1990}') == 1 and text.count(f'{{"MCMXC", {strong.literal}}}') == 1
    assert text.count('{"IV", 4}') == 2


def test_a_challenges_own_must_fail_test_runs_as_a_canary_and_validate_sees_one_that_passed():
    from agentbench.toolchains.canaries import MUST_FAIL, problems, surveyed

    source = ("import m\n\n\ndef test_real():\n    assert m.f() == 'abc-123'\n\n\n"
              "def test_not_five():\n    assert m.f() == 'five'\n")
    generated = candidates({"test_t.py": source}, must_fail=["test_t.py::test_not_five", "test_t.py::test_gone"])
    own = [m for m in generated if m.site == MUST_FAIL]
    assert {m.twin for m in own} == {"test_t.py::test_not_five", "test_t.py::test_gone"}
    assert not any(m.test == "test_not_five" and m.site != MUST_FAIL for m in generated)
    rendered = render({"test_t.py": source}, generated)
    roles = {r.original: r for r in rendered.roles.values()}
    assert roles["must_fail test_t.py::test_not_five"].canary in own and "test_t.py::test_not_five" not in roles
    names = {r.original: n for n, r in rendered.roles.items()}
    outcomes = [(f"test_t.py::{names['must_fail test_t.py::test_not_five']}", "failed"),
                (f"test_t.py::{names['test_t.py::test_real']}", "passed")]
    outcomes += [(f"test_t.py::{n}", "failed") for n, r in rendered.roles.items()
                 if r.canary is not None and r.canary.site != MUST_FAIL]
    catalog = surveyed(outcomes, lambda i: rendered.resolve(i), generated, rendered.roles.values())
    assert catalog.tests == ("test_t.py::test_real",) and catalog.unfailed == ("test_t.py::test_gone",)
    assert "must_fail test test_t.py::test_gone did not fail" in problems(catalog)[0]
    verdict = judge([(outcomes[0][0], "passed"), (outcomes[1][0], "passed")], rendered.resolve, catalog.tests,
                    catalog.counted())
    assert verdict.passed == 0 and verdict.cancelled == 1  # a passing must_fail test cancels a pass


def test_a_sealed_file_s_tests_count_without_twins_and_validate_names_the_file():
    from agentbench.toolchains.canaries import describe, surveyed

    roles = [Role(original="cli.test.ts::a", group="cli.test.ts::a"),
             Role(original="lib.test.ts::b", group="lib.test.ts::b")]
    by_id = {r.original: r for r in roles}
    outcomes = [("cli.test.ts::a", "passed"), ("lib.test.ts::b", "passed")]
    catalog = surveyed(outcomes, by_id.get, (), roles, sealed=frozenset({"cli.test.ts"}))
    assert catalog.counted() == ("cli.test.ts::a",) and catalog.twinless == ("lib.test.ts::b",)
    assert catalog.sealed == ("cli.test.ts",)
    assert describe(catalog).endswith("1/2 tests counted, sealed (no twins needed): cli.test.ts")
    assert HiddenCatalog.from_json(catalog.to_json()) == catalog
