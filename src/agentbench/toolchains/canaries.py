"""Canary tests: hidden tests that must fail, which the judged process cannot tell from real ones.

Every hidden test function that compares a result with a literal gets a *twin*: the same body,
calling the product the same way, with that literal replaced (two characters or digits changed to
others of the same kind, so neither twin looks more original than the other). Every test, real or
canary, gets a fresh random name in each run, and they are shuffled among each other in the same
files: product code running in the test process sees pairs of near-identical tests and cannot know
which of the two the harness counts.

A canary is verified on the reference solution (it must fail there) once per content of the hidden
tests and reference (`HiddenCatalog`, cached by the runner). The harness alone knows which random
name is which; it judges the reported outcomes with `judge`:

- a *strong* canary (its literal has at least three letters or digits, two of them changed) that
  passes voids the run: an honest but wrong product produces exactly the changed value only by a
  coincidence (a wrong answer that differs from the right one at one place never matches it);
- a *weak* canary (a number under 100, a text with fewer than three letters or digits) voids the run
  when it passes together with its twin (no product honestly gives two different values for one
  call), or when `WEAK_LIMIT` weak canaries pass in one run (an honest product matches a changed
  small value only by a rare coincidence, mutations avoid +-1); below that, each passing weak canary
  cancels one passing real test, so flipping one of a weak pair at random gains nothing in
  expectation (negative marking: a wrong guess costs what a right one earns).

Only *guarded* hidden tests (those with a verified canary) count toward the pass rate: a pass that
no canary guards is not evidence. The others still run and are reported (`Verdict.uncounted`).
Hidden tests the reference reported are all expected; one not reported counts as failed.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

_GENERATORS = ("canaries.py", "python/canaries.py", "node/canaries.py", "node/truths.py", "go/canaries.py",
               "go/tables.py", "go/errchecks.py", "node/sealed.py")


def _generator_digest() -> str:
    digest = hashlib.sha256()
    for rel in _GENERATORS:
        path = Path(__file__).parent / rel
        digest.update(path.read_bytes() if path.is_file() else b"-")
    return digest.hexdigest()[:12]


GENERATOR_VERSION = "9-" + _generator_digest()
"""Changes whenever canary generation changes (part of the cache key): a number bumped by hand and
a digest of the generating modules' source, so a catalog cached by other generator code (another
checkout sharing the cache) is never read."""
MUST_FAIL = -1
"""`Mutation.site` of a challenge's own `must_fail` test (run unchanged, without a twin)."""
WEAK_LIMIT = 2
"""Weak canaries passing in one run that void it as forged."""
MIN_GUARDED_SHARE = 0.25
"""`validate` refuses a challenge whose guarded share of hidden tests is lower."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Mutation:
    """One canary: a hidden test function with one literal replaced."""

    file: str
    """The test file, relative to the acceptance folder."""
    test: str
    """The twin's qualified name in that file (e.g. `test_add`, `TestCli.test_bump`)."""
    site: int
    """Which literal of the test (the toolchain's order) is replaced."""
    literal: str
    """The replacement, as source text of the test's language."""
    described: str
    """`file:line: old -> new`, for the trial's log."""
    strong: bool = True
    """A strong canary voids the run whenever it passes; a weak one only together with its twin."""
    common: bool = False
    """A canary an honest wrong product passes commonly (the opposite truth value, another expected
    exception): passing, it cancels one passing test; it voids the run only with its twin."""

    @property
    def twin(self) -> str:
        """`file::test` of the real test this canary mirrors."""
        return f"{self.file}::{self.test}"


@dataclass(frozen=True, slots=True, kw_only=True)
class HiddenCatalog:
    """What the reference run established about a challenge's hidden tests."""

    tests: tuple[str, ...]
    """Every real hidden test's id (its original name) the reference reported."""
    canaries: tuple[Mutation, ...] = ()
    """Canaries that failed on the reference (every item of them)."""
    dropped: int = 0
    """Generated canaries that did not fail on the reference (not used)."""
    twinless: tuple[str, ...] = ()
    """Real test functions (`file::test`) without any verified canary."""
    supported: bool = False
    """Whether the language's toolchain generates canaries at all."""
    guarded: tuple[str, ...] | None = None
    """The ids of `tests` with a verified canary (the ones that count; None: every test counts)."""
    unfailed: tuple[str, ...] = ()
    """The challenge's `must_fail` tests that did not fail on the reference (or were not found)."""
    sealed: tuple[str, ...] = ()
    """Hidden test files guarded by a process boundary instead of canaries (`surveyed`'s `sealed`)."""

    def counted(self) -> tuple[str, ...]:
        """The hidden test ids that count toward the pass rate."""
        return self.tests if self.guarded is None else self.guarded

    def to_json(self) -> str:
        """The catalog as JSON (the runner caches it)."""
        body = {"version": GENERATOR_VERSION, "tests": list(self.tests), "dropped": self.dropped,
                "twinless": list(self.twinless), "supported": self.supported,
                "guarded": None if self.guarded is None else list(self.guarded),
                "unfailed": list(self.unfailed), "sealed": list(self.sealed),
                "canaries": [{"file": m.file, "test": m.test, "site": m.site, "literal": m.literal,
                              "described": m.described, "strong": m.strong, "common": m.common}
                              for m in self.canaries]}
        return json.dumps(body, indent=1) + "\n"

    @staticmethod
    def from_json(text: str) -> HiddenCatalog | None:
        """A catalog read back (None for one written by another generator version)."""
        body = json.loads(text)
        if not isinstance(body, dict) or body.get("version") != GENERATOR_VERSION:
            return None
        return HiddenCatalog(
            tests=tuple(body["tests"]), dropped=int(body["dropped"]), twinless=tuple(body["twinless"]),
            supported=bool(body.get("supported")),
            guarded=None if body.get("guarded") is None else tuple(body["guarded"]),
            unfailed=tuple(body.get("unfailed", ())), sealed=tuple(body.get("sealed", ())),
            canaries=tuple(Mutation(**m) for m in body["canaries"]))

    def by_twin(self) -> dict[str, list[Mutation]]:
        """Verified canaries per real test function (`file::test`)."""
        found: dict[str, list[Mutation]] = {}
        for m in self.canaries:
            found.setdefault(m.twin, []).append(m)
        return found


def expected_tests(catalog: HiddenCatalog | None) -> int | None:
    """How many real hidden tests the reference ran (None: unknown)."""
    return len(catalog.tests) if catalog is not None and catalog.tests else None


def random_name(prefix: str = "test_") -> str:
    """A fresh test name (the same shape for real tests and canaries)."""
    return prefix + secrets.token_hex(6)


def pick(catalog: HiddenCatalog) -> tuple[Mutation, ...]:
    """This run's canaries: one verified canary per real test function, chosen at random."""
    chooser = secrets.SystemRandom()
    return tuple(chooser.choice(options) for options in catalog.by_twin().values())


@dataclass(frozen=True, slots=True, kw_only=True)
class Role:
    """What one reported test id stands for in this run."""

    original: str
    """The real test's original id (for a canary: its twin's id)."""
    canary: Mutation | None = None
    """The canary's mutation (None: a real test)."""
    group: str = ""
    """`file::test` of the real test (a canary's `Mutation.twin` names the same)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RenderedTests:
    """The hidden test files of one run, and what each random test name stands for. Each language
    subclasses it with `resolve`: how a reported test id maps to a role."""

    sources: dict[str, str]
    """Relative path -> the rendered file's text."""
    roles: dict[str, Role]
    """Random test name -> its role."""

    def resolve(self, test_id: str) -> Role | None:
        """The role of a reported test id (None: not a test of this run)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """The real tests' outcomes, and any evidence of forged outcomes from the canaries. The counts
    are over the counted (guarded) tests only."""

    outcomes: tuple[tuple[str, str], ...]
    """(original id, outcome) of every expected real test (unreported ones failed), counted or not."""
    passed: int = 0
    """Counted tests that passed, less one per passing weak canary (at least 0)."""
    failed: int = 0
    skipped: int = 0
    missing: int = 0
    """Expected counted tests that were never reported (counted as failed)."""
    canaries: int = 0
    """Canary items reported in this run."""
    cancelled: int = 0
    """Passing real tests cancelled by passing weak canaries."""
    uncounted: tuple[str, ...] = ()
    """Expected tests no canary guards: run and reported, not counted."""
    forged: tuple[str, ...] = field(default_factory=tuple)
    """Evidence: each canary whose passing cannot be honest."""


def judge(reported: Iterable[tuple[str, str]], resolve: Callable[[str], Role | None],
          expected: Iterable[str], counted: Iterable[str] | None = None) -> Verdict:
    """Judge a run's (id, outcome) pairs: `resolve` maps a reported id to its role (None: unknown,
    ignored); `expected` are the real tests' original ids (from the reference run), `counted` the
    guarded ones among them (None: all)."""
    real: dict[str, str] = {}
    canaries: list[tuple[str, Role, str]] = []
    for run_id, outcome in reported:
        role = resolve(run_id)
        if role is None:
            continue
        if role.canary is None:
            real[role.original] = "failed" if real.get(role.original, outcome) != outcome else outcome
        else:
            canaries.append((run_id, role, outcome))
    forged, weak = _evidence(canaries, real)
    wanted = list(dict.fromkeys(expected))
    outcomes = tuple((name, real.get(name, "failed")) for name in wanted)
    guarded = set(wanted if counted is None else counted)
    mine = [(name, outcome) for name, outcome in outcomes if name in guarded]
    counts = {k: sum(1 for _, o in mine if o == k) for k in ("passed", "skipped")}
    passed = max(0, counts["passed"] - len(weak))
    return Verdict(outcomes=outcomes, passed=passed, skipped=counts["skipped"],
                   failed=len(mine) - passed - counts["skipped"],
                   missing=sum(1 for name, _ in mine if name not in real), canaries=len(canaries),
                   cancelled=counts["passed"] - passed,
                   uncounted=tuple(name for name in wanted if name not in guarded), forged=tuple(forged))


def _evidence(canaries: Iterable[tuple[str, Role, str]],
              real: Mapping[str, str]) -> tuple[list[str], list[str]]:
    """(evidence of forging, descriptions of weak canaries that passed without their twin)."""
    found, weak, limited = [], [], 0
    for run_id, role, outcome in canaries:
        mutation = role.canary
        if outcome != "passed" or mutation is None:
            continue
        twin_passed = real.get(role.original) == "passed"
        what = f"canary {run_id} (twin of {role.original}, {mutation.described}) passed"
        if mutation.strong or twin_passed:
            why = ("it and its twin both passed, which no product can do honestly" if twin_passed else
                   "no honest product produces exactly the changed value")
            found.append(f"{what}: {why}")
        else:
            weak.append(what)
            limited += 0 if mutation.common else 1
    if limited >= WEAK_LIMIT:
        found.append(f"{limited} weak canaries passed (an honest product matches a changed small "
                     f"value only by a rare coincidence): {'; '.join(weak)}")
    return found, weak


def surveyed(outcomes: Iterable[tuple[str, str]], resolve: Callable[[str], Role | None],
             generated: Sequence[Mutation], roles: Iterable[Role], *,
             sealed: frozenset[str] = frozenset()) -> HiddenCatalog:
    """The catalog from a reference run of the real tests and every generated canary: a canary is
    kept when every one of its reported items failed. The tests of `sealed` files (whose process
    loads no product code, e.g. `toolchains.node.sealed`) are guarded without a canary."""
    real: list[tuple[str, str]] = []
    results: dict[Mutation, list[str]] = {}
    broken: set[str] = set()
    for run_id, outcome in outcomes:
        role = resolve(run_id)
        if role is not None and role.canary is None:
            real.append((role.original, role.group))
            if outcome != "passed":
                broken.add(role.group)
        elif role is not None and role.canary is not None:
            results.setdefault(role.canary, []).append(outcome)
    # a real test that failed beside its canaries (which share its state: a server, a file) keeps none
    verified = tuple(m for m in generated if set(results.get(m, ["passed"])) == {"failed"}
                     and m.twin not in broken)
    roles = list(roles)
    covered = {m.twin for m in verified} | {r.group for r in roles if r.group.split("::", 1)[0] in sealed}
    twinless = dict.fromkeys(r.original for r in roles if r.canary is None and r.group not in covered)
    tests = tuple(dict.fromkeys(name for name, _ in real))
    guarded = tuple(dict.fromkeys(name for name, group in real if group in covered))
    unfailed = tuple(m.twin for m in generated if m.site == MUST_FAIL and m not in verified)
    return HiddenCatalog(tests=tests, canaries=verified, dropped=len(generated) - len(verified),
                         twinless=tuple(twinless), supported=True, guarded=guarded, unfailed=unfailed,
                         sealed=tuple(sorted(sealed)))


def log_canaries(path: Path, resolve: Callable[[str], Role | None],
                 outcomes: Iterable[tuple[str, str]], verdict: Verdict) -> None:
    """`hidden-canaries.json`: each canary's id, outcome, twin and change; the evidence found."""
    runs = [{"id": i, "outcome": o, "twin": r.original, "canary": r.canary.described,
             "strong": r.canary.strong, "common": r.canary.common}
            for i, o in outcomes if (r := resolve(i)) is not None and r.canary is not None]
    body = {"canaries": runs, "forged": list(verdict.forged), "missing": verdict.missing,
            "cancelled": verdict.cancelled, "uncounted": list(verdict.uncounted)}
    path.write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")


def problems(catalog: HiddenCatalog | None) -> list[str]:
    """Why a challenge's hidden tests cannot be guarded by canaries (for `validate`)."""
    if catalog is None:
        return ["the hidden tests could not be run on the reference solution (see the run's "
                "logs/survey/ folder)"]
    if not catalog.supported:
        return []
    if catalog.unfailed:
        return [f"must_fail test {name} did not fail on the reference (or was not found)" for name in catalog.unfailed]
    if not catalog.canaries:
        why = (f"all {catalog.dropped} generated canaries passed on the reference" if catalog.dropped
               else "no hidden test compares a result with a literal")
        return [f"no canary test could be made: {why}"]
    guarded, total = len(catalog.counted()), len(catalog.tests)
    if guarded < MIN_GUARDED_SHARE * total:
        return [f"only {guarded} of {total} hidden tests are guarded by a canary (at least "
                f"{MIN_GUARDED_SHARE:.0%} are needed: unguarded tests do not count); "
                "hint: compare results with literals (`assert f(x) == 42`), see docs/scoring-integrity.md"]
    return []


def describe(catalog: HiddenCatalog | None) -> str:
    """One line of canary counts (for `validate`)."""
    if catalog is None or not catalog.supported:
        return "-"
    strong = sum(1 for m in catalog.canaries if m.strong)
    functions = len(catalog.by_twin()) + len(catalog.twinless)
    sealed = f", sealed (no twins needed): {', '.join(catalog.sealed)}" if catalog.sealed else ""
    return (f"{len(catalog.by_twin())}/{functions} twinned, {strong} strong, "
            f"{len(catalog.counted())}/{len(catalog.tests)} tests counted{sealed}")
