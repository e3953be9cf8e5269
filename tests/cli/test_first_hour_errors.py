"""Small things of the first hour (issue 23, item 8): bad input exits 2, an unwritable results folder is
one error before anything else, and --resume takes the run's own agents config back."""

from __future__ import annotations

from tests.cli.helpers import invoke
from tests.test_engine import fake_agent, run_args


def test_runs_on_a_missing_results_folder_is_bad_input(capsys, tmp_path, monkeypatch):
    monkeypatch.delenv("AGENTBENCH_DB", raising=False)
    r = invoke(capsys, "runs", "--results", str(tmp_path / "missing"))
    assert r.exit_code == 2 and r.err.startswith(f"error: no results folder {tmp_path / 'missing'}")


def test_an_unwritable_results_folder_is_one_error_before_any_header(capsys, tmp_path):
    (tmp_path / "a-file").write_text("not a folder")
    r = invoke(capsys, "run", "--agent", "noop", "--challenge", "easy/password-gen", "--results",
               str(tmp_path / "a-file" / "results"))
    assert r.exit_code == 1
    lines = r.err.strip().splitlines()
    assert len(lines) == 2, r.err
    assert lines[0].startswith(f"error: cannot write the results folder {tmp_path / 'a-file' / 'results'}")
    assert lines[1].startswith("hint: pass --results DIR")


def test_resume_takes_the_runs_own_agents_config_and_says_how_many_trials_were_done(
        capsys, tmp_path, tiny_challenges):
    config = fake_agent(tmp_path, "quick", "open('README.md', 'w').write('hi')\n")
    results = tmp_path / "r"
    r = invoke(capsys, *run_args(config, "quick", tiny_challenges, results, "--trials", "2",
                                 "--run-id", "rs"))
    assert r.exit_code == 0, r.err
    (results / "rs" / "trials" / "quick" / "easy" / "adder" / "trial-2" / "record.json").unlink()
    again = invoke(capsys, "run", "--resume", "rs", "--results", str(results), "--agents-config",
                   str(config))
    assert again.exit_code == 0, again.err
    assert "resuming: 1 of 2 trials already done" in again.err
    other = tmp_path / "other.toml"
    other.write_text('[agents.quick]\nadapter = "command"\ncommand = ["true", "{prompt_file}"]\n')
    refused = invoke(capsys, "run", "--resume", "rs", "--results", str(results), "--agents-config",
                     str(other))
    assert refused.exit_code == 2 and "--agents-config cannot change a run" in refused.err
