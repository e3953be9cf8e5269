"""TypeScript-specific lint of a challenge: test commands the harness cannot count, and hidden tests
that need more than the harness provides (a package, the network) or that the prompt gives away."""

from __future__ import annotations

import re
from pathlib import Path

from agentbench.models import Challenge
from agentbench.toolchains.base import command_argv
from agentbench.toolchains.node.sources import SUFFIXES, is_test_like

_IMPORT = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\1""")
_URL = re.compile(r"https?://([^/\s'\"`:?#]*)[^\s'\"`]*")
_LOCAL = re.compile(r"^(localhost|127\.[\d.]+|\[::1\]|example\.(com|net|org)|.*\.(example|test|invalid|localhost))$")


def lint_node_challenge(challenge: Challenge) -> tuple[str, ...]:
    """Problems with the challenge's test commands and hidden tests."""
    problems = [problem for command in challenge.test_commands for problem in _command_problems(command)]
    if challenge.acceptance is not None:
        for path in sorted(challenge.acceptance.files_dir.rglob("*")):
            if path.is_file():
                problems.extend(_lint_test_file(path, challenge.acceptance.files_dir, challenge.prompt))
    return tuple(problems)


def _command_problems(command: str) -> list[str]:
    argv = command_argv(command)
    if not argv or argv[0] != "node" or "--test" not in argv:
        return [f"test command {command!r} does not run `node --test` directly: the harness counts "
                "TypeScript tests through its reporter in node's own test runner (npm scripts and "
                "shells do not pass its channel)"]
    if any(a.startswith(("--test-reporter", "--experimental-test-isolation", "--test-isolation"))
           for a in argv):
        return [f"test command {command!r} sets its own reporter or isolation: leave both to the harness"]
    return []


def _lint_test_file(path: Path, root: Path, prompt: str) -> list[str]:
    rel = path.relative_to(root)
    if path.suffix not in SUFFIXES:
        return [] if path.name == "package.json" else [f"{rel}: hidden test folders hold test files only"]
    text = path.read_text(encoding="utf-8")
    problems = []
    if not is_test_like(rel):
        problems.append(f"{rel}: not named like a test file (*.test.ts), so it would never run")
    problems += [f"{rel}: imports '{spec}', which is neither a `node:` module nor a relative path "
                 "(hidden tests must run offline with what the harness provides)"
                 for spec in sorted({m.group(2) for m in _IMPORT.finditer(text)})
                 if not spec.startswith(("node:", "./", "../"))]
    problems += [f"{rel}: may reach the network address {m.group(0)}" for m in _URL.finditer(text)
                 if "." in m.group(1) and not _LOCAL.match(m.group(1))]
    lines = {line.strip() for line in text.splitlines()}
    problems += [f"{rel}: the prompt contains this test's code: {line!r}" for line in sorted(lines)
                 if len(line) >= 40 and line.startswith(("assert", "test(", "it(")) and line in prompt]
    return problems
