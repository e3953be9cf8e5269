"""The sandbox seam: one object per mode, chosen once by name, wrapping each command to show it the
view its caller declares; nothing else in AgentBench compares sandbox names."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentbench.errors import UsageError
from agentbench.plan import RunConfig
from agentbench.sandbox import (
    SANDBOXES,
    Bwrap,
    Command,
    Confinement,
    NoSandbox,
    View,
    best_sandbox,
    bwrap_path,
    confine_argv,
    describe,
    sandbox_named,
)
from tests.conftest import make_tiny_challenge

SRC = Path(__file__).resolve().parents[1] / "src" / "agentbench"


def test_each_name_gives_its_sandbox_and_an_unknown_name_is_refused():
    assert SANDBOXES == ("none", "bwrap")
    assert isinstance(sandbox_named("none"), NoSandbox) and isinstance(sandbox_named("bwrap"), Bwrap)
    assert [sandbox_named(n).name for n in SANDBOXES] == list(SANDBOXES)
    with pytest.raises(ValueError, match="sandbox must be one of"):
        sandbox_named("docker")
    assert best_sandbox().name == ("bwrap" if bwrap_path() else "none")


def test_the_run_config_chooses_the_sandbox_once_from_its_name(tmp_path):
    from agentbench.loader import discover_challenges

    make_tiny_challenge(tmp_path / "c")
    challenges = discover_challenges([tmp_path / "c"], include_builtin=False)
    config = RunConfig(agents=("noop",), challenges=challenges, results_dir=tmp_path, run_id="r",
                       sandbox="none")  # type: ignore[arg-type]
    assert isinstance(config.sandbox, NoSandbox)
    with pytest.raises(UsageError, match="unknown sandbox 'docker'"):
        RunConfig(agents=("noop",), challenges=challenges, results_dir=tmp_path, run_id="r",
                  sandbox="docker")  # type: ignore[arg-type]


def test_a_confinement_carries_its_sandbox_and_its_view(tmp_path):
    confinement = Confinement(sandbox="bwrap", writable=(tmp_path,), hidden=(tmp_path / "h",),  # type: ignore[arg-type]
                              network=False)
    assert isinstance(confinement.sandbox, Bwrap)
    assert confinement.view == View(writable=(tmp_path,), hidden=(tmp_path / "h",), network=False)
    assert describe(confinement, cgroup=False).startswith("bwrap")
    assert describe(Confinement(), cgroup=False).startswith("process-group")


def test_each_sandbox_wraps_the_limited_command(tmp_path):
    inner = ("prlimit", "--", "echo", "hi")
    command = Command(argv=("echo", "hi"), inner=inner, cwd=tmp_path)
    assert NoSandbox().wrap(command, View())[-4:] == list(inner)
    wrapped = Bwrap().wrap(command, View(writable=(tmp_path,), network=False))
    assert wrapped[-4:] == list(inner) and wrapped[-5] == "--"
    assert "--unshare-net" in wrapped and ["--bind", str(tmp_path), str(tmp_path)] == \
        wrapped[wrapped.index("--bind"):wrapped.index("--bind") + 3]
    assert confine_argv(["echo", "hi"], Confinement(sandbox=Bwrap()), tmp_path)[0].endswith("bwrap")


def test_no_module_compares_sandbox_names():
    found = [f"{p.relative_to(SRC)}:{n}" for p in SRC.rglob("*.py")
             for n, line in enumerate(p.read_text().splitlines(), 1)
             if re.search(r"""[=!]= *["'](bwrap|none)["']|["'](bwrap|none)["'] if """, line)]
    assert found == []
