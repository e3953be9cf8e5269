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

function file(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "wc-acc-")), "words.txt");
  writeFileSync(path, text);
  return path;
}

test("cli: standard input, default top 10", () => {
  const words = Array.from({ length: 12 }, (_, i) => `w${String(i).padStart(2, "0")}`).join(" ");
  const result = cli([], words);
  assert.equal(result.status, 0);
  const lines = result.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 10);
  assert.equal(lines[0], "1\tw00");
});

test("cli: files counted together, tab-separated", () => {
  const result = cli(["--top", "2", file("Cat dog cat"), file("DOG dog bird")]);
  assert.equal(result.status, 0);
  assert.equal(result.stdout, "3\tdog\n2\tcat\n");
});

test("cli: --min-length", () => {
  const result = cli(["--min-length", "3"], "a ab abc abc");
  assert.equal(result.stdout, "2\tabc\n");
});

test("cli: unknown option exits 2 with an error line", () => {
  const result = cli(["--verbose"]);
  assert.equal(result.status, 2);
  assert.match(result.stderr, /^error: /);
  assert.equal(result.stdout, "");
});

test("cli: invalid numbers exit 2", () => {
  assert.equal(cli(["--top", "-1"]).status, 2);
  assert.equal(cli(["--top", "two"]).status, 2);
  assert.equal(cli(["--min-length"]).status, 2);
});

test("cli: unreadable file exits 1", () => {
  const missing = join(mkdtempSync(join(tmpdir(), "wc-acc-")), "missing.txt");
  const result = cli([missing]);
  assert.equal(result.status, 1);
  assert.equal(result.stderr.trim(), `error: cannot read ${missing}`);
});
