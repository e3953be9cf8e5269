import { test } from "node:test";
import assert from "node:assert/strict";
import { formatPointer, getValue, parsePointer, PointerError } from "../src/pointer.ts";

const DOC = { foo: ["bar", "baz"], "": 0, "a/b": 1, "m~n": 8, nested: { list: [{ x: 1 }] } };

test("parse and format round trip", () => {
  assert.deepEqual(parsePointer(""), []);
  assert.deepEqual(parsePointer("/a~1b/m~0n/"), ["a/b", "m~n", ""]);
  assert.equal(formatPointer(["a/b", "m~n", ""]), "/a~1b/m~0n/");
});

test("bad pointers", () => {
  assert.throws(() => parsePointer("foo"), PointerError);
  assert.throws(() => parsePointer("/a~2"), PointerError);
});

test("getValue follows RFC 6901 examples", () => {
  assert.deepEqual(getValue(DOC, ""), DOC);
  assert.equal(getValue(DOC, "/foo/0"), "bar");
  assert.equal(getValue(DOC, "/"), 0);
  assert.equal(getValue(DOC, "/a~1b"), 1);
  assert.equal(getValue(DOC, "/m~0n"), 8);
  assert.equal(getValue(DOC, "/nested/list/0/x"), 1);
});

test("getValue errors", () => {
  for (const pointer of ["/missing", "/foo/01", "/foo/2", "/foo/-", "/a~1b/x"]) {
    assert.throws(() => getValue(DOC, pointer), PointerError, pointer);
  }
});
