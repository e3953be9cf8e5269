"""Issue 21, item 2: the TypeScript hidden tests' verdict is made in the parent `node --test`, which
loads no product code; each test file runs in a child process. Product code that attacks the
reporter, the channel or the JUnit file from a child reaches none of them: it scores what the same
stub scores honestly (ts-calc: 1 of 10, `mul(6, 0) == 0`), and nothing is flagged, because nothing
reached the judge. (Forging the child's own report to its parent is judged by the canaries:
`test_canary_attacks.py`, TS_FORGERS.) End to end through `agentbench run`, in both sandbox modes."""

from __future__ import annotations

import json

import pytest

from tests.attacks.agents import d
from tests.attacks.conftest import AttackRun, agentbench_run, needs_sandbox
from tests.attacks.test_canary_attacks import GO_REF, GO_STUB, TS_REF, TS_STUB

pytestmark = pytest.mark.attacks

_BESIDE = {k: v for k, v in TS_REF.items() if not k.startswith("src/")}

# Every attack that took over the judging process when it was one with the product: the
# reporter's JSON.stringify and fs.writeSync, process.stdout.write, the JUnit file and the exit status.
_IN_PROCESS = d(r"""
    import fs from "node:fs";
    const flip = (text: string) => text.replaceAll('"outcome":"fail"', '"outcome":"pass"');
    const stringify = JSON.stringify;
    JSON.stringify = function (value: any, ...rest: any[]) {
      if (value && value.e === "test" && value.outcome === "fail") value = { ...value, outcome: "pass" };
      return stringify.call(JSON, value, ...rest);
    } as typeof JSON.stringify;
    const writeSync = fs.writeSync;
    (fs as any).writeSync = function (fd: number, data: any, ...rest: any[]) {
      if (Buffer.isBuffer(data)) data = Buffer.from(flip(data.toString()));
      return (writeSync as any)(fd, data, ...rest);
    };
    const write = process.stdout.write;
    (process.stdout as any).write = function (chunk: any, ...rest: any[]) {
      return (write as any).call(process.stdout, typeof chunk === "string" ? flip(chunk) : chunk, ...rest);
    };
    const junit = [...process.execArgv, ...process.argv].find((a) => a.startsWith("--test-reporter-destination=") && a.endsWith(".xml"));
    process.on("exit", () => {
      if (junit) {
        const path = junit.split("=")[1];
        try { fs.writeFileSync(path, fs.readFileSync(path, "utf8").replace(/<failure[\s\S]*?<\/failure>/g, "")); } catch {}
      }
      process.exitCode = 0;
    });
    """)

# Looks for the channel where a child could find it: its own descriptors, its parent's (/proc/<ppid>/fd,
# writing a forged event into every pipe it can open there), the parent's memory and environment;
# reports what it reached on stderr (node shows a child's stderr in the run's log).
_REACHER = d(r"""
    import fs from "node:fs";
    const event = Buffer.from(JSON.stringify({ e: "test", outcome: "pass", name: "add", nonce: "" }) + "\n");
    const parent = `/proc/${process.ppid}`;
    const pipes = (dir: string): string[] => fs.readdirSync(dir)
      .filter((n) => { try { return fs.readlinkSync(`${dir}/${n}`).startsWith("pipe:"); } catch { return false; } });
    // a pipe of which this process holds one end only (libuv's own pipes come in pairs): an inherited one
    const target = (n: string) => fs.readlinkSync(`/proc/self/fd/${n}`);
    const mine = pipes("/proc/self/fd").filter((n) => Number(n) > 2);
    const single = mine.filter((n) => mine.filter((m) => target(m) === target(n)).length === 1);
    let reached = 0;
    for (const n of single) { try { fs.writeSync(Number(n), event); reached++; } catch {} }
    console.error(`PROBE self-single-pipes ${single.length} wrote ${reached}`);
    try {
      let wrote = 0;
      for (const n of pipes(`${parent}/fd`)) {
        try { const fd = fs.openSync(`${parent}/fd/${n}`, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK); fs.writeSync(fd, event); wrote++; } catch {}
      }
      console.error(`PROBE parent-fd wrote ${wrote}`);
    } catch (e: any) { console.error(`PROBE parent-fd ${e.code}`); }
    for (const what of ["mem", "environ"]) {
      try { fs.closeSync(fs.openSync(`${parent}/${what}`, "r")); console.error(`PROBE parent-${what} OPENED`); }
      catch (e: any) { console.error(`PROBE parent-${what} ${e.code}`); }
    }
    // SIGUSR1 opens a plain node's inspector on 127.0.0.1:9229, where any process may run code in it
    try { process.kill(process.ppid, "SIGUSR1"); } catch (e: any) { console.error(`PROBE sigusr1 ${e.code}`); }
    let inspector = "unreached";
    for (let i = 0; i < 10 && inspector === "unreached"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      try { await fetch("http://127.0.0.1:9229/json/list"); inspector = "REACHED"; } catch {}
    }
    console.error(`PROBE inspector ${inspector}`);
    """)

# Everywhere a node process might pick up code or options from the project: loaded by the judging
# parent, the flipper would flip every failure, canaries included.
_FORGE = d("""
    console.error("PROBE forge loaded");
    const stringify = JSON.stringify;
    JSON.stringify = function (value, ...rest) {
      if (value && value.e === "test" && value.outcome === "fail") value = { ...value, outcome: "pass" };
      return stringify.call(JSON, value, ...rest);
    };
    process.on("exit", () => { process.exitCode = 0; });
    """)
_PLANTED = {
    "forge.mjs": _FORGE, "node_modules/forge/index.mjs": _FORGE,
    "package.json": json.dumps({**json.loads(TS_REF["package.json"]), "imports": {"#forge": "./forge.mjs"},
                                "exports": "./forge.mjs", "main": "forge.mjs"}),
    ".env": "NODE_OPTIONS=--import=./forge.mjs\n",
    ".npmrc": "node-options=--import=./forge.mjs\n",
    "node.config.json": json.dumps({"nodeOptions": {"import": ["./forge.mjs"]}, "testRunner": {"isolation": "none"}}),
    ".agentbench-acceptance/package.json": json.dumps({"type": "module", "imports": {"#f": "../forge.mjs"}}),
    ".agentbench-acceptance/forge.test.ts": 'import "../forge.mjs";\n',
}

# What a child can still do to its parent (same user): signal it, or write the files it writes.
_KILLER = 'try { process.kill(process.ppid, "SIGKILL"); } catch {}\n'
_JUNIT_REPLACER = d(r"""
    import fs from "node:fs";
    // the parent's command line is readable: it names the JUnit report, which the trial user may write
    const args = fs.readFileSync(`/proc/${process.ppid}/cmdline`, "utf8").split("\0");
    const junit = args.find((a) => a.startsWith("--test-reporter-destination=") && a.endsWith(".xml"))?.split("=")[1];
    const cases = Array.from({ length: 10 }, (_, i) => `<testcase name="t${i}"/>`).join("");
    const forge = () => { try { fs.rmSync(junit!); fs.writeFileSync(junit!, `<testsuites>${cases}</testsuites>`); } catch {} };
    if (junit) { forge(); process.on("exit", forge); }
    """)

AGENTS = {
    "ts-in-process-flipper": {**_BESIDE, "src/calc.ts": TS_STUB + _IN_PROCESS},
    "ts-channel-reacher": {**_BESIDE, "src/calc.ts": TS_STUB + _REACHER},
    "ts-parent-planter": {**_BESIDE, **_PLANTED, "src/calc.ts": TS_STUB},
}
VOIDERS = {
    "ts-parent-killer": {**_BESIDE, "src/calc.ts": TS_STUB + _KILLER},
    "ts-junit-replacer": {**_BESIDE, "src/calc.ts": TS_STUB + _JUNIT_REPLACER},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def parent_attacks(request: pytest.FixtureRequest, shared_folder) -> AttackRun:
    needs_sandbox(request.param)
    folder = shared_folder / f"node-parent-{request.param}"
    folder.mkdir()
    return agentbench_run(folder, ["noop", *AGENTS, *VOIDERS], "easy/ts-calc", request.param,
                          files={**AGENTS, **VOIDERS})


def _canaries(run: AttackRun, agent: str) -> set[str]:
    log = json.loads((run.trial_dir(agent) / "logs" / "hidden-canaries.json").read_text())
    return {c["outcome"] for c in log["canaries"]}


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_product_code_in_a_test_child_reaches_nothing_that_judges(parent_attacks, agent):
    trial = parent_attacks.trial(agent)
    acceptance = trial.measurements.acceptance
    assert parent_attacks.hidden(agent) == (1, 10)  # what the stub earns honestly
    assert acceptance.tampering == () and acceptance.tests.problem is None
    assert _canaries(parent_attacks, agent) == {"failed"}
    assert trial.verified_score.total <= 10


def test_a_test_child_cannot_open_its_parents_descriptors_or_memory(parent_attacks):
    log = (parent_attacks.trial_dir("ts-channel-reacher") / "logs" / "acceptance.log").read_text()
    probes = {line.split("PROBE ", 1)[1].strip() for line in log.splitlines() if "PROBE " in line}
    assert {"parent-fd EACCES", "parent-mem EACCES", "parent-environ EACCES"} <= probes, log[-3000:]
    assert not any(p.startswith("parent-fd wrote") for p in probes)
    # the parent `node --test` opens no inspector on SIGUSR1 (and is not killed by it: nothing voided)
    assert "inspector unreached" in probes, log[-3000:]
    # libuv closes every descriptor but stdio in the children node starts: no pipe end inherited
    assert "self-single-pipes 0 wrote 0" in probes, log[-3000:]


# Go: the test binary is a child of the go command, whose stdout (test2json's events) is what the
# harness reads. Product code in the binary takes the go command's stdout with pidfd_getfd (or opens
# it, or its memory, through /proc) and writes forged events there: a pass for every hidden test.
_GO_REACHER = """
var _ = reach()

func reach() bool {
	if !strings.HasSuffix(os.Args[0], ".test") {
		return false
	}
	parent := os.Getppid()
	forged := ""
	for _, name := range []string{"TestAdd", "TestSub", "TestMul", "TestDiv", "TestPower"} {
		forged += `{"Action":"pass","Package":"example.com/calc","Test":"` + name + `","Elapsed":0}` + "\\n"
	}
	pidfd, _, errno := syscall.Syscall(434, uintptr(parent), 0, 0) // pidfd_open
	if errno != 0 {
		fmt.Fprintln(os.Stderr, "PROBE pidfd_open", errno)
	} else if fd, _, errno := syscall.Syscall(438, pidfd, 1, 0); errno != 0 { // pidfd_getfd(parent's stdout)
		fmt.Fprintln(os.Stderr, "PROBE getfd", errno)
	} else {
		_, err := syscall.Write(int(fd), []byte(forged))
		fmt.Fprintln(os.Stderr, "PROBE getfd wrote", err)
	}
	for _, what := range []string{"fd/1", "mem", "environ"} {
		f, err := os.OpenFile(fmt.Sprintf("/proc/%d/%s", parent, what), os.O_RDONLY, 0)
		if err != nil {
			fmt.Fprintln(os.Stderr, "PROBE parent-"+what, err)
		} else {
			f.Close()
			fmt.Fprintln(os.Stderr, "PROBE parent-"+what, "OPENED")
		}
	}
	return true
}
"""
_GO_IMPORTS = 'package calc\n\nimport (\n\t"fmt"\n\t"os"\n\t"strings"\n\t"syscall"\n)\n'
GO_AGENTS = {
    "go-stub": {"go.mod": GO_REF["go.mod"], "README.md": GO_REF["README.md"], "calc.go": GO_STUB},
    "go-channel-reacher": {"go.mod": GO_REF["go.mod"], "README.md": GO_REF["README.md"],
                           "calc.go": (GO_STUB + _GO_REACHER).replace("package calc\n", _GO_IMPORTS, 1)},
}


@pytest.fixture(scope="module", params=("none", "bwrap"))
def go_parent_attacks(request: pytest.FixtureRequest, shared_folder) -> AttackRun:
    needs_sandbox(request.param)
    folder = shared_folder / f"go-parent-{request.param}"
    folder.mkdir()
    return agentbench_run(folder, list(GO_AGENTS), "easy/go-calc", request.param, files=GO_AGENTS)


def test_a_go_test_binary_cannot_reach_the_go_commands_output(go_parent_attacks):
    """The go command runs undumpable: the binary can neither take its stdout (pidfd_getfd), open
    it, nor its memory, through /proc; it scores what the same stub scores."""
    trial = go_parent_attacks.trial("go-channel-reacher")
    assert go_parent_attacks.hidden("go-channel-reacher") == go_parent_attacks.hidden("go-stub")
    assert trial.measurements.acceptance.tampering == ()
    log = (go_parent_attacks.trial_dir("go-channel-reacher") / "logs" / "acceptance.log").read_text()
    probes = {json.loads(line).get("Output", "").strip() for line in log.splitlines() if "PROBE " in line}
    assert "PROBE getfd operation not permitted" in probes, log[-3000:]
    assert not any("OPENED" in p or "wrote" in p for p in probes), probes


def test_nothing_the_project_plants_is_loaded_by_any_node_process_of_the_hidden_run(parent_attacks):
    """An env file, `.npmrc` node-options, `node.config.json`, `package.json` imports/exports, a
    `node_modules` package, files planted in the hidden tests' folder: none loads `forge.mjs`."""
    logs = parent_attacks.trial_dir("ts-parent-planter") / "logs"
    for name in ("acceptance.log", "acceptance.err"):  # a child's stderr, the parent's
        assert "PROBE forge loaded" not in (logs / name).read_text()


@pytest.mark.parametrize("agent", sorted(VOIDERS))
def test_a_child_that_kills_its_parent_or_rewrites_its_junit_report_only_voids_its_run(parent_attacks, agent):
    """Killing the parent leaves a run that never finished; a JUnit report rewritten under the parent
    disagrees with what the parent counted: either voids the hidden tests (0 passed, the reason kept)."""
    trial = parent_attacks.trial(agent)
    acceptance = trial.measurements.acceptance
    assert acceptance.tests.passed == 0 and acceptance.tampering, acceptance
    reason = {"ts-parent-killer": "ended without finishing", "ts-junit-replacer": "the JUnit report says"}
    assert any(reason[agent] in t for t in acceptance.tampering), acceptance.tampering
    assert trial.verified_score.total <= 10
