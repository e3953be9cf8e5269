"""What each Exercism track needs to become a challenge AgentBench can measure.

- **Python**: tests are `unittest.TestCase` classes importing the solution by flat module name, run
  from the exercise folder; pytest runs them (`python -m pytest <test files>`), the hidden copy
  imports the project the same way. A test importing anything but the standard library, pytest or
  the exercise's own modules cannot run offline and is refused.
- **Go**: the module path is read from `go.mod` and the package from the stub's `package` line (they
  differ from the slug); the example replaces the stub and must be in the same package; helpers may
  be listed under `files.editor`. A `go.mod` that requires other modules cannot build offline.
- **TypeScript / JavaScript**: tests use jest (`describe`/`it`/`expect`, imported from
  `@jest/globals` or global, every test after the first marked `xit`/`xtest`). They are converted
  faithfully: the jest import is replaced by AgentBench's shim (`js/jest-compat.js`: node:test's
  own describe/it/test and hooks, so each test is registered from its file and counted through the
  harness's reporter, and jest's `expect`), imported from `jest-compat.spec.js` in the workspace
  and written at the top of each hidden test file (the hidden-test folder holds test files only);
  skips (`xit`, `xtest`, `.skip`) become plain calls,
  relative imports name their file (`./bob` -> `./bob.ts`), `.spec.js` becomes `.test.js`. Tests
  using jest features the shim does not have (mocks, timers, snapshots, asymmetric matchers,
  `.each`, `done` callbacks) are refused.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from agentbench.loader import builtin_challenges_dir

SHIM_DIR = Path(__file__).parent / "js"
SHIM_SOURCE = "jest-compat.js"
SHIM = "jest-compat.spec.js"
"""The shim's name in the workspace: a test file to AgentBench (never product code), one node's
default `--test` patterns do not run (it registers no test of its own)."""
SHIM_TYPES = "jest-compat.spec.d.ts"
SHIM_NAMES = "describe, it, test, expect, beforeEach, afterEach, beforeAll, afterAll"
HIDDEN_DIR = ".agentbench-acceptance"
"""Where the Node toolchain puts hidden tests in the project copy (they import `../<file>`)."""
TS_PINS = {"@types/node": "22.20.7", "typescript": "5.9.3"}
TSCONFIG = """{
  "compilerOptions": {
    "target": "es2022", "module": "nodenext", "moduleResolution": "nodenext", "strict": true,
    "noEmit": true, "allowImportingTsExtensions": true, "erasableSyntaxOnly": true,
    "verbatimModuleSyntax": false, "types": ["node"], "skipLibCheck": true
  },
  "include": ["*.ts"]
}
"""
UNSUPPORTED_JEST = re.compile(r"\bjest\.|toMatchSnapshot|toMatchInlineSnapshot|toHaveBeenCalled|"
                              r"toBeCalled|\bexpect\.(any|anything|objectContaining|arrayContaining|"
                              r"stringContaining|stringMatching|assertions|hasAssertions)\b|"
                              r"\.each\s*[(`]|\.only\s*\(|\.todo\s*\(|\(\s*done\s*\)\s*=>")
_SKIPPED = re.compile(r"\b(?:x(it|test|describe)|f(it|describe))\s*\(|\b(it|test|describe)\.skip\s*\(")
_JEST_IMPORT = re.compile(r"^\s*import\s*\{[^}]*\}\s*from\s*['\"]@jest/globals['\"];?\s*$", re.M)
_RELATIVE = re.compile(r"""(\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+)(['"])\./([^'"\n]+)\2""")
_PY_IMPORT = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.M)
_GO_PACKAGE = re.compile(r"^package\s+(\w+)", re.M)
_GO_MODULE = re.compile(r"^module\s+(\S+)", re.M)


class Unconvertible(Exception):
    """The exercise cannot be converted faithfully (the message says why)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Exercise:
    """An exercise as its folder gives it."""

    folder: Path
    slug: str
    instructions: str
    solution: tuple[str, ...]
    tests: tuple[str, ...]
    example: tuple[str, ...]
    editor: tuple[str, ...] = ()

    def read(self, rel: str) -> bytes:
        """A file of the exercise."""
        return (self.folder / rel).read_bytes()

    def text(self, rel: str) -> str:
        """A file of the exercise as text."""
        return (self.folder / rel).read_text(encoding="utf-8")

    def reference(self) -> dict[str, bytes]:
        """The solution files with the example's content (by matching suffix and order)."""
        if len(self.example) != len(self.solution):
            raise Unconvertible(f"{len(self.example)} example file(s) for {len(self.solution)} "
                                "solution file(s): cannot tell which replaces which")
        return {sol: self.read(ex) for sol, ex in zip(self.solution, self.example, strict=True)}


@dataclass(frozen=True, slots=True, kw_only=True)
class Build:
    """The trees and commands of one converted exercise."""

    start: Mapping[str, bytes]
    reference: Mapping[str, bytes]
    acceptance: Mapping[str, bytes]
    protected: tuple[str, ...]
    setup: tuple[str, ...] = ()
    test_commands: tuple[str, ...] = ()


def language_of(exercise: Exercise) -> str:
    """python, go, typescript or javascript, by the solution files' suffix."""
    suffixes = {PurePosixPath(s).suffix for s in exercise.solution}
    by_suffix = {".py": "python", ".go": "go", ".ts": "typescript", ".js": "javascript",
                 ".mjs": "javascript"}
    languages = {by_suffix.get(s) for s in suffixes}
    if len(languages) != 1 or None in languages:
        raise Unconvertible(f"solution files {', '.join(exercise.solution)} are not in a language "
                            "AgentBench measures (Python, Go, TypeScript/JavaScript)")
    return str(languages.pop())


def build_python(ex: Exercise) -> Build:
    """Stubs, tests and helpers as given; pytest runs the unittest files."""
    own = {PurePosixPath(f).stem for f in (*ex.solution, *ex.editor, *ex.tests)}
    for test in ex.tests:
        for match in _PY_IMPORT.finditer(ex.text(test)):
            top = (match.group(1) or match.group(2)).split(".")[0]
            if top not in own and top not in sys.stdlib_module_names and top != "pytest":
                raise Unconvertible(f"{test} imports '{top}', which is neither the standard "
                                    "library, pytest nor the exercise's own code")
    given = {f: ex.read(f) for f in (*ex.tests, *ex.editor)}
    return Build(start={**{f: ex.read(f) for f in ex.solution}, **given},
                 reference={**ex.reference(), **given}, acceptance=given,
                 protected=tuple(given), test_commands=(f"python -m pytest {' '.join(ex.tests)}",))


def build_go(ex: Exercise) -> Build:
    """go.mod, stub, tests and helpers; the example replaces the stub (same package)."""
    if not (ex.folder / "go.mod").is_file():
        raise Unconvertible("no go.mod")
    gomod = ex.text("go.mod")
    if not _GO_MODULE.search(gomod):
        raise Unconvertible("go.mod names no module")
    if re.search(r"^\s*require\b", gomod, re.M):
        raise Unconvertible("go.mod requires other modules (the hidden tests build offline)")
    reference = ex.reference()
    for stub in ex.solution:
        want, got = _GO_PACKAGE.search(ex.text(stub)), _GO_PACKAGE.search(reference[stub].decode())
        if not want or not got or want.group(1) != got.group(1):
            raise Unconvertible(f"the example of {stub} is not in the stub's package")
    given = {f: ex.read(f) for f in (*ex.tests, *ex.editor)}
    tests = {f: data for f, data in given.items() if f.endswith("_test.go")}
    return Build(start={"go.mod": gomod.encode(), **{f: ex.read(f) for f in ex.solution}, **given},
                 reference={"go.mod": gomod.encode(), **reference, **given}, acceptance=tests,
                 protected=("go.mod", *given), test_commands=("go test ./...",))


def build_node(ex: Exercise, *, typescript: bool) -> Build:
    """Tests converted from jest to the shim; package.json (and tsconfig) of AgentBench's own."""
    product = {*ex.solution, *(f for f in ex.editor if not _is_test_name(f))}
    tests = {_test_name(f): ex.text(f) for f in (*ex.tests, *(f for f in ex.editor if _is_test_name(f)))}
    for name, text in tests.items():
        if found := UNSUPPORTED_JEST.search(text):
            raise Unconvertible(f"{name} uses jest's `{found.group(0)}`, which the node:test shim "
                                "does not provide")
    files = _node_project(ex.slug, typescript)
    visible = {n: _convert_test(t, product, hidden=False).encode() for n, t in tests.items()}
    hidden = {n: _convert_test(t, product, hidden=True).encode() for n, t in tests.items()}
    source = (SHIM_DIR / SHIM_SOURCE).read_text(encoding="utf-8")
    shim = {SHIM: f"{source}\nexport {{ {SHIM_NAMES} }};\n".encode()}
    if typescript:
        shim[SHIM_TYPES] = (SHIM_DIR / SHIM_TYPES).read_bytes()
    given = {**visible, **shim}
    stubs = {f: _name_imports(ex.text(f), product).encode() for f in product}
    answer = {f: _name_imports(data.decode(), product).encode() for f, data in ex.reference().items()}
    return Build(start={**files, **stubs, **given}, reference={**files, **stubs, **answer, **given},
                 acceptance=hidden, protected=tuple(given),
                 setup=("npm install", "npx tsc") if typescript else ("npm install",),
                 test_commands=("node --test",))


def _is_test_name(name: str) -> bool:
    return bool(re.search(r"\.(test|spec)\.[cm]?[jt]s$", name))


def _test_name(name: str) -> str:
    """`x.spec.js` -> `x.test.js` (node --test finds `*.test.*` files, not `*.spec.*`)."""
    return re.sub(r"\.spec\.([cm]?[jt]s)$", r".test.\1", name)


def _unskip(match: re.Match[str]) -> str:
    return f"{match.group(1) or match.group(2) or match.group(3)}("


def _convert_test(text: str, product: set[str], *, hidden: bool) -> str:
    body = _SKIPPED.sub(_unskip, _JEST_IMPORT.sub("", text))
    body = _name_imports(body, product, prefix="../" if hidden else "./")
    if hidden:
        return f"{(SHIM_DIR / SHIM_SOURCE).read_text(encoding='utf-8')}\n{body}"
    return f'import {{ {SHIM_NAMES} }} from "./{SHIM}";\n{body}'


def _name_imports(text: str, product: set[str], prefix: str = "./") -> str:
    """Relative imports of product files name the file (`./bob` -> `./bob.ts`), from `prefix`."""
    def named(match: re.Match[str]) -> str:
        target = match.group(3)
        found = next((p for p in sorted(product) if p == target or PurePosixPath(p).with_suffix("")
                      == PurePosixPath(target)), None)
        return f"{match.group(1)}{match.group(2)}{prefix}{found or target}{match.group(2)}" if found \
            else match.group(0)
    return _RELATIVE.sub(named, text)


def _node_project(slug: str, typescript: bool) -> dict[str, bytes]:
    import json

    package: dict[str, object] = {"name": slug, "version": "1.0.0", "private": True, "type": "module",
                                  "scripts": {"test": "node --test"}}
    if not typescript:
        return {"package.json": (json.dumps(package, indent=2) + "\n").encode()}
    package["devDependencies"] = TS_PINS
    lock = builtin_challenges_dir() / "easy" / "ts-word-count" / "reference" / "package-lock.json"
    lock_data = json.loads(lock.read_text(encoding="utf-8"))
    lock_data["name"] = lock_data["packages"][""]["name"] = slug
    return {"package.json": (json.dumps(package, indent=2) + "\n").encode(),
            "package-lock.json": (json.dumps(lock_data, indent=2) + "\n").encode(),
            "tsconfig.json": TSCONFIG.encode()}


BUILDERS: dict[str, Callable[[Exercise], Build]] = {
    "python": build_python, "go": build_go,
    "typescript": lambda ex: build_node(ex, typescript=True),
    "javascript": lambda ex: build_node(ex, typescript=False),
}
"""Per language: how an exercise becomes a challenge's trees and commands."""
