import { test } from "node:test";
import assert from "node:assert/strict";
import { IniSyntaxError, parse, stringify } from "../src/ini.ts";

test("parses sections, comments and global keys", () => {
  const doc = parse("top = 1\n; comment\n# also\n\n[server]\nhost = example.org \nport=8080\r\n[server]\nport = 9090\n");
  assert.deepEqual(doc, new Map([
    ["", new Map([["top", "1"]])],
    ["server", new Map([["host", "example.org"], ["port", "9090"]])],
  ]));
});

test("no global section without global keys", () => {
  assert.deepEqual([...parse("[a]\nx = 1\n").keys()], ["a"]);
  assert.deepEqual(parse(""), new Map());
});

test("quoted values and escapes", () => {
  const doc = parse('[q]\na = "  padded "\nb = "say \\"hi\\" \\\\ \\n"\nc = ""\nd = "x=y"');
  assert.deepEqual(doc.get("q"), new Map([["a", "  padded "], ["b", 'say "hi" \\ \n'], ["c", ""], ["d", "x=y"]]));
});

test("syntax errors name the line", () => {
  const cases: Array<[string, number]> = [["a = 1\nnonsense", 2], ["[]", 1], ["[s]\n = v", 2], ['x = "\\q"', 1],
    ['x = "a"b"', 1]];
  for (const [text, line] of cases) {
    assert.throws(() => parse(text), (error: unknown) => error instanceof IniSyntaxError && error.line === line);
  }
});

test("stringify writes global keys first and quotes when needed", () => {
  const doc = new Map([
    ["db", new Map([["name", "main"], ["note", "a; b"]])],
    ["", new Map([["empty", ""]])],
  ]);
  assert.equal(stringify(doc), 'empty = ""\n\n[db]\nname = main\nnote = "a; b"\n');
});

test("round trip", () => {
  const doc = new Map([["s", new Map([["k", ' "quoted" \\ back\nslash '], ["plain", "v"]])]]);
  assert.deepEqual(parse(stringify(doc)), doc);
});
