import { test } from "node:test";
import assert from "node:assert/strict";
import { LRUCache } from "../src/lru.ts";

test("evicts the least recently used entry", () => {
  const evicted: Array<[string, number]> = [];
  const cache = new LRUCache<string, number>(2, { onEvict: (k, v) => evicted.push([k, v]) });
  cache.set("a", 1).set("b", 2);
  cache.get("a");
  cache.set("c", 3);
  assert.deepEqual(cache.keys(), ["c", "a"]);
  assert.deepEqual(evicted, [["b", 2]]);
  assert.equal(cache.size, 2);
});

test("peek and has do not change the order", () => {
  const cache = new LRUCache<string, number>(2);
  cache.set("a", 1).set("b", 2);
  assert.equal(cache.peek("a"), 1);
  assert.equal(cache.has("a"), true);
  cache.set("c", 3);
  assert.equal(cache.has("a"), false);
  assert.equal(cache.peek("zzz"), undefined);
  assert.equal(cache.get("zzz"), undefined);
});

test("replacing a value refreshes it without evicting", () => {
  const evicted: string[] = [];
  const cache = new LRUCache<string, number>(2, { onEvict: (k) => evicted.push(k) });
  cache.set("a", 1).set("b", 2).set("a", 10);
  assert.deepEqual(cache.keys(), ["a", "b"]);
  assert.equal(cache.get("a"), 10);
  assert.deepEqual(evicted, []);
});

test("delete and clear do not call onEvict", () => {
  const evicted: string[] = [];
  const cache = new LRUCache<string, number>(3, { onEvict: (k) => evicted.push(k) });
  cache.set("a", 1).set("b", 2);
  assert.equal(cache.delete("a"), true);
  assert.equal(cache.delete("a"), false);
  cache.clear();
  assert.equal(cache.size, 0);
  assert.deepEqual(evicted, []);
});

test("capacity must be a positive integer", () => {
  for (const bad of [0, -1, 1.5, Number.NaN]) {
    assert.throws(() => new LRUCache(bad), RangeError);
  }
});
