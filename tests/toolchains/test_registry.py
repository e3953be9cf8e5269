"""Toolchains by language: built-ins, third parties through the `agentbench.toolchains` entry points,
and clear errors for a language nobody measures."""

from __future__ import annotations

import textwrap

import pytest

from agentbench.errors import ChallengeError
from agentbench.loader import load_challenge
from agentbench.records import loads_run
from agentbench.toolchains import available_languages, get_toolchain
from agentbench.toolchains.base import Toolchain
from tests.adapters.test_plugins import install_as_distribution
from tests.cli.helpers import invoke
from tests.conftest import make_tiny_challenge

PLUGIN = '''
from agentbench.toolchains.python import PythonToolchain


class PyLike(PythonToolchain):
    """A third-party toolchain: Python measured under another language name."""

    name = "pylike"
    aliases = ()
'''


@pytest.fixture
def toolchain_site(tmp_path, monkeypatch):
    site = tmp_path / "site"
    package = tmp_path / "pkg" / "pylike_toolchain"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(PLUGIN)
    install_as_distribution(site, "pylike_toolchain",
                            "[agentbench.toolchains]\npylike = pylike_toolchain:PyLike\n", package)
    install_as_distribution(site, "broken_toolchain",
                            "[agentbench.toolchains]\nbroken = no_such_module:Toolchain\n", None)
    monkeypatch.syspath_prepend(str(site))
    return site


def test_builtin_python_and_its_aliases():
    for name in ("python", "Python", "py", "python3"):
        toolchain = get_toolchain(name)
        assert isinstance(toolchain, Toolchain) and toolchain.name == "python"


def test_a_language_nobody_measures_is_a_load_error_naming_the_installed_ones(tmp_path):
    root = make_tiny_challenge(tmp_path / "c")
    path = root / "easy" / "adder.yaml"
    path.write_text(path.read_text().replace("language: python", "language: cobol"))
    with pytest.raises(ChallengeError) as info:
        load_challenge(path)
    assert "adder.yaml:2" in str(info.value) and "cobol" in str(info.value)
    assert "python" in (info.value.hint or "")


def test_a_third_party_toolchain_measures_its_language_end_to_end(capsys, tmp_path, toolchain_site):
    assert {"python", "pylike", "broken"} <= set(available_languages())
    root = make_tiny_challenge(tmp_path / "c")
    path = root / "easy" / "adder.yaml"
    path.write_text(path.read_text().replace("language: python", "language: pylike"))
    assert load_challenge(path).language == "pylike"
    r = invoke(capsys, "run", "--agent", "reference", "--challenge", "easy/adder", "--challenges",
               str(root), "--results", str(tmp_path / "r"))
    assert r.exit_code == 0, r.err
    (trial,) = loads_run((tmp_path / "r" / "reference.json").read_text()).trials
    assert trial.measurements.tests.source == "probe" and trial.acceptance_rate == 1.0


def test_a_broken_toolchain_plugin_is_a_clear_error(tmp_path, toolchain_site):
    root = make_tiny_challenge(tmp_path / "c")
    path = root / "easy" / "adder.yaml"
    path.write_text(textwrap.dedent(path.read_text()).replace("language: python", "language: broken"))
    with pytest.raises(ChallengeError, match="failed to load"):
        load_challenge(path)
