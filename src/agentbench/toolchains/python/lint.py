"""Python-specific lint of a challenge: hidden tests that need more than the harness provides, and test
commands the harness cannot count."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

from agentbench.models import Challenge
from agentbench.toolchains.base import command_argv

ALLOWED_TEST_IMPORTS = frozenset({"pytest", "_pytest"})
NETWORK_MODULES = frozenset({"socket", "urllib", "http", "requests", "httpx", "aiohttp", "ftplib",
                             "smtplib"})
"""A test file importing one of these and naming a remote URL may need the network."""


def lint_python_challenge(challenge: Challenge) -> tuple[str, ...]:
    """Problems with the challenge's test commands and hidden tests."""
    problems = [f"test command {command!r} does not run pytest: the harness counts Python tests "
                "through its pytest plugin (pytest also runs unittest-style tests: use "
                "`python -m pytest ...`)" for command in challenge.test_commands
                if not _runs_pytest(command)]
    if challenge.acceptance is None:
        return tuple(problems)
    packages = _solution_packages(challenge.reference_dir) | {
        p.stem for p in challenge.acceptance.files_dir.rglob("*.py")}  # the tests' own helpers
    for path in sorted(challenge.acceptance.files_dir.rglob("*")):
        problems.extend(_lint_test_file(path, challenge.prompt, packages))
    return tuple(problems)


def _runs_pytest(command: str) -> bool:
    words = command_argv(command)
    return any(w == "pytest" or w.endswith("/pytest") for w in words) or " pytest" in command


def _solution_packages(reference: Path | None) -> frozenset[str]:
    if reference is None:
        return frozenset()
    roots = [reference / "src", reference]
    return frozenset(p.stem for root in roots if root.is_dir() for p in root.iterdir()
                     if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py")


def _lint_test_file(path: Path, prompt: str, packages: frozenset[str]) -> list[str]:
    name = path.name
    if name in ("requirements.txt", "requirements-test.txt"):
        return [f"{name}: unpinned requirement '{line}' (pin it with ==)"
                for line in path.read_text().splitlines()
                if line.strip() and not line.startswith("#") and "==" not in line]
    if path.suffix != ".py":
        return []
    text = path.read_text(encoding="utf-8")
    problems = [f"{name}: imports '{mod}', which is neither the standard library, pytest nor "
                "the solution (hidden tests must run offline with what the harness provides)"
                for mod in sorted(_imports(text)) if mod not in sys.stdlib_module_names
                and mod not in ALLOWED_TEST_IMPORTS and mod not in packages]
    if _imports(text) & NETWORK_MODULES:
        problems += [f"{name}: may reach the network address {url}" for url in _remote_urls(text)]
    problems += [f"{name}: the prompt contains this test's code: {line!r}"
                 for line in _leaked_lines(text, prompt)]
    return problems


def _imports(text: str) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module.split(".")[0])
    return names


def _remote_urls(text: str) -> list[str]:
    urls = re.findall(r"https?://[^\s'\"]+", text)
    return [u for u in urls if not re.match(r"https?://(localhost|127\.|\[::1\]|example\.)", u)]


def _leaked_lines(text: str, prompt: str) -> list[str]:
    lines = {line.strip() for line in text.splitlines()}
    return sorted(line for line in lines
                  if len(line) >= 40 and line.startswith(("assert", "def test_")) and line in prompt)
