from pathlib import PurePath

from agentbench.toolchains.base import command_argv
from agentbench.toolchains.python.sources import classify_sources, is_test_like
from tests.conftest import write


def test_commands_split_without_a_shell_unless_they_need_one():
    assert command_argv('python -m pip install -e ".[dev]"') == [
        "python", "-m", "pip", "install", "-e", ".[dev]"]
    assert command_argv("make && make test")[:2] == ["/bin/sh", "-c"]
    assert command_argv("echo $HOME")[:2] == ["/bin/sh", "-c"]


def test_test_files_are_told_apart_by_name_or_top_level_folder():
    assert is_test_like(PurePath("tests/test_x.py"))
    assert is_test_like(PurePath("tests/helpers.py"))
    assert is_test_like(PurePath("src/pkg/test_util.py"))
    assert is_test_like(PurePath("conftest.py"))
    assert not is_test_like(PurePath("src/pkg/tests/impl.py"))
    assert not is_test_like(PurePath("src/pkg/core.py"))


def test_code_imported_by_product_code_is_product_code_wherever_it_lives(tmp_path):
    ws = tmp_path
    write(ws / "src" / "pkg" / "__init__.py", "from pkg.tests.impl import run\nfrom . import test_util\n")
    write(ws / "src" / "pkg" / "tests" / "impl.py", "def run():\n    return 1\n")
    write(ws / "src" / "pkg" / "test_util.py", "import importlib\nimportlib.import_module('tests.helpers')\n")
    write(ws / "tests" / "helpers.py", "def h():\n    return 2\n")
    write(ws / "tests" / "test_pkg.py", "import pkg\n\ndef test_a():\n    assert pkg.run() == 1\n")
    write(ws / "tests" / "conftest.py", "")
    sources = classify_sources(ws)
    rel = lambda paths: sorted(str(p.relative_to(ws)) for p in paths)  # noqa: E731
    assert rel(sources.product) == ["src/pkg/__init__.py", "src/pkg/test_util.py",
                                    "src/pkg/tests/impl.py", "tests/helpers.py"]
    assert rel(sources.tests) == ["tests/conftest.py", "tests/test_pkg.py"]
