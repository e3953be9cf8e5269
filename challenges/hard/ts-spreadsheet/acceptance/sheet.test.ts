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

function value(formula: string, cells: Record<string, string> = {}): unknown {
  return sheet({ ...cells, Z999: formula }).get("Z999");
}

const err = (code: string) => ({ error: code });

test("numbers, text and empty cells", () => {
  const s = sheet({ A1: "7", B1: " -2.5 ", C1: "1e3", D1: "+.25", E1: "12abc", F1: "  spaced  " });
  assert.deepEqual(["A1", "B1", "C1", "D1", "E1", "F1", "G1"].map((r) => s.get(r)), [7, -2.5, 1000, 0.25, "12abc", "  spaced  ", ""]);
});

test("references are case-insensitive; invalid ones throw RangeError", () => {
  const s = new Sheet();
  s.set("z999", "1");
  assert.equal(s.get("Z999"), 1);
  assert.equal(s.getInput("z999"), "1");
  for (const bad of ["AA1", "A0", "A1000", "1A", "", "A 1", "A01"]) {
    assert.throws(() => s.set(bad, "1"), RangeError, bad);
  }
});

test("setting empty input empties the cell", () => {
  const s = sheet({ A1: "5", B1: "=A1" });
  s.set("A1", "");
  assert.equal(s.get("A1"), "");
  assert.equal(s.getInput("A1"), "");
  assert.equal(s.get("B1"), 0);
});

test("arithmetic precedence", () => {
  assert.equal(value("=2+3*4"), 14);
  assert.equal(value("=(2+3)*4"), 20);
  assert.equal(value("=20-5-3"), 12);
  assert.equal(value("=64/4/2"), 8);
  assert.equal(value("= 1 +  2 "), 3);
});

test("power: right-associative, tighter than unary minus", () => {
  assert.equal(value("=2^3^2"), 512);
  assert.equal(value("=-2^2"), -4);
  assert.equal(value("=(-2)^2"), 4);
  assert.equal(value("=2^-1"), 0.5);
  assert.equal(value("=-3+-2"), -5);
  assert.equal(value("=2*-3"), -6);
});

test("comparisons are loosest and give 1 or 0", () => {
  assert.equal(value("=1+1=2"), 1);
  assert.equal(value("=2*3<>6"), 0);
  assert.equal(value("=3>2>1"), 0);
  assert.equal(value("=1<2=1"), 1);
  assert.equal(value("=5>=5"), 1);
  assert.equal(value("=4<=3"), 0);
});

test("formulas follow later changes", () => {
  const s = sheet({ A1: "1", A2: "=A1+1", A3: "=A2*10" });
  assert.equal(s.get("A3"), 20);
  s.set("A1", "5");
  assert.equal(s.get("A3"), 60);
  s.set("A2", "=A1-1");
  assert.equal(s.get("A3"), 40);
  s.set("A1", "=2^3");
  assert.equal(s.get("A3"), 70);
});

test("a long chain of references", () => {
  const s = new Sheet();
  s.set("A1", "1");
  for (let row = 2; row <= 999; row++) {
    s.set(`A${row}`, `=A${row - 1}+1`);
  }
  assert.equal(s.get("A999"), 999);
  s.set("A1", "1001");
  assert.equal(s.get("A999"), 1999);
});

test("SUM, AVERAGE, MIN, MAX, COUNT over ranges and values", () => {
  const cells = { A1: "1", A2: "2", A3: "note", B1: "4", B2: "", B3: "=A1+A2" };
  assert.equal(value("=SUM(A1:B3)", cells), 10);
  assert.equal(value("=sum(B3:A1)", cells), 10);
  assert.equal(value("=AVERAGE(A1:A3)", cells), 1.5);
  assert.equal(value("=MIN(A1:B3, 0.5)", cells), 0.5);
  assert.equal(value("=MAX(A1:B3)", cells), 4);
  assert.equal(value("=COUNT(A1:B3)", cells), 4);
  assert.equal(value("=SUM(1, 2, A1*10)", cells), 13);
});

test("aggregates with no numbers", () => {
  const cells = { A1: "text" };
  assert.equal(value("=SUM(A1:A5)", cells), 0);
  assert.equal(value("=MIN(A1:A5)", cells), 0);
  assert.equal(value("=MAX(A2:A5)", cells), 0);
  assert.equal(value("=COUNT(A1:A5)", cells), 0);
  assert.deepEqual(value("=AVERAGE(A1:A5)", cells), err("#DIV/0!"));
});

test("IF evaluates only the chosen branch", () => {
  assert.equal(value("=IF(1, 10, 1/0)"), 10);
  assert.equal(value("=IF(0, 1/0, 20)"), 20);
  assert.equal(value("=IF(A1-5, 1, 2)", { A1: "5" }), 2);
  assert.equal(value("=IF(-1, 1, 2)"), 1);
  assert.deepEqual(value("=IF(1/0, 1, 2)"), err("#DIV/0!"));
});

test("ABS and ROUND (half away from zero)", () => {
  assert.equal(value("=ABS(-7.5)"), 7.5);
  assert.equal(value("=ROUND(2.5, 0)"), 3);
  assert.equal(value("=ROUND(-2.5, 0)"), -3);
  assert.equal(value("=ROUND(3.14159, 2)"), 3.14);
  assert.equal(value("=ROUND(1234, -2)"), 1200);
});

test("function names in any case", () => {
  assert.equal(value("=Max(1, 3) + min(4, 2) + Abs(-1)"), 6);
});

test("text in arithmetic, a range as a value, wrong argument counts: #VALUE!", () => {
  const cells = { A1: "word", A2: "2" };
  for (const formula of ["=A1+1", "=-A1", "=ABS(A1)", "=A2:A3", "=ABS(A2:A3)", "=IF(1, 2)", "=ROUND(1)", "=SUM()", "=ABS(1, 2)", "=SUM(A1)"]) {
    assert.deepEqual(value(formula, cells), err("#VALUE!"), formula);
  }
});

test("division by zero: #DIV/0!", () => {
  assert.deepEqual(value("=1/0"), err("#DIV/0!"));
  assert.deepEqual(value("=1/A1"), err("#DIV/0!"));
});

test("formulas that do not parse: #PARSE!", () => {
  for (const formula of ["=", "=1+", "=(1", "=1)", "=1 2", "=SUM(1,", "=1 # 2", "=A1:", "=*2"]) {
    assert.deepEqual(value(formula), err("#PARSE!"), formula);
  }
});

test("invalid references: #REF!; unknown names: #NAME?", () => {
  assert.deepEqual(value("=AA1+1"), err("#REF!"));
  assert.deepEqual(value("=A1000"), err("#REF!"));
  assert.deepEqual(value("=A0*2"), err("#REF!"));
  assert.deepEqual(value("=SUM(A1:A1000)"), err("#REF!"));
  assert.deepEqual(value("=PI"), err("#NAME?"));
  assert.deepEqual(value("=MEDIAN(1, 2)"), err("#NAME?"));
});

test("errors propagate, the first one left to right", () => {
  const cells = { A1: "=1/0", A2: "=A1+1", A3: "=FOO()", A4: "x" };
  assert.deepEqual(value("=A2*3", cells), err("#DIV/0!"));
  assert.deepEqual(value("=A3+A1", cells), err("#NAME?"));
  assert.deepEqual(value("=A1+A3", cells), err("#DIV/0!"));
  assert.deepEqual(value("=SUM(A1:A4)", cells), err("#DIV/0!"));
  assert.deepEqual(value("=SUM(A4:A4, A3, A1)", cells), err("#NAME?"));
  assert.deepEqual(value("=MAX(1, A4+1)", cells), err("#VALUE!"));
});

test("cycles: every cell on the cycle and every cell depending on one", () => {
  const s = sheet({ A1: "=B1+1", B1: "=C1+1", C1: "=A1+1", D1: "=C1*2", E1: "=E1", F1: "=SUM(A1:B1)", G1: "5" });
  for (const ref of ["A1", "B1", "C1", "D1", "E1", "F1"]) {
    assert.deepEqual(s.get(ref), err("#CYCLE!"), ref);
  }
  assert.equal(s.get("G1"), 5);
  s.set("C1", "1");
  assert.deepEqual(["A1", "B1", "C1", "D1"].map((r) => s.get(r)), [3, 2, 1, 2]);
});

test("display formats numbers to 10 significant digits", () => {
  const s = sheet({ A1: "=1/3", A2: "=2/3", A3: "=0.1+0.2", A4: "=10/4", A5: "1e21", A6: "text", A7: "=1/0", A8: "=100000*100000" });
  assert.deepEqual(["A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8", "A9"].map((r) => s.display(r)),
    ["0.3333333333", "0.6666666667", "0.3", "2.5", "1e+21", "text", "#DIV/0!", "10000000000", ""]);
});
