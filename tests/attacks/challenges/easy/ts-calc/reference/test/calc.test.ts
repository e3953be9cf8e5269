import { test } from "node:test";
import assert from "node:assert/strict";
import { add, div, mul, power, sub } from "../src/calc.ts";

test("add and sub", () => {
  assert.equal(add(2, 3), 5);
  assert.equal(sub(2, 3), -1);
});

test("mul and div", () => {
  assert.equal(mul(4, 5), 20);
  assert.equal(div(1, 4), 0.25);
  assert.throws(() => div(1, 0), RangeError);
});

test("power", () => {
  assert.equal(power(2, 10), 1024);
  assert.equal(power(7, 0), 1);
});
