import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "../src/cli.ts";

function exec(text: string): { code: number; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { code: run(text, (l) => out.push(l), (l) => err.push(l)), out, err };
}

test("prints cells row by row", () => {
  assert.deepEqual(exec("B2 =A1*2\nA1 21\n\nb1 hi there\nC1 x\nC1 \n"), { code: 0, out: ["A1\t21", "B1\thi there", "B2\t42"], err: [] });
});

test("an invalid reference exits 2", () => {
  assert.deepEqual(exec("A1 1\nZZ9 2\n"), { code: 2, out: [], err: ["error: line 2: invalid cell reference \"ZZ9\" (A1 to Z999)"] });
});

test("reads standard input", () => {
  const cli = fileURLToPath(new URL("../src/cli.ts", import.meta.url));
  const result = spawnSync(process.execPath, [cli], { input: "A1 =1/4\n", encoding: "utf8" });
  assert.equal(result.stdout, "A1\t0.25\n");
});

test("runs as the main module in this process too", async (t) => {
  const url = new URL("../src/cli.ts", import.meta.url);
  const input = join(mkdtempSync(join(tmpdir(), "cli-")), "in.txt");
  writeFileSync(input, "A1 =1/4\n");
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
  assert.deepEqual(lines, ["A1\t0.25"]);
});
