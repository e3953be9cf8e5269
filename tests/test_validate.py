"""`agentbench validate` tells a challenge author exactly what is wrong."""

from __future__ import annotations

from pathlib import Path

from tests.cli.helpers import invoke
from tests.conftest import write
from tests.requirements import jobs


def validate(capsys, root: Path, tmp_path: Path):
    # a fully covered reference: the fixture's own leaves a function untested on purpose
    write(root / "easy" / "adder" / "reference" / "src" / "adder" / "__init__.py", '''\
        """Adds numbers."""


        def add(a: int, b: int) -> int:
            """Return a + b."""
            return a + b
        ''')
    r = invoke(capsys, "validate", "easy/adder", "--challenges", str(root), "--results",
               str(tmp_path / "v"), "--repeats", "2", "--jobs", jobs())
    return r, " ".join(r.out.split())


def test_a_good_challenge_is_valid(capsys, tmp_path, tiny_challenges):
    r, out = validate(capsys, tiny_challenges, tmp_path)
    assert r.exit_code == 0, r.out + r.err
    assert "1 valid, 0 invalid" in out


def test_validate_counts_the_canaries_and_refuses_hidden_tests_no_canary_can_guard(
        capsys, tmp_path, tiny_challenges):
    r, out = validate(capsys, tiny_challenges, tmp_path)
    assert "2/2 twinned" in out
    write(tiny_challenges / "easy" / "adder" / "acceptance" / "test_untwinned.py", "import adder\n" + "".join(
        f"\n\ndef test_runs_{i}():\n    adder.add({i}, 1)\n" for i in range(7)))
    r, out = validate(capsys, tiny_challenges, tmp_path)
    assert r.exit_code == 1
    assert "only 2 of 9 hidden tests are guarded by a canary" in out and "2/9 twinned" in out


def test_a_hidden_test_the_reference_fails_is_reported(capsys, tmp_path, tiny_challenges):
    write(tiny_challenges / "easy" / "adder" / "acceptance" / "test_wrong.py", """\
        import adder


        def test_wrong_expectation():
            assert adder.add(2, 2) == 5
        """)
    r, out = validate(capsys, tiny_challenges, tmp_path)
    assert r.exit_code == 1
    assert "reference passed only 67% of the hidden tests" in out


def test_hidden_tests_that_pass_on_an_empty_workspace_are_reported(capsys, tmp_path, tiny_challenges):
    write(tiny_challenges / "easy" / "adder" / "acceptance" / "test_trivial.py",
          "def test_always():\n    assert True\n")
    r, out = validate(capsys, tiny_challenges, tmp_path)
    assert r.exit_code == 1
    assert "noop passed 33% of the hidden tests: they do not test the solution" in out


def test_flaky_hidden_tests_are_named(capsys, tmp_path, tiny_challenges):
    write(tiny_challenges / "easy" / "adder" / "acceptance" / "test_flaky.py", """\
        import os

        import adder


        def test_coin():
            assert adder.add(1, 1) == 2 and os.urandom(1)[0] % 2 == 0
        """)
    r = invoke(capsys, "validate", "easy/adder", "--challenges", str(tiny_challenges), "--results",
               str(tmp_path / "v"), "--repeats", "12")
    assert r.exit_code == 1
    assert "flaky hidden test" in r.out and "test_coin" in r.out


def test_lint_finds_leaks_network_and_unasked_files(capsys, tmp_path, tiny_challenges):
    yaml_path = tiny_challenges / "easy" / "adder.yaml"
    text = yaml_path.read_text().replace("  - tests/test_adder.py", "  - tests/test_adder.py\n  - docs/extra.md")
    text = text.replace("Files: pyproject.toml", "Hint: assert adder.add(10**12, 1) == 10**12 + 1 must hold.\n  Files: pyproject.toml")
    yaml_path.write_text(text)
    write(tiny_challenges / "easy" / "adder" / "acceptance" / "test_net.py", """\
        import requests


        def test_remote():
            assert requests.get("https://api.example.org/x").ok
        """)
    r, out = validate(capsys, tiny_challenges, tmp_path)
    assert r.exit_code == 1
    assert "expected file 'docs/extra.md' is never mentioned in the prompt" in out
    assert "the prompt contains this test's code" in out
    assert "imports 'requests'" in out


def test_validate_proves_the_authors_must_fail_tests_fail_on_the_reference(capsys, tmp_path, tiny_challenges):
    write(tiny_challenges / "easy" / "adder" / "acceptance" / "test_canaries.py", """\
        import adder


        def test_wrong_sum():
            assert adder.add(2, 2) == 5


        def test_right_sum():
            assert adder.add(2, 2) == 4
        """)
    path = tiny_challenges / "easy" / "adder.yaml"
    path.write_text(path.read_text() + "acceptance:\n  must_fail:\n    - test_canaries.py::test_wrong_sum\n"
                    "    - test_canaries.py::test_right_sum\n")
    r, out = validate(capsys, tiny_challenges, tmp_path)
    assert r.exit_code == 1
    assert "must_fail test test_canaries.py::test_right_sum did not fail on the reference" in out
    assert "test_wrong_sum did not fail" not in out and "hidden test fails on the reference" not in out


def test_an_imported_folder_alone_is_checked_when_no_id_is_named(capsys, tmp_path, tiny_challenges):
    validate(capsys, tiny_challenges, tmp_path)  # writes the fully covered reference
    r = invoke(capsys, "validate", "--challenges", str(tiny_challenges), "--results",
               str(tmp_path / "only"), "--repeats", "0", "--jobs", jobs())
    out = " ".join(r.out.split())
    assert r.exit_code == 0, r.out + r.err
    ids = sorted(p.relative_to(tiny_challenges).with_suffix("").as_posix()
                 for p in tiny_challenges.glob("*/*.yaml"))
    assert f"{len(ids)} valid, 0 invalid" in out
    assert all(cid in out for cid in ids) and "easy/password-gen" not in out
