"""What a trial must not see, at the process layer: `Confinement.hidden` is covered for the trial
user in both sandbox modes (bwrap; without a sandbox, a private mount namespace), the paths a
command needs inside a hidden folder stay, the run config names everything to hide, a trial never
falls back to root, and the results folder and database are their owner's only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from agentbench import process, users
from agentbench.plan import RunConfig
from agentbench.sandbox import confine_argv, hide_covers
from agentbench.store import RunDir
from agentbench.store.database import locate
from agentbench.store.opening import connect
from tests.test_sandbox import ENV, MODES, interpreter, make_trial, needs_trial_users


def _secrets(root: Path) -> Path:
    """A world-readable folder like a checkout's challenges: an answer, and a tool a command needs."""
    (root / "easy" / "calc" / "reference").mkdir(parents=True)
    (root / "easy" / "calc" / "reference" / "ops.py").write_text("ANSWER\n")
    (root / "tools").mkdir()
    (root / "tools" / "helper.txt").write_text("needed\n")
    (root / "results.db").write_text("SCORES\n")
    for path in (root, *root.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return root


def test_covers_keep_only_the_way_to_what_is_needed(tmp_path):
    root = _secrets(tmp_path / "c")
    assert hide_covers([root], []) == (root,)
    assert hide_covers([root], [root / "tools"]) == (root / "easy", root / "results.db")
    assert hide_covers([root / "easy", root], [tmp_path / "elsewhere"]) == (root,)  # outermost only
    assert hide_covers([root], [root]) == ()  # needed as a whole: nothing covered
    assert hide_covers([tmp_path / "missing"], []) == ()


def test_without_a_namespace_prefix_nothing_changes(tmp_path):
    confinement = make_confinement(None, hidden=(tmp_path,))
    assert confine_argv(["true"], confinement, tmp_path, namespaces=True)[-1] == "true"


def make_confinement(user, **kwargs):
    from agentbench.sandbox import Confinement

    return Confinement(user=user, **kwargs)


@needs_trial_users
@pytest.mark.parametrize("sandbox", MODES)
def test_trial_user_sees_hidden_folders_empty_but_what_it_needs(tmp_path, sandbox):
    secrets = _secrets(tmp_path / "challenges")
    script = ("import os, sys\n"
              f"root = {str(secrets)!r}\n"
              "print(sorted(os.listdir(os.path.join(root, 'easy'))) if os.path.isdir(os.path.join(root, 'easy')) else '-')\n"
              "print(open(os.path.join(root, 'tools', 'helper.txt')).read().strip())\n"
              "for p in ('easy/calc/reference/ops.py', 'results.db'):\n"
              "    try:\n        print(repr(open(os.path.join(root, p)).read()))\n"
              "    except OSError as e:\n        print(type(e).__name__)\n")
    with make_trial() as trial:
        (trial.workspace / "s.py").write_text(script)
        os.chown(trial.workspace / "s.py", trial.user.uid, trial.user.gid)
        confinement = trial.confinement(sandbox, hidden=(secrets,), readable=(secrets / "tools",))
        result = process.run([interpreter(trial.user), "s.py"], cwd=trial.workspace, env=ENV,
                             timeout_s=60, stdout_path=tmp_path / "out", stderr_path=tmp_path / "err",
                             confinement=confinement)
    out = (tmp_path / "out").read_text().splitlines()
    assert result.returncode == 0, (tmp_path / "err").read_text()
    assert out[0] in ("[]", "-")  # the challenge's folder is empty (or gone)
    assert out[1] == "needed"
    assert "ANSWER" not in "\n".join(out) and "SCORES" not in "\n".join(out)


def test_the_run_config_hides_challenges_their_git_history_results_database_and_cache(tmp_path, monkeypatch):
    from agentbench.loader import builtin_challenges_dir, discover_challenges
    from tests.conftest import make_tiny_challenge

    monkeypatch.setenv("AGENTBENCH_CACHE", str(tmp_path / "cache"))
    (tmp_path / "repo" / ".git").mkdir(parents=True)
    challenges = tmp_path / "repo" / "challenges"
    make_tiny_challenge(challenges)
    found = discover_challenges([challenges], include_builtin=False)
    config = RunConfig(agents=("noop",), challenges=tuple(found), results_dir=tmp_path / "results",
                       run_id="r", challenge_dirs=(str(challenges),))
    hidden = config.hidden_paths(str(tmp_path / "elsewhere.db"))
    real = {Path(os.path.realpath(p)) for p in (challenges, tmp_path / "repo" / ".git", tmp_path / "results",
                                                tmp_path / "cache", tmp_path / "elsewhere.db",
                                                builtin_challenges_dir())}
    assert real <= set(hidden)


def test_results_folder_run_folder_and_database_are_their_owners_only(tmp_path):
    results = tmp_path / "results"
    RunDir(results / "run-1").make()
    connect(locate(None, results), create=True).close()
    for path in (results, results / "run-1", results / "agentbench.db"):
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path


def test_a_trial_that_cannot_get_its_user_never_runs_as_root(tmp_path, monkeypatch):
    monkeypatch.setattr(users, "trial_users_problem", lambda: "lock folder gone")
    with pytest.raises(OSError, match="lock folder gone"), users.trial_user(required=True):
        pass
    with users.trial_user() as user:
        assert user is None
