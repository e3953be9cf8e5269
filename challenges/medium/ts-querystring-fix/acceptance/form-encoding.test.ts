import { test } from "node:test";
import assert from "node:assert/strict";
import { decode, parse, stringify } from "../src/querystring.ts";

test("plus is a space in keys and values", () => {
  assert.deepEqual(parse("q=hello+world&full+name=Ada+L"), { q: "hello world", "full name": "Ada L" });
  assert.deepEqual(parse("x=a%2Bb"), { x: "a+b" });
});

test("repeated keys collect into arrays in order", () => {
  assert.deepEqual(parse("tag=a&x=1&tag=b&tag=c"), { tag: ["a", "b", "c"], x: "1" });
  assert.deepEqual(Object.keys(parse("b=1&a=2&b=3")), ["b", "a"]);
});

test("malformed escapes are kept as written", () => {
  assert.equal(decode("100%"), "100%");
  assert.equal(decode("%zz%41"), "%zzA");
  assert.equal(decode("%E2%82"), "%E2%82");
  assert.deepEqual(parse("p=50%25&q=%"), { p: "50%", q: "%" });
});

test("multi-byte escapes still decode", () => {
  assert.equal(decode("%E2%82%AC+%C3%A9"), "€ é");
});

test("stringify repeats the key of an array", () => {
  assert.equal(stringify({ tag: ["a", "b c"], x: "1" }), "tag=a&tag=b%20c&x=1");
  assert.deepEqual(parse(stringify({ tag: ["a", "b"] })), { tag: ["a", "b"] });
});

test("keys named like Object properties are plain keys", () => {
  assert.deepEqual(parse("constructor=1&constructor=2"), { constructor: ["1", "2"] });
});
