import { test } from "node:test";
import assert from "node:assert/strict";
import { formatPointer, getValue, parsePointer, PointerError } from "../src/pointer.ts";

// RFC 6901, section 5
const DOC = { foo: ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, 'k"l': 6, " ": 7, "m~n": 8 };

test("RFC 6901 section 5 examples", () => {
  const cases: Array<[string, unknown]> = [["", DOC], ["/foo", ["bar", "baz"]], ["/foo/0", "bar"], ["/", 0],
    ["/a~1b", 1], ["/c%d", 2], ["/e^f", 3], ["/g|h", 4], ["/i\\j", 5], ['/k"l', 6], ["/ ", 7], ["/m~0n", 8]];
  for (const [pointer, want] of cases) {
    assert.deepEqual(getValue(DOC, pointer), want, pointer);
  }
});

test("parsePointer decodes ~1 before... in the right order (~01 is ~1, not /)", () => {
  assert.deepEqual(parsePointer("/~01"), ["~1"]);
  assert.deepEqual(parsePointer("/a//b"), ["a", "", "b"]);
});

test("formatPointer is the inverse", () => {
  for (const tokens of [[], [""], ["a/b", "~1", "m~n"], ["0", "-"]]) {
    assert.deepEqual(parsePointer(formatPointer(tokens)), tokens);
  }
  assert.equal(formatPointer(["~/"]), "/~0~1");
});

test("pointers must start with a slash and escape correctly", () => {
  for (const bad of ["foo", "#/foo", "/~", "/a~2b", "/~x"]) {
    assert.throws(() => parsePointer(bad), PointerError, bad);
  }
});

test("array indexes: decimal without leading zeros, in range", () => {
  const doc = { list: [10, 20, 30] };
  assert.equal(getValue(doc, "/list/0"), 10);
  assert.equal(getValue(doc, "/list/2"), 30);
  for (const bad of ["/list/3", "/list/-", "/list/01", "/list/-1", "/list/1.0", "/list/x", "/list/ 1"]) {
    assert.throws(() => getValue(doc, bad), PointerError, bad);
  }
});

test("missing members and stepping into scalars", () => {
  const doc = { a: { b: null }, n: 1, s: "str" };
  assert.equal(getValue(doc, "/a/b"), null);
  for (const bad of ["/x", "/a/c", "/n/0", "/s/0", "/a/b/c"]) {
    assert.throws(() => getValue(doc, bad), PointerError, bad);
  }
});

test("inherited properties are not members", () => {
  assert.throws(() => getValue({}, "/toString"), PointerError);
  assert.throws(() => getValue({}, "/__proto__"), PointerError);
});
