"""Go-specific lint of a challenge: test commands the harness cannot count, and hidden tests that
need more than the harness provides (a module outside the standard library and the solution, the
network) or that the prompt gives away."""

from __future__ import annotations

import re
from pathlib import Path

from agentbench.models import Challenge
from agentbench.toolchains.base import command_argv
from agentbench.toolchains.go.sources import module_path

_IMPORT_BLOCK = re.compile(r"^import\s*\(([^)]*)\)", re.MULTILINE)
_IMPORT_LINE = re.compile(r'^import\s+(?:\w+\s+)?"([^"]+)"', re.MULTILINE)
_QUOTED = re.compile(r'"([^"]+)"')
_URL = re.compile(r"https?://([^/\s\"`:?#]*)[^\s\"`]*")
_LOCAL = re.compile(r"^(localhost|127\.[\d.]+|\[::1\]|example\.(com|net|org)|.*\.(example|test|invalid|localhost))$")


def lint_go_challenge(challenge: Challenge) -> tuple[str, ...]:
    """Problems with the challenge's test commands and hidden tests."""
    problems = [f"test command {command!r} does not run `go test` directly: the harness counts Go "
                "tests from the go command's -json events" for command in challenge.test_commands
                if command_argv(command)[:2] != ["go", "test"]]
    problems += [f"test command {command!r} sets -json or a cover flag: leave them to the harness"
                 for command in challenge.test_commands
                 if any(a.startswith(("-json", "-cover", "--json")) for a in command_argv(command))]
    if challenge.acceptance is None:
        return tuple(problems)
    module = module_path(challenge.reference_dir) if challenge.reference_dir else None
    for path in sorted(challenge.acceptance.files_dir.rglob("*")):
        if path.is_file():
            problems.extend(_lint_test_file(path, challenge.acceptance.files_dir, module, challenge.prompt))
    return tuple(problems)


def imports(text: str) -> set[str]:
    """The import paths of a Go file."""
    found = set(_IMPORT_LINE.findall(text))
    for block in _IMPORT_BLOCK.findall(text):
        found.update(_QUOTED.findall(block))
    return found


def _lint_test_file(path: Path, root: Path, module: str | None, prompt: str) -> list[str]:
    rel = path.relative_to(root)
    if not path.name.endswith("_test.go"):
        return [f"{rel}: hidden test folders hold `_test.go` files only"]
    text = path.read_text(encoding="utf-8")
    problems = [f"{rel}: imports '{name}', which is neither the standard library nor the solution's "
                "module (hidden tests run offline with GOPROXY=off)" for name in sorted(imports(text))
                if "." in name.split("/")[0] and not (module and (name == module or name.startswith(module + "/")))]
    problems += [f"{rel}: may reach the network address {m.group(0)}" for m in _URL.finditer(text)
                 if "." in m.group(1) and not _LOCAL.match(m.group(1))]
    lines = {line.strip() for line in text.splitlines()}
    problems += [f"{rel}: the prompt contains this test's code: {line!r}" for line in sorted(lines)
                 if len(line) >= 40 and line.startswith(("func Test", "if ", "t.")) and line in prompt]
    return problems
