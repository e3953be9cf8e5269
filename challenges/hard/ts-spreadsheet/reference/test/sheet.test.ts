import { test } from "node:test";
import assert from "node:assert/strict";
import { Sheet } from "../src/sheet.ts";

function sheet(cells: Record<string, string>): Sheet {
  const s = new Sheet();
  for (const [ref, input] of Object.entries(cells)) {
    s.set(ref, input);
  }
  return s;
}

test("inputs: numbers, text, empty", () => {
  const s = sheet({ A1: " 42 ", A2: "-1.5e1", A3: "hello", A4: ".5" });
  assert.equal(s.get("A1"), 42);
  assert.equal(s.get("a2"), -15);
  assert.equal(s.get("A3"), "hello");
  assert.equal(s.get("A4"), 0.5);
  assert.equal(s.get("B9"), "");
  assert.equal(s.getInput("A1"), " 42 ");
  s.set("A1", "");
  assert.equal(s.getInput("A1"), "");
  assert.throws(() => s.set("AA1", "1"), RangeError);
  assert.throws(() => s.get("A1000"), RangeError);
});

test("precedence and associativity", () => {
  const cases: Record<string, number> = { "=1+2*3": 7, "=(1+2)*3": 9, "=2^3^2": 512, "=-2^2": -4, "=2^-1": 0.5,
    "=10-4-3": 3, "=8/4/2": 1, "=1+1=2": 1, "=3>2>1": 0, "=--3": 3, "=1<>2": 1, "=2<=2": 1, "=3>=4": 0, "=1<2": 1 };
  for (const [formula, want] of Object.entries(cases)) {
    assert.equal(sheet({ A1: formula }).get("A1"), want, formula);
  }
});

test("references, recalculation and display", () => {
  const s = sheet({ A1: "1", A2: "=A1*3", A3: "=a2+b1" });
  assert.equal(s.get("A3"), 3);
  s.set("A1", "2");
  assert.equal(s.get("A3"), 6);
  s.set("B1", "=1/3");
  assert.equal(s.display("B1"), "0.3333333333");
  assert.equal(s.display("A3"), "6.333333333");
});

test("functions", () => {
  const s = sheet({ A1: "1", A2: "2", A3: "x", B1: "4", C1: "=SUM(A1:B2)", C2: "=average(a1:a3)", C3: "=MIN(A1:A3, -1)",
    C4: "=MAX(A3:A3)", C5: "=COUNT(A1:A3, 7)", C6: "=IF(A1>1, 1/0, 5)", C7: "=ABS(-3)", C8: "=ROUND(2.5, 0)", C9: "=ROUND(-1.25, 1)" });
  assert.deepEqual(["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"].map((r) => s.get(r)), [7, 1.5, -1, 0, 3, 5, 3, 3, -1.3]);
  assert.deepEqual(sheet({ A1: "=AVERAGE(B1:B3)" }).get("A1"), { error: "#DIV/0!" });
});

test("errors", () => {
  const s = sheet({ A1: "text", B1: "=A1+1", B2: "=1/0", B3: "=B2+B1", B4: "=1+", B5: "=AA1", B6: "=FOO(1)", B7: "=foo",
    B8: "=ABS(1, 2)", B9: "=A1:A2", C1: "=SUM()", C2: "=IF(B2, 1, 2)", C3: "=SUM(A1:A2, B2)", C4: "=1 $ 2", C5: "=SUM(AA1:A2)" });
  const codes = ["B1", "B2", "B3", "B4", "B5", "B6", "B7", "B8", "B9", "C1", "C2", "C3", "C4", "C5"].map((r) => s.display(r));
  assert.deepEqual(codes, ["#VALUE!", "#DIV/0!", "#DIV/0!", "#PARSE!", "#REF!", "#NAME?", "#NAME?", "#VALUE!",
    "#VALUE!", "#VALUE!", "#DIV/0!", "#DIV/0!", "#PARSE!", "#REF!"]);
});

test("cycles", () => {
  const s = sheet({ A1: "=B1", B1: "=A1", C1: "=A1+1", D1: "=D1", E1: "=IF(1, 2, E1)" });
  for (const ref of ["A1", "B1", "C1", "D1"]) {
    assert.deepEqual(s.get(ref), { error: "#CYCLE!" }, ref);
  }
  assert.equal(s.get("E1"), 2);
  s.set("B1", "5");
  assert.equal(s.get("C1"), 6);
  assert.deepEqual(s.filled(), ["A1", "B1", "C1", "D1", "E1"]);
});
