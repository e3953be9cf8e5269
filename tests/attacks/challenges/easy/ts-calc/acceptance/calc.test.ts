import { test } from "node:test";
import assert from "node:assert/strict";
import { add, div, mul, power, sub } from "../src/calc.ts";

test("add", () => assert.equal(add(2, 3), 5));
test("add negative", () => assert.equal(add(-2, -3), -5));
test("sub", () => assert.equal(sub(10, 4), 6));
test("mul", () => assert.equal(mul(6, 7), 42));
test("mul by zero", () => assert.equal(mul(6, 0), 0));
test("div", () => assert.equal(div(1, 4), 0.25));
test("div by zero", () => assert.throws(() => div(1, 0), RangeError));
test("div exact", () => assert.equal(div(9, 3), 3));
test("power", () => assert.equal(power(2, 10), 1024));
test("power zero", () => assert.equal(power(5, 0), 1));
