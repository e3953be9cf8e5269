"""What a test needs from the machine, and what to do when it is missing.

Outside CI a missing tool skips the test with a reason that names the one command adding it; under
`CI=true` (where `.ci/run` installs everything) the same test fails, so CI cannot pass by skipping.
Use `require("bwrap", "node22")` inside a test or fixture, or mark a test `@pytest.mark.needs("go")`
(tests/conftest.py applies the marker). `jobs()` gives the `--jobs` a test asking for parallel trials
may use here: 2 where concurrent trials are kept apart, else 1 (so such tests still run, serially).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

import pytest

CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
TOOLS = Path(os.environ.get("AGENTBENCH_TOOLS") or "/opt/agentbench-tools") / "bin"


def missing(reason: str) -> NoReturn:
    """Skip with `reason` (which names the fix); fail under CI."""
    if CI:
        pytest.fail(f"{reason} (CI=true: the CI machine must have it)", pytrace=False)
    pytest.skip(reason)


def _tool(name: str) -> str | None:
    path = TOOLS / name
    if path.is_file() and os.access(path, os.X_OK):
        return str(path)
    return shutil.which(name)


@functools.cache
def _node_major() -> int | None:
    node = _tool("node")
    if node is None:
        return None
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    major = out.strip().lstrip("v").split(".")[0]
    return int(major) if major.isdigit() else None


def _bwrap() -> str | None:
    from agentbench.sandbox import bwrap_path

    return None if bwrap_path() else "needs bubblewrap: apt-get install bubblewrap"


def _node22() -> str | None:
    major = _node_major()
    if major is not None and major >= 22:
        return None
    found = "no Node" if major is None else f"Node {major}"
    return f"needs Node 22 ({found} here): bash ci/install/node22.sh"


def _go() -> str | None:
    return None if _tool("go") else "needs Go: bash ci/install/go.sh"


def _postgres() -> str | None:
    if os.environ.get("AGENTBENCH_TEST_POSTGRES"):
        return None
    return ("needs PostgreSQL: bash ci/install/postgresql.sh, then set AGENTBENCH_TEST_POSTGRES to "
            "an admin URL")


def _chromium() -> str | None:
    if os.environ.get("AGENTBENCH_CHROMIUM") or shutil.which("chromium") or shutil.which(
            "chromium-browser"):
        return None
    return "needs Chromium: bash ci/install/chromium.sh"


def _trial_users() -> str | None:
    from agentbench import users

    problem = users.trial_users_problem()
    return None if problem is None else f"needs per-trial users ({problem}): run pytest as root"


def _separated() -> str | None:
    """Concurrent trials kept apart in the none sandbox (trial users) or by bubblewrap."""
    if _trial_users() is None or _bwrap() is None:
        return None
    return ("needs trials kept apart (per-trial users or bubblewrap): run pytest as root, or "
            "apt-get install bubblewrap")


def _cgroups() -> str | None:
    from agentbench import process

    if process.cgroups_available():
        return None
    return "needs cgroups (v2 or v1, as root): run pytest as root on a machine with cgroups"


def _postgres_driver() -> str | None:
    if importlib.util.find_spec("psycopg") is not None:
        return None
    return "needs psycopg: pip install -e '.[postgres]'"


CHECKS: dict[str, Callable[[], str | None]] = {
    "bwrap": _bwrap, "node22": _node22, "go": _go, "postgres": _postgres, "chromium": _chromium,
    "trial_users": _trial_users, "separated": _separated, "psycopg": _postgres_driver,
    "cgroups": _cgroups,
}


def problem(need: str) -> str | None:
    """Why `need` is missing here, naming the command that adds it; None when present."""
    if need.startswith("cli:"):
        name = need.removeprefix("cli:")
        return None if _tool(name) else f"needs the {name} CLI: bash ci/install/{name}.sh"
    return CHECKS[need]()


def has(need: str) -> bool:
    return problem(need) is None


def require(*needs: str) -> None:
    """Skip (fail under CI) unless every one of `needs` is present."""
    for need in needs:
        reason = problem(need)
        if reason is not None:
            missing(reason)


def jobs(sandbox: str = "none", wanted: int = 2) -> str:
    """The `--jobs` for a test of parallel trials: `wanted` where this machine keeps concurrent
    trials apart in `sandbox`, else 1 (AgentBench refuses more there). The tests' fake agents run
    this interpreter: as root, a trial user that cannot reach it means trials run as root."""
    from agentbench import users
    from agentbench.sandbox import TrialUser

    if not users.isolation(sandbox).separated:
        return "1"
    if sandbox == "none" and users.trial_users_problem() is None:
        probe = TrialUser(users.TRIAL_UID_BASE, users.TRIAL_UID_BASE)
        if users.reachable(probe, Path(sys.executable), execute=True) is not None:
            return "1"
    return str(wanted)
