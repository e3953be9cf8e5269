import { test } from "node:test";
import assert from "node:assert/strict";
import { IniSyntaxError, parse, stringify } from "../src/ini.ts";

function entries(doc: Map<string, Map<string, string>>): Array<[string, Array<[string, string]>]> {
  return [...doc].map(([name, keys]) => [name, [...keys]]);
}

test("global keys, sections, order kept", () => {
  const doc = parse("a = 1\nb = 2\n[one]\nz = 26\ny = 25\n[two]\nx = 24\n");
  assert.deepEqual(entries(doc), [["", [["a", "1"], ["b", "2"]]], ["one", [["z", "26"], ["y", "25"]]], ["two", [["x", "24"]]]]);
});

test("comments and blank lines are ignored; lines are trimmed", () => {
  const doc = parse("  ; note\n\t# note\n\n   [ main ]   \n  key   =   some value  \n");
  assert.deepEqual(entries(doc), [["main", [["key", "some value"]]]]);
});

test("CRLF line endings", () => {
  assert.deepEqual(entries(parse("[s]\r\na = 1\r\nb = 2\r\n")), [["s", [["a", "1"], ["b", "2"]]]]);
});

test("split at the first '=' only", () => {
  assert.deepEqual(parse("url = http://example.com/?a=b=c").get(""), new Map([["url", "http://example.com/?a=b=c"]]));
});

test("empty values and a section without keys", () => {
  const doc = parse("[empty]\n[s]\nk =\n");
  assert.deepEqual(entries(doc), [["empty", []], ["s", [["k", ""]]]]);
});

test("a repeated section continues; a repeated key replaces", () => {
  const doc = parse("[s]\na = 1\n[t]\nb = 2\n[s]\na = 3\nc = 4\n");
  assert.deepEqual(entries(doc), [["s", [["a", "3"], ["c", "4"]]], ["t", [["b", "2"]]]]);
});

test("quoted values keep spaces and decode escapes", () => {
  const doc = parse('q1 = "  x  "\nq2 = "a\\"b"\nq3 = "back\\\\slash"\nq4 = "two\\nlines"\nq5 = "; not a comment"');
  assert.deepEqual(doc.get(""), new Map([["q1", "  x  "], ["q2", 'a"b'], ["q3", "back\\slash"], ["q4", "two\nlines"], ["q5", "; not a comment"]]));
});

test("an unknown escape is an error", () => {
  assert.throws(() => parse('[s]\nk = "\\t"'), (e: unknown) => e instanceof IniSyntaxError && e.line === 2);
});

test("a line that is neither a key nor a header is an error naming its line", () => {
  assert.throws(() => parse("[s]\nk = v\n\njust words\n"), (e: unknown) => e instanceof IniSyntaxError && e.line === 4);
});

test("empty section names and empty keys are errors", () => {
  assert.throws(() => parse("[  ]"), (e: unknown) => e instanceof IniSyntaxError && e.line === 1);
  assert.throws(() => parse("a = 1\n= 2"), (e: unknown) => e instanceof IniSyntaxError && e.line === 2);
});

test("IniSyntaxError is an Error", () => {
  try {
    parse("oops");
    assert.fail("no error");
  } catch (error) {
    assert.ok(error instanceof Error);
    assert.ok(error instanceof IniSyntaxError);
    assert.equal((error as IniSyntaxError).line, 1);
  }
});

test("stringify: global section first, blank line between sections, final newline", () => {
  const doc = new Map([["b", new Map([["k", "v"]])], ["", new Map([["g", "1"]])], ["c", new Map([["x", "y"]])]]);
  assert.equal(stringify(doc), "g = 1\n\n[b]\nk = v\n\n[c]\nx = y\n");
});

test("stringify quotes only what needs it", () => {
  const doc = new Map([["s", new Map([["plain", "hello world"], ["empty", ""], ["pad", " x"], ["semi", "a;b"],
    ["hash", "#1"], ["quote", 'say "hi"'], ["slash", "a\\b"], ["nl", "a\nb"]])]]);
  assert.equal(stringify(doc),
    '[s]\nplain = hello world\nempty = ""\npad = " x"\nsemi = "a;b"\nhash = "#1"\nquote = "say \\"hi\\""\nslash = "a\\\\b"\nnl = "a\\nb"\n');
});

test("round trip of awkward values", () => {
  const doc = new Map([["", new Map([["a", "="]])], ["s p a c e", new Map([["k", ' \\"\n; # ']])]]);
  assert.deepEqual(entries(parse(stringify(doc))), entries(doc));
});
