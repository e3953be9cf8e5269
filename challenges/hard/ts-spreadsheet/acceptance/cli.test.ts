import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const CLI = fileURLToPath(new URL("../src/cli.ts", import.meta.url));

function cli(args: string[], input = "") {
  return spawnSync(process.execPath, [CLI, ...args], { input, encoding: "utf8", timeout: 20000 });
}

test("cli: standard input, row by row then A to Z", () => {
  const result = cli([], "C2 =A1+B1\nB1 2\na1 1\nA2 hello world\n\nZ1 =1/0\n");
  assert.equal(result.status, 0);
  assert.equal(result.stdout, "A1\t1\nB1\t2\nZ1\t#DIV/0!\nA2\thello world\nC2\t3\n");
});

test("cli: a file, later lines win, empty input clears", () => {
  const file = join(mkdtempSync(join(tmpdir(), "sheet-")), "cells.txt");
  writeFileSync(file, "A1 1\nA1 =2*3\nB1 gone\nB1 \nA3 =A1/4\n");
  const result = cli([file]);
  assert.equal(result.status, 0);
  assert.equal(result.stdout, "A1\t6\nA3\t1.5\n");
});

test("cli: an invalid reference exits 2 naming the line", () => {
  const result = cli([], "A1 1\n\nAB12 3\n");
  assert.equal(result.status, 2);
  assert.equal(result.stdout, "");
  assert.match(result.stderr, /^error: line 3: /);
});
