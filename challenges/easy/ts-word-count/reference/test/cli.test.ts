import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { main, parseArgs } from "../src/cli.ts";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

function run(args: string[]): { code: number; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const code = main(args, (l) => out.push(l), (l) => err.push(l));
  return { code, out, err };
}

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "wc-")), "in.txt");
  writeFileSync(path, text);
  return path;
}

test("parseArgs reads options and files", () => {
  assert.deepEqual(parseArgs(["--top", "3", "a.txt", "--min-length", "2"]),
    { top: 3, minLength: 2, files: ["a.txt"] });
});

test("counts files together", () => {
  const result = run(["--top", "2", file("a b a"), file("b c b")]);
  assert.deepEqual(result, { code: 0, out: ["3\tb", "2\ta"], err: [] });
});

test("bad usage exits 2", () => {
  assert.equal(run(["--top", "x"]).code, 2);
  assert.equal(run(["--top"]).code, 2);
  assert.equal(run(["--bogus"]).code, 2);
  assert.match(run(["--bogus"]).err[0], /^error: /);
});

test("unreadable file exits 1", () => {
  const result = run(["/nonexistent/file.txt"]);
  assert.equal(result.code, 1);
  assert.deepEqual(result.err, ["error: cannot read /nonexistent/file.txt"]);
});

test("reads standard input as a process", () => {
  const result = spawnSync(process.execPath, [CLI, "--min-length", "2"], { input: "a bb bb", encoding: "utf8" });
  assert.equal(result.status, 0);
  assert.equal(result.stdout, "2\tbb\n");
});

test("runs as the main module in this process too", async (t) => {
  const url = new URL("../src/cli.ts", import.meta.url);
  const input = join(mkdtempSync(join(tmpdir(), "cli-")), "in.txt");
  writeFileSync(input, "a bb bb");
  const lines: string[] = [];
  t.mock.method(console, "log", (line: string) => { lines.push(line); });
  const [argv, exitCode] = [process.argv, process.exitCode];
  process.argv = [argv[0], fileURLToPath(url), input];
  try {
    await import(`${url.href}?main`);  // a fresh instance of the module, as `node src/cli.ts <file>` runs it
    assert.equal(process.exitCode, 0);
  } finally {
    [process.argv, process.exitCode] = [argv, exitCode];
  }
  assert.deepEqual(lines, ["2\tbb", "1\ta"]);
});

test("no file: reads standard input", () => {
  const out: string[] = [];
  assert.equal(main(["--top", "1"], (l) => out.push(l), () => {}, () => "b a b"), 0);
  assert.deepEqual(out, ["2\tb"]);
});
