import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch, PatchError, type Operation } from "../src/patch.ts";

function patch(doc: unknown, ops: unknown[]): unknown {
  return applyPatch(doc, ops as Operation[]);
}

function fails(doc: unknown, ops: unknown[], index: number): void {
  assert.throws(() => patch(doc, ops), (e: unknown) => e instanceof PatchError && e.index === index,
    JSON.stringify(ops));
}

// RFC 6902, appendix A
test("A.1 adding an object member", () => {
  assert.deepEqual(patch({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux" }]), { baz: "qux", foo: "bar" });
});

test("A.2 adding an array element", () => {
  assert.deepEqual(patch({ foo: ["bar", "baz"] }, [{ op: "add", path: "/foo/1", value: "qux" }]),
    { foo: ["bar", "qux", "baz"] });
});

test("A.3 / A.4 removing a member and an element", () => {
  assert.deepEqual(patch({ baz: "qux", foo: "bar" }, [{ op: "remove", path: "/baz" }]), { foo: "bar" });
  assert.deepEqual(patch({ foo: ["bar", "qux", "baz"] }, [{ op: "remove", path: "/foo/1" }]), { foo: ["bar", "baz"] });
});

test("A.5 replacing a value", () => {
  assert.deepEqual(patch({ baz: "qux", foo: "bar" }, [{ op: "replace", path: "/baz", value: "boo" }]),
    { baz: "boo", foo: "bar" });
});

test("A.6 / A.7 moving a value and an array element", () => {
  const doc = { foo: { bar: "baz", waldo: "fred" }, qux: { corge: "grault" } };
  assert.deepEqual(patch(doc, [{ op: "move", from: "/foo/waldo", path: "/qux/thud" }]),
    { foo: { bar: "baz" }, qux: { corge: "grault", thud: "fred" } });
  assert.deepEqual(patch({ foo: ["all", "grass", "cows", "eat"] }, [{ op: "move", from: "/foo/1", path: "/foo/3" }]),
    { foo: ["all", "cows", "eat", "grass"] });
});

test("A.8 / A.9 testing a value: success and error", () => {
  const doc = { baz: "qux", foo: ["a", 2, "c"] };
  assert.deepEqual(patch(doc, [{ op: "test", path: "/baz", value: "qux" }, { op: "test", path: "/foo/1", value: 2 }]), doc);
  fails({ baz: "qux" }, [{ op: "test", path: "/baz", value: "bar" }], 0);
});

test("A.10 adding a nested member object", () => {
  assert.deepEqual(patch({ foo: "bar" }, [{ op: "add", path: "/child", value: { grandchild: {} } }]),
    { foo: "bar", child: { grandchild: {} } });
});

test("A.11 ignoring unrecognized members of an operation", () => {
  assert.deepEqual(patch({ foo: "bar" }, [{ op: "add", path: "/baz", value: "qux", xyz: 123 }]), { foo: "bar", baz: "qux" });
});

test("A.12 adding to a nonexistent target", () => {
  fails({ foo: "bar" }, [{ op: "add", path: "/baz/bat", value: "qux" }], 0);
});

test("A.14 ~ escape ordering", () => {
  assert.deepEqual(patch({ "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: 10 }]), { "/": 9, "~1": 10 });
});

test("A.15 comparing strings and numbers", () => {
  fails({ "/": 9, "~1": 10 }, [{ op: "test", path: "/~01", value: "10" }], 0);
});

test("A.16 adding an array value", () => {
  assert.deepEqual(patch({ foo: ["bar"] }, [{ op: "add", path: "/foo/-", value: ["abc", "def"] }]),
    { foo: ["bar", ["abc", "def"]] });
});

test("add at the end index appends; beyond it fails", () => {
  assert.deepEqual(patch([1, 2], [{ op: "add", path: "/2", value: 3 }]), [1, 2, 3]);
  fails([1, 2], [{ op: "add", path: "/3", value: 3 }], 0);
  fails([1, 2], [{ op: "add", path: "/01", value: 3 }], 0);
});

test("the whole document can be replaced", () => {
  assert.deepEqual(patch({ a: 1 }, [{ op: "replace", path: "", value: { b: 2 } }]), { b: 2 });
  assert.deepEqual(patch({ a: 1 }, [{ op: "add", path: "", value: [] }]), []);
});

test("remove and replace need an existing target", () => {
  fails({ a: 1 }, [{ op: "remove", path: "/b" }], 0);
  fails({ a: [] }, [{ op: "replace", path: "/a/0", value: 1 }], 0);
});

test("copy makes an independent deep copy", () => {
  const result = patch({ a: { list: [1] } }, [{ op: "copy", from: "/a", path: "/b" }, { op: "add", path: "/b/list/-", value: 2 }]);
  assert.deepEqual(result, { a: { list: [1] }, b: { list: [1, 2] } });
});

test("a value cannot be moved into its own child", () => {
  fails({ a: { b: {} } }, [{ op: "move", from: "/a", path: "/a/b/c" }], 0);
  assert.deepEqual(patch({ a: 1 }, [{ op: "move", from: "/a", path: "/a" }]), { a: 1 });
  assert.deepEqual(patch({ ab: 1 }, [{ op: "move", from: "/ab", path: "/abc" }]), { abc: 1 });
});

test("test compares objects regardless of member order, arrays in order, numbers by value", () => {
  const doc = { o: { x: 1, y: [1, { z: null }] }, n: 1 };
  assert.ok(patch(doc, [{ op: "test", path: "/o", value: { y: [1, { z: null }], x: 1 } }, { op: "test", path: "/n", value: 1.0 }]));
  fails(doc, [{ op: "test", path: "/o/y", value: [{ z: null }, 1] }], 0);
  fails(doc, [{ op: "test", path: "/o", value: { x: 1 } }], 0);
  fails(doc, [{ op: "test", path: "/missing", value: null }], 0);
});

test("the input is never changed, even by values it shares", () => {
  const inner = { v: [1] };
  const doc = { a: inner };
  patch(doc, [{ op: "add", path: "/a/v/-", value: 2 }]);
  assert.deepEqual(doc, { a: { v: [1] } });
  const value = { deep: [1] };
  const result = patch({}, [{ op: "add", path: "/x", value }]) as { x: { deep: number[] } };
  result.x.deep.push(2);
  assert.deepEqual(value, { deep: [1] });
});

test("a failing operation applies nothing and names its index", () => {
  const doc = { list: [1, 2, 3] };
  fails(doc, [{ op: "remove", path: "/list/0" }, { op: "add", path: "/new", value: 1 }, { op: "remove", path: "/nope" }], 2);
  assert.deepEqual(doc, { list: [1, 2, 3] });
});

test("malformed operations are PatchErrors", () => {
  fails({}, [{ op: "jump", path: "/a" }], 0);
  fails({}, [{ op: "add", value: 1 }], 0);
  fails({}, [{ op: "add", path: "/a" }], 0);
  fails({ a: 1 }, [{ op: "copy", path: "/b" }], 0);
  fails({ a: 1 }, [{ op: "test", path: "/a" }], 0);
});

test("PatchError is an Error", () => {
  try {
    patch({}, [{ op: "remove", path: "/x" }]);
    assert.fail("no error");
  } catch (error) {
    assert.ok(error instanceof Error);
    assert.equal((error as PatchError).index, 0);
  }
});
