"""Issue 21: product code that takes over the hidden-test process and forges outcomes. Every hidden
test runs beside a canary twin that must fail; the forgers below cannot tell them apart, so flipping
failures flips canaries. End to end through `agentbench run`, in both sandbox modes."""

from __future__ import annotations

import json
import textwrap

import pytest

from tests.attacks.agents import CHALLENGES, REF, d
from tests.attacks.conftest import AttackRun, mode_run

pytestmark = pytest.mark.attacks

STUB_OPS = d('''
    def add(a, b):
        return 0


    def sub(a, b):
        return 0


    def mul(a, b):
        return 0


    def div(a, b):
        return 0


    def power(a, n):
        return 0
    ''')


def _stub(extra: str) -> dict[str, str]:
    """A stub calc (every function returns 0) whose ops module runs `extra` on import."""
    return {**{k: v for k, v in REF.items() if not k.startswith("src/")},
            "src/calc/__init__.py": REF["src/calc/__init__.py"], "src/calc/ops.py": STUB_OPS + extra}


_ON_FIRST_USE = d('''
    import functools, gc


    def _once(forge):
        done = []

        def wrap(fn):
            @functools.wraps(fn)
            def inner(*args, **kwargs):
                if not done:
                    done.append(True)
                    forge()
                return fn(*args, **kwargs)
            return inner
        return wrap


    def _items():
        return [o for o in gc.get_objects() if type(o).__name__ == "Function" and hasattr(o, "runtest")]
    ''')

_CALL_ONCE = "\n\nadd, sub, mul, div, power = (_once(_forge)(f) for f in (add, sub, mul, div, power))\n"


def _first_use(forge: str) -> dict[str, str]:
    """A stub calc whose first call (of any op) runs `forge`: the source of a `_forge()`."""
    return _stub(_ON_FIRST_USE + forge + _CALL_ONCE)


FORGERS = {
    # swaps the code of every test function for one that passes, with no pytest API at all
    "code-swapper": _first_use(d('''
        def _forge():
            blank = (lambda *args, **kwargs: None).__code__
            for obj in gc.get_objects():
                if callable(obj) and getattr(obj, "__name__", "").startswith("test") and hasattr(obj, "__code__"):
                    try:
                        obj.__code__ = blank
                    except (TypeError, ValueError):
                        pass
        ''')),
    # replaces every collected test item's run method, found through the garbage collector
    "runtest-replacer": _first_use(d('''
        def _forge():
            for item in _items():
                item.runtest = lambda: None
        ''')),
    # every exported name returns an object equal to anything
    "equals-anything": {**_stub(""), "src/calc/ops.py": d('''
        class _Any:
            def __eq__(self, other):
                return True

            def __ne__(self, other):
                return False

            __hash__ = object.__hash__


        def add(a, b):
            return _Any()


        sub = mul = div = power = add
        ''')},
    # flips only the first half of the tests in each file (a position, not a name)
    "first-half": _first_use(d('''
        def _forge():
            items = _items()
            for item in items[: len(items) // 2]:
                item.runtest = lambda: None
        ''')),
    # flips only tests whose code does not look mutated: those whose name it never saw before
    "name-reader": _first_use(d('''
        def _forge():
            for item in _items():
                if not item.name.startswith("test_c"):
                    item.runtest = lambda: None
        ''')),
}


_PAIRS = d('''
    import random


    _FORGED = []


    def _function(item):
        """The test function (the harness wraps the running one)."""
        return getattr(item.obj, "__wrapped__", item.obj)


    def _pairs():
        """Test items grouped by bytecode: twins compile alike, only the table attribute differs."""
        groups = {}
        for item in _items():
            groups.setdefault(_function(item).__code__.co_code, []).append(item)
        return list(groups.values())


    def _expected(item):
        """The values the item reads from the module's table (what it compares with)."""
        table = _function(item).__globals__.get("_values")
        return [getattr(table, n) for n in _function(item).__code__.co_names
                if n.startswith("v_") and hasattr(table, n)]


    def _weak(value):
        """AgentBench's own rule: a number under 100, or with fewer than three digits."""
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        return abs(value) < 100 if isinstance(value, int) else sum(c.isdigit() for c in repr(value)) < 3
    ''')


def _pair_forger(per_group: str) -> dict[str, str]:
    """A stub calc whose first call flips, once per process, what `per_group` (source run for each
    `group` of twin test items, from `_pairs()`) picks."""
    return _first_use(_PAIRS + d('''
        def _forge():
            if _FORGED:  # once per process: a second coin per pair would flip both of some
                return
            _FORGED.append(True)
            for group in _pairs():
        ''') + textwrap.indent(per_group, " " * 8))


# forgers that know the design (docs/scoring-integrity.md): each flips only what it hopes no canary sees
DESIGN_AWARE = {
    # flips the tests that have no near-identical partner (no canary guards them)
    "unguarded-flipper": _pair_forger(d('''
                if len(group) == 1:
                    group[0].runtest = lambda: None
        ''')),
    # flips one test of every twin pair at random
    "pair-flipper": _pair_forger(d('''
                random.choice(group).runtest = lambda: None
        ''')),
    # reads the table and flips one test of every weak pair (small numbers) only, at random
    "weak-pair-flipper": _pair_forger(d('''
                if len(group) == 2 and all(_weak(v) for item in group for v in _expected(item)):
                    random.choice(group).runtest = lambda: None
        ''')),
    # new: bets on the mutation rule: of a weak pair, the smaller value is the real one (it was, for
    # every small number >= 0, before the changes were made symmetric)
    "smaller-is-real": _pair_forger(d('''
                values = [_expected(item) for item in group]
                if len(group) == 2 and all(len(v) == 1 and _weak(v[0]) for v in values):
                    min(group, key=lambda item: _expected(item)[0]).runtest = lambda: None
        ''')),
}


TS_REFERENCE = CHALLENGES / "easy" / "ts-calc" / "reference"
TS_REF = {str(p.relative_to(TS_REFERENCE)): p.read_text() for p in TS_REFERENCE.rglob("*") if p.is_file()}
TS_STUB = d("""
    export function add(a: number, b: number): number { return 0; }
    export function sub(a: number, b: number): number { return 0; }
    export function mul(a: number, b: number): number { return 0; }
    export function div(a: number, b: number): number { return 0; }
    export function power(a: number, n: number): number { return 0; }
    """)
_TS_EXIT_0 = d("""
    import fs from "node:fs";
    import v8 from "node:v8";
    process.on("exit", () => { process.exitCode = 0; });
    """)

TS_FRAME = d("""
    function frame(item: any): Buffer {
      // one event as a test child reports it to its parent: node's v8-serialized frame
      const s = new v8.DefaultSerializer();
      s.writeHeader();
      const head = s.releaseBuffer().length;
      s.writeHeader(); s.writeRawBytes(Buffer.alloc(4)); s.writeHeader(); s.writeValue(item);
      const b = s.releaseBuffer();
      b.writeUInt32BE(b.length - 4 - head, head);
      return b;
    }
    """)
"""`frame(item)` in TypeScript (needs `v8` imported): forged events a child writes to its stdout."""

TS_FORGERS = {
    # The hidden tests run in child processes that report to the parent `node --test` (which judges)
    # over their stdout, in node's serialized frames: product code in a child forges that report.
    # wraps the serializer the child's reporter uses, turning every failure into a pass; exits 0
    "ts-serializer-flipper": {**{k: v for k, v in TS_REF.items() if not k.startswith("src/")},
                              "src/calc.ts": TS_STUB + _TS_EXIT_0 + d("""
        const writeValue = v8.DefaultSerializer.prototype.writeValue;
        v8.DefaultSerializer.prototype.writeValue = function (item: any) {
          if (item?.type === "test:fail") {
            item.type = "test:pass";
            if (item.data?.details) delete item.data.details.error;
          }
          return writeValue.call(this, item);
        };
        """)},
    # drops every frame the child's reporter writes and writes its own: a pass for every test of its file
    "ts-frame-forger": {**{k: v for k, v in TS_REF.items() if not k.startswith("src/")},
                        "src/calc.ts": TS_STUB + _TS_EXIT_0 + TS_FRAME + d(r"""
        const file = process.argv[1] ?? "";
        const names = [...fs.readFileSync(file, "utf8").matchAll(/^test\("([^"]+)"/gm)].map((m) => m[1]);
        const write = process.stdout.write;
        (process.stdout as any).write = function (chunk: any, ...rest: any[]) {
          if (typeof chunk !== "string") return true;
          return (write as any).call(process.stdout, chunk, ...rest);
        };
        process.on("exit", () => {
          names.forEach((name, i) => {
            const data = { name, nesting: 0, testNumber: i + 1, file, line: 5 + i, column: 1,
                           details: { duration_ms: 1, type: "test" } };
            fs.writeSync(1, frame({ type: "test:pass", data }));
          });
        });
        """)},
}

_TS_PAIRS = d(r"""
    import fs from "node:fs";
    import v8 from "node:v8";
    const HIDDEN = new URL("../.agentbench-acceptance/", import.meta.url);

    function hiddenTests(): [string, string][] {
      const found: [string, string][] = [];
      let files: string[] = [];
      try { files = fs.readdirSync(HIDDEN, { recursive: true }) as string[]; } catch { return found; }
      for (const file of files.filter((f) => /\.test\.[mc]?[jt]s$/.test(f))) {
        const text = fs.readFileSync(new URL(file, HIDDEN), "utf8");
        for (const m of text.matchAll(/^test\("([^"]+)",(.*)$/gm)) found.push([m[1], m[2]]);
      }
      return found;
    }

    // twins: the same tokens but for exactly one (a literal, or the error class of assert.throws)
    const TOKEN = /[A-Za-z_$][\w$]*|-?\d+(?:\.\d+)?|"[^"]*"|\S/g;
    function twins(a: string, b: string): boolean {
      const ta = a.match(TOKEN) ?? [], tb = b.match(TOKEN) ?? [];
      return ta.length === tb.length && ta.filter((x, i) => x !== tb[i]).length === 1;
    }

    function grouped(): { pairs: string[][]; single: string[] } {
      const list = hiddenTests(), used = new Set<number>(), pairs: string[][] = [], single: string[] = [];
      list.forEach(([name, body], i) => {
        if (used.has(i)) return;
        const j = list.findIndex(([, other], k) => k > i && !used.has(k) && twins(body, other));
        if (j >= 0) { used.add(i); used.add(j); pairs.push([name, list[j][0]]); } else single.push(name);
      });
      return { pairs, single };
    }

    // flips the chosen failures in the child's report to its parent (see TS_FORGERS)
    function forge(flip: Set<string>): void {
      const writeValue = v8.DefaultSerializer.prototype.writeValue;
      v8.DefaultSerializer.prototype.writeValue = function (item: any) {
        if (item?.type === "test:fail" && flip.has(item.data?.name)) {
          item.type = "test:pass";
          if (item.data?.details) delete item.data.details.error;
        }
        return writeValue.call(this, item);
      };
      process.on("exit", () => { process.exitCode = 0; });
    }
    """)
TS_DESIGN_AWARE = {
    # flips the tests that have no twin (ts-calc: the assert.throws one)
    "ts-unguarded-flipper": {**{k: v for k, v in TS_REF.items() if not k.startswith("src/")},
                             "src/calc.ts": TS_STUB + _TS_PAIRS + "forge(new Set(grouped().single));\n"},
    # flips one of every twin pair at random
    "ts-pair-flipper": {**{k: v for k, v in TS_REF.items() if not k.startswith("src/")},
                        "src/calc.ts": TS_STUB + _TS_PAIRS + d("""
        forge(new Set(grouped().pairs.map((pair) => pair[Math.floor(Math.random() * 2)])));
        """)},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def forgers(request: pytest.FixtureRequest, shared_folder) -> AttackRun:
    return mode_run(shared_folder, "canaries", ["reference", "noop", *FORGERS, *DESIGN_AWARE],
                    "easy/calc", request.param, files={**FORGERS, **DESIGN_AWARE})


def _canary_log(run: AttackRun, agent: str) -> dict:
    return json.loads((run.trial_dir(agent) / "logs" / "hidden-canaries.json").read_text())


@pytest.mark.parametrize("agent", sorted(FORGERS))
def test_a_forger_in_the_product_scores_at_most_10_and_is_marked_forged(forgers, agent):
    trial = forgers.trial(agent)
    hidden = trial.measurements.acceptance.tests
    assert trial.verified_score.total <= 10
    assert hidden.passed == 0 and hidden.total == 10
    assert "forged" in (hidden.problem or "")
    assert any(e.startswith("canary ") and "twin of test_calc_hidden.py::" in e for e in hidden.tampering)
    assert _canary_log(forgers, agent)["forged"]


def test_the_reference_and_noop_are_not_flagged(forgers):
    ref, noop = forgers.trial("reference"), forgers.trial("noop")
    assert forgers.hidden("reference") == (10, 10) and ref.verified_score.total >= 95
    assert forgers.hidden("noop") == (0, 10) and noop.verified_score.total == 0
    for trial in (ref, noop):
        assert trial.measurements.acceptance.tampering == ()
        assert trial.measurements.acceptance.tests.problem is None
    log = _canary_log(forgers, "reference")
    assert len(log["canaries"]) == 10 and {c["outcome"] for c in log["canaries"]} == {"failed"}


def _flipped(run: AttackRun, agent: str) -> dict[str, int]:
    """How many canaries of each kind the agent's run reported passed."""
    kinds = {"strong": 0, "weak": 0, "common": 0}
    for canary in _canary_log(run, agent)["canaries"]:
        if canary["outcome"] == "passed":
            kinds["strong" if canary["strong"] else "common" if canary["common"] else "weak"] += 1
    return kinds


def test_a_forger_that_finds_the_tests_without_a_twin_finds_none_and_gains_nothing(forgers):
    """Every calc hidden test has a twin now (`pytest.raises` too), and a test without one would not
    count: the unguarded-flipper flips nothing and scores what the stub earns honestly (1 of 10)."""
    trial = forgers.trial("unguarded-flipper")
    hidden = trial.measurements.acceptance.tests
    log = _canary_log(forgers, "unguarded-flipper")
    assert (hidden.passed, hidden.total) == (1, 10) and hidden.problem is None, log
    assert trial.verified_score.total <= 10
    assert _canary_log(forgers, "unguarded-flipper")["uncounted"] == []


@pytest.mark.parametrize("agent", ["pair-flipper", "weak-pair-flipper", "smaller-is-real"])
def test_a_forger_that_flips_one_of_each_pair_is_caught_or_pays_for_its_wrong_guesses(forgers, agent):
    """Flipping one of a pair is a coin: a strong canary voids the run, two weak ones too, and a weak
    canary below that cancels one passing test, so a guess costs what it earns (the expected gain is
    0: tests/toolchains/test_canaries.py). Caught, the forger scores 0 and is marked forged."""
    _caught_or_paid(forgers, agent)


def _caught_or_paid(run: AttackRun, agent: str) -> None:
    trial = run.trial(agent)
    hidden = trial.measurements.acceptance.tests
    kinds, log = _flipped(run, agent), _canary_log(run, agent)
    if log["forged"]:  # a strong canary, two weak ones, or a canary beside its passing twin
        assert "forged" in (hidden.problem or "")
        assert hidden.passed == 0 and trial.verified_score.total <= 10
        return
    assert not kinds["strong"] and kinds["weak"] < 2
    outcomes = json.loads((run.trial_dir(agent) / "logs" / "hidden-tests.json").read_text())["outcomes"]
    real = sum(1 for name, outcome in outcomes if outcome == "passed" and name not in log["uncounted"])
    assert hidden.passed == max(0, real - kinds["weak"] - kinds["common"]) and log["cancelled"] == real - hidden.passed


def test_most_forgers_that_flip_one_of_each_pair_are_caught(forgers):
    """Each of the three escapes with a small chance (2%, 6%, 12% on calc); all three only ~1e-4."""
    assert any(forgers.trial(a).measurements.acceptance.tests.problem
               for a in ("pair-flipper", "weak-pair-flipper", "smaller-is-real"))


def test_show_says_which_canary_exposed_the_forgery(forgers):
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "agentbench", "show", forgers.run_id,
                           "code-swapper/easy/calc/1", "--results", str(forgers.results)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    text = " ".join(proc.stdout.split())
    assert "hidden tests: 0/10 passed (forged: canary" in text


@pytest.fixture(scope="module", params=("none", "bwrap"))
def ts_forgers(request: pytest.FixtureRequest, shared_folder) -> AttackRun:
    return mode_run(shared_folder, "ts-canaries",
                    ["reference", "noop", *TS_FORGERS, *TS_DESIGN_AWARE], "easy/ts-calc",
                    request.param, files={**TS_FORGERS, **TS_DESIGN_AWARE})


@pytest.mark.parametrize("agent", sorted(TS_FORGERS))
def test_a_typescript_forger_scores_at_most_10_and_is_marked_forged(ts_forgers, agent):
    trial = ts_forgers.trial(agent)
    hidden = trial.measurements.acceptance.tests
    assert trial.verified_score.total <= 10
    assert hidden.passed == 0 and hidden.total == 10
    assert any(e.startswith("canary ") and "twin of calc.test.ts:" in e for e in hidden.tampering)


def test_a_typescript_forger_that_flips_the_tests_without_a_twin_gains_nothing(ts_forgers):
    """Every ts-calc test has a twin (`assert.throws(fn, RangeError)` too: its canary expects another
    error class): the forger finds nothing to flip and scores what the stub earns honestly."""
    trial = ts_forgers.trial("ts-unguarded-flipper")
    hidden = trial.measurements.acceptance.tests
    log = _canary_log(ts_forgers, "ts-unguarded-flipper")
    assert log["uncounted"] == []
    assert (hidden.passed, hidden.total) == (1, 10) and hidden.problem is None, log  # mul(6, 0) == 0: honest
    assert trial.verified_score.total <= 10


def test_a_typescript_forger_that_flips_one_of_each_pair_is_caught_or_pays(ts_forgers):
    _caught_or_paid(ts_forgers, "ts-pair-flipper")


def test_typescript_reference_and_noop_are_not_flagged(ts_forgers):
    for agent, expected in (("reference", (10, 10)), ("noop", (0, 10))):
        acceptance = ts_forgers.trial(agent).measurements.acceptance
        assert ts_forgers.hidden(agent) == expected
        assert acceptance.tampering == () and acceptance.tests.problem is None
    log = _canary_log(ts_forgers, "reference")
    assert len(log["canaries"]) == 10 and {c["outcome"] for c in log["canaries"]} == {"failed"}


GO_REFERENCE = CHALLENGES / "easy" / "go-calc" / "reference"
GO_REF = {str(p.relative_to(GO_REFERENCE)): p.read_text() for p in GO_REFERENCE.rglob("*") if p.is_file()}
GO_STUB = """package calc

func Add(a, b int) int            { return 0 }
func Sub(a, b int) int            { return 0 }
func Mul(a, b int) int            { return 0 }
func Div(a, b int) (int, error)   { return 0, nil }
func Power(a, n int) int          { return 0 }
"""
GO_FORGERS = {
    # init() runs the test binary again as a child, turns its FAIL lines into PASS lines (the
    # framing byte computed at run time, so no marker is in the source) and exits 0
    "go-rerunner": {"go.mod": GO_REF["go.mod"], "README.md": GO_REF["README.md"],
                    "calc.go": (GO_STUB + """
var _ = rerun()

func rerun() bool {
	if os.Getenv("FORGED_CHILD") != "" || !strings.HasSuffix(os.Args[0], ".test") {
		return false
	}
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), "FORGED_CHILD=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run()
	frame := string(rune(22))
	lines := strings.Split(strings.ReplaceAll(out.String(), "--- FAIL:", "--- PASS:"), "\\n")
	for i, line := range lines {
		if strings.TrimPrefix(line, frame) == "FAIL" {
			lines[i] = strings.Replace(line, "FAIL", "PASS", 1)
		}
	}
	os.Stdout.WriteString(strings.Join(lines, "\\n"))
	os.Exit(0)
	return true
}
""").replace("package calc\n", 'package calc\n\nimport (\n\t"bytes"\n\t"os"\n\t"os/exec"\n\t"strings"\n)\n', 1)},
}

_GO_PAIRS = r"""
var literal = regexp.MustCompile(`-?[0-9]+(\.[0-9]+)?|"[^"]*"`)

// hiddenTests: (name, body) of every top-level test in the package's test files
func hiddenTests() [][2]string {
	var found [][2]string
	files, _ := filepath.Glob("*_test.go")
	head := regexp.MustCompile(`(?m)^func (Test\w*)\(`)
	for _, f := range files {
		data, _ := os.ReadFile(f)
		text := string(data)
		for _, loc := range head.FindAllStringSubmatchIndex(text, -1) {
			rest := text[loc[3]:]
			line := strings.SplitN(rest, "\n", 2)[0]
			end := strings.Index(rest, "\n}")
			if strings.HasSuffix(strings.TrimSpace(line), "}") || end < 0 {
				end = len(line)
			}
			found = append(found, [2]string{text[loc[2]:loc[3]], rest[:end]})
		}
	}
	return found
}

// twins: the same text but for exactly one literal
func twins(a, b string) bool {
	la, lb := literal.FindAllString(a, -1), literal.FindAllString(b, -1)
	if strings.Join(literal.Split(a, -1), "#") != strings.Join(literal.Split(b, -1), "#") || len(la) != len(lb) {
		return false
	}
	differ := 0
	for i := range la {
		if la[i] != lb[i] {
			differ++
		}
	}
	return differ == 1
}

func grouped() (pairs [][2]string, single []string) {
	list, used := hiddenTests(), map[int]bool{}
	for i := range list {
		if used[i] {
			continue
		}
		j := -1
		for k := i + 1; k < len(list) && j < 0; k++ {
			if !used[k] && twins(list[i][1], list[k][1]) {
				j = k
			}
		}
		if j < 0 {
			single = append(single, list[i][0])
			continue
		}
		used[i], used[j] = true, true
		pairs = append(pairs, [2]string{list[i][0], list[j][0]})
	}
	return pairs, single
}

// forge: run the test binary again as a child and report the chosen tests' failures as passes
func forge(choose func() []string) bool {
	if os.Getenv("FORGED_CHILD") != "" || !strings.HasSuffix(os.Args[0], ".test") {
		return false
	}
	flip := map[string]bool{}
	for _, name := range choose() {
		flip[name] = true
	}
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), "FORGED_CHILD=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run()
	lines := strings.Split(out.String(), "\n")
	failing := false
	for i, line := range lines {
		at := strings.Index(line, "--- FAIL: ")
		if at < 0 {
			continue
		}
		name := strings.Fields(line[at+len("--- FAIL: "):])[0]
		if flip[strings.SplitN(name, "/", 2)[0]] {
			lines[i] = strings.Replace(line, "--- FAIL: ", "--- PASS: ", 1)
		} else {
			failing = true
		}
	}
	if !failing {
		frame := string(rune(22))
		for i, line := range lines {
			if strings.TrimPrefix(line, frame) == "FAIL" {
				lines[i] = strings.Replace(line, "FAIL", "PASS", 1)
			}
		}
	}
	os.Stdout.WriteString(strings.Join(lines, "\n"))
	if failing {
		os.Exit(1)
	}
	os.Exit(0)
	return true
}
"""
_GO_IMPORTS = ('package calc\n\nimport (\n\t"bytes"\n\t"math/rand"\n\t"os"\n\t"os/exec"\n\t"path/filepath"\n'
               '\t"regexp"\n\t"strings"\n)\n\nvar _ = rand.Intn\n')
GO_DESIGN_AWARE = {
    # flips the tests that have no literal twin (go-calc: the error check of a zero divisor, whose
    # twin expects the opposite check: it flips both)
    "go-unguarded-flipper": {"go.mod": GO_REF["go.mod"], "README.md": GO_REF["README.md"],
                             "calc.go": (GO_STUB + _GO_PAIRS + """
var _ = forge(func() []string { _, single := grouped(); return single })
""").replace("package calc\n", _GO_IMPORTS, 1)},
    # flips one of every twin pair at random
    "go-pair-flipper": {"go.mod": GO_REF["go.mod"], "README.md": GO_REF["README.md"],
                        "calc.go": (GO_STUB + _GO_PAIRS + """
var _ = forge(func() []string {
	pairs, _ := grouped()
	var chosen []string
	for _, pair := range pairs {
		chosen = append(chosen, pair[rand.Intn(2)])
	}
	return chosen
})
""").replace("package calc\n", _GO_IMPORTS, 1)},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def go_forgers(request: pytest.FixtureRequest, shared_folder) -> AttackRun:
    return mode_run(shared_folder, "go-canaries",
                    ["reference", "noop", *GO_FORGERS, *GO_DESIGN_AWARE], "easy/go-calc",
                    request.param, files={**GO_FORGERS, **GO_DESIGN_AWARE})


def test_a_go_forger_scores_at_most_10_and_is_marked_forged(go_forgers):
    trial = go_forgers.trial("go-rerunner")
    hidden = trial.measurements.acceptance.tests
    assert trial.verified_score.total <= 10
    assert hidden.passed == 0 and hidden.total == 10  # TestDivZero's twin is its error check flipped
    assert any(e.startswith("canary ") and "twin of example.com/calc Test" in e for e in hidden.tampering), hidden.tampering


def test_a_go_forger_that_flips_the_tests_without_a_twin_gains_nothing(go_forgers):
    """TestDivZero (`if err == nil { t.Fatal(...) }`) used to have no twin and not count; now its twin
    expects the check flipped, with the same neutral message, and the forger that flips both
    (they differ in no literal) has a canary pass beside its passing twin: the run is void."""
    trial = go_forgers.trial("go-unguarded-flipper")
    hidden = trial.measurements.acceptance.tests
    log = _canary_log(go_forgers, "go-unguarded-flipper")
    assert log["uncounted"] == [], log
    assert any("TestDivZero" in e and "both passed" in e for e in log["forged"]), log
    assert (hidden.passed, hidden.total) == (0, 10) and "forged" in (hidden.problem or ""), log
    assert trial.verified_score.total <= 10


def test_a_go_forger_that_flips_one_of_each_pair_is_caught_or_pays(go_forgers):
    _caught_or_paid(go_forgers, "go-pair-flipper")


def test_go_reference_and_noop_are_not_flagged(go_forgers):
    for agent, expected in (("reference", (10, 10)), ("noop", (0, 10))):
        acceptance = go_forgers.trial(agent).measurements.acceptance
        assert go_forgers.hidden(agent) == expected, agent
        assert acceptance.tampering == () and "forged" not in (acceptance.tests.problem or ""), agent
    log = _canary_log(go_forgers, "reference")
    assert len(log["canaries"]) == 10 and {c["outcome"] for c in log["canaries"]} == {"failed"}
