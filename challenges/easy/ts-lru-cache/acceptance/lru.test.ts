import { test } from "node:test";
import assert from "node:assert/strict";
import { LRUCache } from "../src/lru.ts";

test("set and get; missing keys are undefined", () => {
  const cache = new LRUCache<string, string>(3);
  cache.set("x", "1");
  assert.equal(cache.get("x"), "1");
  assert.equal(cache.get("y"), undefined);
  assert.equal(cache.size, 1);
});

test("set returns the cache (chainable)", () => {
  const cache = new LRUCache<number, number>(2);
  assert.equal(cache.set(1, 1), cache);
});

test("the least recently used entry goes first", () => {
  const cache = new LRUCache<string, number>(3);
  cache.set("a", 1).set("b", 2).set("c", 3);
  cache.get("a");
  cache.set("d", 4);
  assert.equal(cache.has("b"), false);
  assert.deepEqual(cache.keys(), ["d", "a", "c"]);
});

test("keys() runs from most to least recently used", () => {
  const cache = new LRUCache<string, number>(5);
  cache.set("a", 1).set("b", 2).set("c", 3);
  cache.get("b");
  assert.deepEqual(cache.keys(), ["b", "c", "a"]);
});

test("peek does not refresh an entry", () => {
  const cache = new LRUCache<string, number>(2);
  cache.set("a", 1).set("b", 2);
  assert.equal(cache.peek("a"), 1);
  cache.set("c", 3);
  assert.equal(cache.peek("a"), undefined);
  assert.deepEqual(cache.keys(), ["c", "b"]);
});

test("has does not refresh an entry", () => {
  const cache = new LRUCache<string, number>(2);
  cache.set("a", 1).set("b", 2);
  assert.equal(cache.has("a"), true);
  cache.set("c", 3);
  assert.equal(cache.has("a"), false);
});

test("replacing a value makes it the most recent and never evicts", () => {
  const evicted: string[] = [];
  const cache = new LRUCache<string, number>(2, { onEvict: (k) => evicted.push(k) });
  cache.set("a", 1).set("b", 2).set("a", 3);
  assert.deepEqual(cache.keys(), ["a", "b"]);
  assert.equal(cache.size, 2);
  cache.set("c", 4);
  assert.deepEqual(evicted, ["b"]);
  assert.equal(cache.get("a"), 3);
});

test("onEvict gets the evicted key and value, in order", () => {
  const evicted: Array<[number, string]> = [];
  const cache = new LRUCache<number, string>(1, { onEvict: (k, v) => evicted.push([k, v]) });
  cache.set(1, "one").set(2, "two").set(3, "three");
  assert.deepEqual(evicted, [[1, "one"], [2, "two"]]);
  assert.deepEqual(cache.keys(), [3]);
});

test("delete and clear never call onEvict", () => {
  let calls = 0;
  const cache = new LRUCache<string, number>(2, { onEvict: () => calls++ });
  cache.set("a", 1).set("b", 2);
  assert.equal(cache.delete("a"), true);
  assert.equal(cache.delete("a"), false);
  cache.clear();
  assert.equal(cache.size, 0);
  assert.deepEqual(cache.keys(), []);
  assert.equal(calls, 0);
});

test("a deleted key frees its slot", () => {
  const evicted: string[] = [];
  const cache = new LRUCache<string, number>(2, { onEvict: (k) => evicted.push(k) });
  cache.set("a", 1).set("b", 2);
  cache.delete("a");
  cache.set("c", 3);
  assert.deepEqual(evicted, []);
  assert.deepEqual(cache.keys(), ["c", "b"]);
});

test("undefined values are stored and counted", () => {
  const cache = new LRUCache<string, number | undefined>(2);
  cache.set("u", undefined);
  assert.equal(cache.has("u"), true);
  assert.equal(cache.size, 1);
});

test("capacity must be a positive integer", () => {
  for (const bad of [0, -3, 2.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    assert.throws(() => new LRUCache<string, number>(bad), RangeError);
  }
  assert.equal(new LRUCache<string, number>(1).size, 0);
});

test("stays fast with many entries", () => {
  const cache = new LRUCache<number, number>(1000);
  for (let i = 0; i < 200_000; i++) {
    cache.set(i, i);
    cache.get(i - 500);
  }
  assert.equal(cache.size, 1000);
  assert.equal(cache.keys()[0], 199_999 - 500);
});
