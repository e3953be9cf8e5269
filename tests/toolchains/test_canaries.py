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


def test_a_weak_canary_counts_only_together_with_its_twin():
    honest_but_wrong = _judge({"r1": "passed", "c1": "failed", "r2": "failed", "c2": "passed"})
    assert honest_but_wrong.forged == () and honest_but_wrong.passed == 1
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


def test_python_twins_of_an_f_string_expectation_render_and_run():
    """An f-string's text parts are sites too; tabulated, each becomes `{_values.v_...}`."""
    source = "x = 7\n\n\ndef test_a():\n    assert str(x) + '-end' == f'{x}-end'\n"
    generated = candidates({"test_t.py": source})
    assert len(generated) == 1 and generated[0].strong
    rendered = render({"test_t.py": source}, pick(HiddenCatalog(tests=(), canaries=tuple(generated))))
    namespace: dict[str, object] = {}
    exec(compile(rendered.sources["test_t.py"], "test_t.py", "exec"), namespace)
    outcomes = {}
    for name, role in rendered.roles.items():
        try:
            namespace[name]()
            outcomes[role.canary is not None] = "passed"
        except AssertionError:
            outcomes[role.canary is not None] = "failed"
    assert outcomes == {False: "passed", True: "failed"}
