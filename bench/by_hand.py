"""The work of one trial done by hand, for bench/engine.py to time against the harness.

Run: python bench/by_hand.py easy/password-gen

What a careful person would do to score a solution: a fresh venv seeing the same cached template
(so neither side downloads anything), copy the reference solution, run the challenge's setup
command, its test command under coverage (`coverage run -m pytest`, then `coverage json`), and the
hidden tests with pytest. No isolation, no probe, no records: the bare commands.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from agentbench.loader import discover_challenges, select_challenges
from agentbench.toolchains.python.env import command_env, create_env, template_site_packages
from agentbench.workspace import cache_dir, make_trial_dirs


def main(challenge_id: str) -> None:
    (challenge,) = select_challenges(discover_challenges(), ids=(challenge_id,))
    assert challenge.reference_dir is not None and challenge.acceptance is not None
    with tempfile.TemporaryDirectory(prefix="agentbench-by-hand-") as tmp:
        template = template_site_packages(cache_dir(), Path(tmp) / "logs")
        dirs = make_trial_dirs(Path(tmp))
        shutil.copytree(challenge.reference_dir, dirs.workspace, dirs_exist_ok=True)
        env = create_env(Path(tmp) / "venv", template)
        variables = command_env(env, dirs)
        for command in challenge.setup_commands:
            subprocess.run(command, shell=True, cwd=dirs.workspace, env=variables, check=True,  # noqa: S602
                           capture_output=True)
        for command in challenge.test_commands:
            covered = command.replace("python -m pytest", "python -m coverage run -m pytest", 1)
            subprocess.run(covered, shell=True, cwd=dirs.workspace, env=variables, check=True,  # noqa: S602
                           capture_output=True)
        subprocess.run([str(env.python), "-m", "coverage", "json", "-q"], cwd=dirs.workspace,
                       env=variables, check=True, capture_output=True)
        hidden = Path(tmp) / "hidden"
        shutil.copytree(challenge.acceptance.files_dir, hidden)
        subprocess.run([str(env.python), "-m", "pytest", "-q", str(hidden)], cwd=dirs.workspace,
                       env=variables, check=True, capture_output=True)


if __name__ == "__main__":
    main(sys.argv[1])
