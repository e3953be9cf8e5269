"""node:test canaries of `assert.ok(...)` and `assert.match(value, /re/)`: rendered and run by the
real `node --test` on a correct solution, every real test passes and every canary fails; an
`assert.ok` pair differs in one boolean only."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from agentbench.toolchains.node.canaries import candidates, render
from agentbench.toolchains.node.truths import mutate_regex, plain_positions, regex_strength
from tests.requirements import TOOLS

SOLUTION = """\
export const isPalindrome = (s) => s === [...s].reverse().join('');
export const greet = (name) => `Hello, ${name}! You are visitor 4021.`;
export const slug = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
"""

TESTS = """\
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isPalindrome, greet, slug } from './m.mjs';

test('palindromes', () => {
  assert.ok(isPalindrome('racecar'));
  assert.ok(!isPalindrome('robot'), 'robot is no palindrome');
});

test('greeting', () => {
  assert.match(greet('Ada'), /^Hello, Ada! You are visitor \\d{4}\\.$/);
});

test('slug', () => {
  assert.match(slug('Go Team'), /^go-te[a-z]m$/i);
});
"""


def _node_test(folder: Path) -> dict[str, str]:
    node = str(TOOLS / "node") if (TOOLS / "node").is_file() else "node"
    run = subprocess.run([node, "--test", "--test-reporter=tap", "m.test.mjs"], cwd=folder, capture_output=True,
                         text=True, timeout=120, check=False)
    found = {name: "fail" if bad else "pass"
                 for bad, name in re.findall(r"^(not )?ok \d+ - (test_[0-9a-f]+)", run.stdout, re.M)}
    assert found, run.stdout[-2000:] + run.stderr[-2000:]
    return found


@pytest.mark.needs("node22")
def test_truth_and_match_twins_fail_on_a_correct_solution_and_real_tests_pass(tmp_path: Path) -> None:
    sources = {"m.test.mjs": TESTS}
    generated = candidates(sources)
    kinds = {m.test.rsplit(" ", 1)[-1]: m for m in generated}
    assert kinds["palindromes"].common and not kinds["palindromes"].strong
    assert kinds["greeting"].strong and not kinds["slug"].common
    rendered = render(sources, generated)
    text = rendered.sources["m.test.mjs"]
    assert "assert.ok(" not in text  # every variant writes it alike
    assert text.count("assert.equal(!!(isPalindrome('racecar')), true)") >= 1
    assert text.count("assert.equal(!!(!isPalindrome('robot')), ") == 1 + sum(m.test.endswith("palindromes") for m in generated)
    (tmp_path / "m.mjs").write_text(SOLUTION)
    (tmp_path / "m.test.mjs").write_text(text)
    outcomes = _node_test(tmp_path)
    for name, role in rendered.roles.items():
        assert outcomes[name] == ("pass" if role.canary is None else "fail"), (name, role)


def test_a_regex_canary_changes_only_anchored_fixed_text_so_no_string_matches_both() -> None:
    pattern = r"^Hi \w+, you have \d+ new$"
    assert "".join(pattern[i] for i in plain_positions(pattern)) == "Hinew"
    assert plain_positions("^ab?c") == [1] and plain_positions(r"^\d+x$") == [4]
    assert plain_positions("^yes|no$") == [] and plain_positions("abc") == []  # alternation; unanchored
    for _ in range(50):
        new = mutate_regex(f"/{pattern}/u")
        changed = [i for i, (a, b) in enumerate(zip(pattern, new[1:-2], strict=True)) if a != b]
        assert len(changed) == 2 and set(changed) <= set(plain_positions(pattern)) and new.endswith("/u")
    assert regex_strength(r"/\d+/") is None and regex_strength("/^ab$/") == "weak"
    assert regex_strength("/^abc/m") is None  # another line could match the canary
