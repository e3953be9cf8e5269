import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LinkStore, randomCode } from "../src/store.ts";

test("codes are 7 characters of the alphabet", () => {
  assert.match(randomCode(), /^[A-Za-z0-9]{7}$/);
});

test("add, hit, list, delete", () => {
  const store = new LinkStore();
  assert.equal(store.add("bbb", "http://b"), true);
  assert.equal(store.add("bbb", "http://c"), false);
  store.add("aaa", "http://a");
  assert.equal(store.hit("bbb"), "http://b");
  assert.equal(store.hit("zzz"), undefined);
  assert.deepEqual(store.list().map((l) => [l.code, l.hits]), [["aaa", 0], ["bbb", 1]]);
  assert.equal(store.delete("aaa"), true);
  assert.equal(store.delete("aaa"), false);
  assert.notEqual(store.freeCode(), "bbb");
});

test("persists to its file", () => {
  const file = join(mkdtempSync(join(tmpdir(), "links-")), "links.json");
  const first = new LinkStore(file);
  first.add("abc", "https://example.org/");
  first.hit("abc");
  assert.deepEqual(new LinkStore(file).get("abc"), { code: "abc", url: "https://example.org/", hits: 1 });
});
