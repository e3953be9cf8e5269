/** Syntax tree -> value, given a way to read cells. Errors are values, never exceptions. */
import type { Node } from "./parser.ts";

export type ErrorCode = "#PARSE!" | "#REF!" | "#NAME?" | "#VALUE!" | "#DIV/0!" | "#CYCLE!";

export interface CellError {
  error: ErrorCode;
}

export type CellValue = number | string | CellError;

/** Reads a cell's value by its (valid, upper-case) reference. */
export type CellReader = (ref: string) => CellValue;

const REF = /^([A-Z])([1-9]\d{0,2})$/;

/** Whether `name` is a valid cell reference (upper case). */
export function isRef(name: string): boolean {
  return REF.test(name);
}

export function isError(value: unknown): value is CellError {
  return typeof value === "object" && value !== null && "error" in value;
}

const fail = (error: ErrorCode): CellError => ({ error });

function numeric(value: CellValue): number | CellError {
  if (value === "") {
    return 0;
  }
  return typeof value === "string" ? fail("#VALUE!") : value;
}

function nameValue(name: string, read: CellReader): number | CellError {
  if (isRef(name)) {
    return numeric(read(name));
  }
  return /\d/.test(name) ? fail("#REF!") : fail("#NAME?");
}

function cellsOf(from: string, to: string): string[] | CellError {
  const a = REF.exec(from);
  const b = REF.exec(to);
  if (!a || !b) {
    return fail("#REF!");
  }
  const [c1, c2] = [a[1].charCodeAt(0), b[1].charCodeAt(0)].sort((x, y) => x - y);
  const [r1, r2] = [Number(a[2]), Number(b[2])].sort((x, y) => x - y);
  const refs: string[] = [];
  for (let row = r1; row <= r2; row++) {
    for (let col = c1; col <= c2; col++) {
      refs.push(`${String.fromCharCode(col)}${row}`);
    }
  }
  return refs;
}

const ARITHMETIC: Record<string, (a: number, b: number) => number | CellError> = {
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => (b === 0 ? fail("#DIV/0!") : a / b),
  "^": (a, b) => a ** b,
  "=": (a, b) => Number(a === b),
  "<>": (a, b) => Number(a !== b),
  "<": (a, b) => Number(a < b),
  "<=": (a, b) => Number(a <= b),
  ">": (a, b) => Number(a > b),
  ">=": (a, b) => Number(a >= b),
};

/** The numbers of aggregate arguments (ranges skip empty and text cells), or the first error. */
function collect(args: Node[], read: CellReader): number[] | CellError {
  const numbers: number[] = [];
  for (const arg of args) {
    if (arg.type === "range") {
      const refs = cellsOf(arg.from, arg.to);
      if (isError(refs)) {
        return refs;
      }
      for (const value of refs.map(read)) {
        if (isError(value)) {
          return value;
        }
        if (typeof value === "number") {
          numbers.push(value);
        }
      }
    } else {
      const value = evaluate(arg, read);
      if (isError(value)) {
        return value;
      }
      numbers.push(value);
    }
  }
  return numbers;
}

const AGGREGATES: Record<string, (numbers: number[]) => number | CellError> = {
  SUM: (n) => n.reduce((a, b) => a + b, 0),
  AVERAGE: (n) => (n.length === 0 ? fail("#DIV/0!") : n.reduce((a, b) => a + b, 0) / n.length),
  MIN: (n) => (n.length === 0 ? 0 : Math.min(...n)),
  MAX: (n) => (n.length === 0 ? 0 : Math.max(...n)),
  COUNT: (n) => n.length,
};

function round(x: number, digits: number): number {
  const factor = 10 ** Math.trunc(digits);
  return (Math.sign(x) * Math.round(Math.abs(x) * factor)) / factor;
}

function scalars(args: Node[], read: CellReader): number[] | CellError {
  const values: number[] = [];
  for (const arg of args) {
    const value = evaluate(arg, read);
    if (isError(value)) {
      return value;
    }
    values.push(value);
  }
  return values;
}

function call(name: string, args: Node[], read: CellReader): number | CellError {
  const aggregate = AGGREGATES[name];
  if (aggregate) {
    const numbers = args.length === 0 ? fail("#VALUE!") : collect(args, read);
    return isError(numbers) ? numbers : aggregate(numbers);
  }
  const arity: Record<string, number> = { IF: 3, ABS: 1, ROUND: 2 };
  if (!(name in arity)) {
    return fail("#NAME?");
  }
  if (args.length !== arity[name]) {
    return fail("#VALUE!");
  }
  if (name === "IF") {
    const condition = evaluate(args[0], read);
    return isError(condition) ? condition : evaluate(condition !== 0 ? args[1] : args[2], read);
  }
  const values = scalars(args, read);
  if (isError(values)) {
    return values;
  }
  return name === "ABS" ? Math.abs(values[0]) : round(values[0], values[1]);
}

/** The value of a syntax tree. */
export function evaluate(node: Node, read: CellReader): number | CellError {
  switch (node.type) {
    case "number":
      return node.value;
    case "name":
      return nameValue(node.name, read);
    case "range":
      return fail("#VALUE!");
    case "unary": {
      const operand = evaluate(node.operand, read);
      return isError(operand) || node.op === "+" ? operand : -operand;
    }
    case "binary": {
      const left = evaluate(node.left, read);
      if (isError(left)) {
        return left;
      }
      const right = evaluate(node.right, read);
      return isError(right) ? right : ARITHMETIC[node.op](left, right);
    }
    case "call":
      return call(node.name, node.args, read);
  }
}
