import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch, jsonEqual, PatchError, type Operation } from "../src/patch.ts";

test("add, remove, replace", () => {
  const doc = { a: [1, 2], b: { c: 1 } };
  const result = applyPatch(doc, [
    { op: "add", path: "/a/1", value: 9 },
    { op: "add", path: "/a/-", value: 3 },
    { op: "remove", path: "/b/c" },
    { op: "replace", path: "/b", value: "x" },
    { op: "add", path: "/new", value: { deep: true } },
  ]);
  assert.deepEqual(result, { a: [1, 9, 2, 3], b: "x", new: { deep: true } });
  assert.deepEqual(doc, { a: [1, 2], b: { c: 1 } });
});

test("move, copy, test", () => {
  const result = applyPatch({ a: { x: 1 }, b: [] }, [
    { op: "copy", from: "/a", path: "/b/0" },
    { op: "move", from: "/a/x", path: "/y" },
    { op: "test", path: "/b", value: [{ x: 1 }] },
    { op: "move", from: "/y", path: "/y" },
  ]);
  assert.deepEqual(result, { a: {}, b: [{ x: 1 }], y: 1 });
});

test("whole-document operations", () => {
  assert.deepEqual(applyPatch({ a: 1 }, [{ op: "add", path: "", value: [1] }]), [1]);
  assert.deepEqual(applyPatch([1], [{ op: "replace", path: "", value: "s" }]), "s");
});

test("failures are atomic and name the operation", () => {
  const doc = { a: 1 };
  const bad: Array<[Operation[], number]> = [
    [[{ op: "add", path: "/b", value: 2 }, { op: "test", path: "/a", value: 2 }], 1],
    [[{ op: "remove", path: "/zzz" }], 0],
    [[{ op: "add", path: "/x/y", value: 1 }], 0],
    [[{ op: "move", from: "/a", path: "/a/b" }], 0],
    [[{ op: "nope", path: "/a" } as unknown as Operation], 0],
    [[{ op: "add", path: "/a" } as unknown as Operation], 0],
    [[{ op: "remove", path: "" }], 0],
    [["x" as unknown as Operation], 0],
    [[{ op: "copy", path: "/c", from: 5 } as unknown as Operation], 0],
  ];
  for (const [patch, index] of bad) {
    assert.throws(() => applyPatch(doc, patch), (e: unknown) => e instanceof PatchError && e.index === index);
  }
  assert.deepEqual(doc, { a: 1 });
});

test("add into arrays checks the index", () => {
  assert.throws(() => applyPatch([1], [{ op: "add", path: "/2", value: 0 }]), PatchError);
  assert.throws(() => applyPatch("s", [{ op: "add", path: "/0", value: 0 }]), PatchError);
  assert.deepEqual(applyPatch([1], [{ op: "add", path: "/1", value: 2 }]), [1, 2]);
});

test("jsonEqual", () => {
  assert.ok(jsonEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] }));
  assert.ok(!jsonEqual([1, 2], [2, 1]));
  assert.ok(!jsonEqual({ a: 1 }, { a: 1, b: 2 }));
  assert.ok(!jsonEqual([], {}));
});
