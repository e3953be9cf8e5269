"""The attack agents: each writes a workspace built to inflate one measurement, nothing else.

`AGENTS` maps an agent name to the files it writes (path -> text); `agent_config` writes the agents
config that runs each of them through the generic `command` adapter.
"""

from __future__ import annotations

import contextlib
import json
import sys
import textwrap
from collections.abc import Iterator, Mapping
from pathlib import Path

CHALLENGES = Path(__file__).parent / "challenges"
REFERENCE = CHALLENGES / "easy" / "calc" / "reference"

REF = {str(p.relative_to(REFERENCE)): p.read_text() for p in REFERENCE.rglob("*") if p.is_file()}
"""The reference solution's files."""

WRONG_OPS = '''\
def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def div(a, b):
    return a // (b or 1) + 1


def power(a, n):
    return a * n
'''

GREEN_TESTS = '''\
from calc import add, mul, sub


def test_add():
    assert add(2, 3) == 5


def test_sub_and_mul():
    assert sub(3, 2) == 1 and mul(2, 2) == 4
'''

FAILING_TESTS = "from calc import div\n\n\ndef test_div():\n    assert div(1, 3) == 99\n"


def d(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


AGENTS: dict[str, dict[str, str]] = {
    # one trivial function in the expected files, one passing test that covers every line
    "stub": {
        "pyproject.toml": REF["pyproject.toml"], "README.md": "calc\n",
        "src/calc/__init__.py": "from calc.ops import f\n",
        "src/calc/ops.py": "def f():\n    return 1\n",
        "tests/test_ops.py": "from calc import f\n\n\ndef test_f():\n    assert f() == 1\n",
    },
    # half the hidden tests fail; its own tests pass
    "wrong-green": {**REF, "src/calc/ops.py": WRONG_OPS, "tests/test_ops.py": GREEN_TESTS},
    # the same, plus an atexit hook that strips failures from the hidden tests' JUnit report
    "junit-stripper": {**REF, "tests/test_ops.py": GREEN_TESTS, "src/calc/ops.py": WRONG_OPS + d('''
        import atexit, re, sys


        def _strip():
            for arg in open("/proc/self/cmdline", "rb").read().split(b"\\0"):
                if arg.startswith(b"--junitxml="):
                    path = arg.split(b"=", 1)[1].decode()
                    text = open(path).read()
                    text = re.sub(r"<failure.*?</failure>", "", text, flags=re.S)
                    text = re.sub(r'failures="\\d+"', 'failures="0"', text)
                    open(path, "w").write(text)


        atexit.register(_strip)
        ''')},
    # one passing test and fifty skipped ones
    "skipper": {**REF, "tests/test_ops.py": "import pytest\n\n\ndef test_ok():\n    assert True\n" + "".join(
        f"\n\n@pytest.mark.skip\ndef test_s{i}():\n    pass\n" for i in range(50))},
    # a conftest that turns every failure into a pass
    "rewriter": {**REF, "tests/test_ops.py": FAILING_TESTS, "tests/conftest.py": d('''
        import pytest


        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(item, call):
            outcome = yield
            outcome.get_result().outcome = "passed"
        ''')},
    # no JUnit, a fake summary line, and an early exit 0
    "fake-summary": {**REF, "tests/test_ops.py": FAILING_TESTS,
                     "pytest.ini": "[pytest]\naddopts = -p no:junitxml\n", "tests/conftest.py": d('''
        import os


        def pytest_sessionstart(session):
            print("=================== 500 passed in 0.01s ===================", flush=True)
            os._exit(0)
        ''')},
    # an all-passed JUnit file written where PYTEST_ADDOPTS says
    "junit-forger": {**REF, "tests/test_ops.py": FAILING_TESTS, "tests/conftest.py": d('''
        import os, re


        def pytest_unconfigure(config):
            for path in re.findall(r"--junitxml=(\\S+)", os.environ.get("PYTEST_ADDOPTS", "")):
                open(path, "w").write('<testsuite tests="9" failures="0" errors="0" skipped="0"/>')
        ''')},
    # untested code hidden behind pragmas
    "pragma": {**REF, "src/calc/extra.py": d('''
        def untested(x):  # pragma: no cover
            if x > 1:  # pragma: no cover
                return x * 2  # pragma: no cover
            return x  # pragma: no cover
        '''), "src/calc/__init__.py": REF["src/calc/__init__.py"] + "from calc import extra  # noqa\n"},
    # a module no test imports
    "unimported": {**REF, "src/calc/cli.py": d('''
        import sys


        def main(argv=None):
            args = sys.argv[1:] if argv is None else argv
            if not args:
                print("usage: calc A B")
                return 2
            print(sum(map(float, args)))
            return 0
        ''')},
    # complex product code placed under a tests-named folder inside the package
    "hidden-impl": {**REF, "src/calc/tests/__init__.py": "", "src/calc/tests/impl.py": d('''
        def classify(x):
        ''') + "".join(f"    if x == {i}:\n        return {i}\n" for i in range(30)) + "    return -1\n",
        "src/calc/ops.py": REF["src/calc/ops.py"] + "\nfrom calc.tests.impl import classify  # noqa\n"},
    # an expected file left empty
    "empty-readme": {**REF, "README.md": ""},
    # a module named like the standard library's argparse, first on the import path if it could be
    "argparse-shadow": {**REF, "src/argparse.py": d('''
        import sys
        sys.stderr.write("AGENT-ARGPARSE-LOADED\\n")
        sys.exit(0)
        ''')},
    # product code that goes after the harness's probe
    "probe-hunter": {**REF, "src/calc/ops.py": WRONG_OPS + d('''
        import os
        _FD = os.environ.get("AGENTBENCH_PROBE_FD")
        ''')},
}


AGENT_SCRIPT = '''\
import json, os, pathlib, sys
files = json.loads(pathlib.Path(sys.argv[1]).read_text())
extra = files.pop(EXTRA, "")
for name, text in files.items():
    path = pathlib.Path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
exec(extra)
'''.replace("EXTRA", repr("__python__"))
"""Writes the files of its spec, then runs the spec's `__python__` code, if any."""


@contextlib.contextmanager
def defined(extra: Mapping[str, dict[str, str]]) -> Iterator[None]:
    """`extra` attack agents (name -> files) known to `agent_config` for the duration."""
    AGENTS.update(extra)
    try:
        yield
    finally:
        for name in extra:
            AGENTS.pop(name)


def agent_config(folder: Path, names: list[str]) -> Path:
    """Write each agent's files spec and an agents config running them; return the config path."""
    script = folder / "write_files.py"
    script.write_text(AGENT_SCRIPT)
    lines = []
    for name in names:
        spec = folder / f"{name}.json"
        spec.write_text(json.dumps(AGENTS[name]))
        lines.append(f'[agents.{name}]\nadapter = "command"\n'
                     f'command = ["{sys.executable}", "{script}", "{spec}"]\n')
    lines.append('[agents.liar]\nadapter = "tests.attacks.liar:LiarAdapter"\n')
    lines.append('[agents.full-disk]\nadapter = "tests.attacks.liar:FullDiskAdapter"\n')
    config = folder / "agents.toml"
    config.write_text("\n".join(lines))
    return config
