import { test } from "node:test";
import assert from "node:assert/strict";
import { pairs, parse, stringify } from "../src/querystring.ts";

test("parse: plain pairs and a leading question mark", () => {
  assert.deepEqual(parse("?q=hello&page=2"), { q: "hello", page: "2" });
});

test("parse: percent-encoded components", () => {
  assert.deepEqual(parse("q=hello%20world&k%26=%3D"), { q: "hello world", "k&": "=" });
});

test("parse: empty parts and keys without a value", () => {
  assert.deepEqual(parse("a&&b="), { a: "", b: "" });
  assert.deepEqual(parse(""), {});
});

test("pairs keeps every pair in order", () => {
  assert.deepEqual(pairs("x=1&y=2&x=3"), [["x", "1"], ["y", "2"], ["x", "3"]]);
});

test("stringify: encodes keys and values in insertion order", () => {
  assert.equal(stringify({ q: "a b", "k&": "=" }), "q=a%20b&k%26=%3D");
  assert.equal(stringify({}), "");
});
