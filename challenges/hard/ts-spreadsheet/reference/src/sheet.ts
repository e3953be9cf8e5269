/** A sheet of cells A1..Z999 holding numbers, text or formulas, with values always up to date. */
import { evaluate, isError, isRef, type CellError, type CellValue, type ErrorCode } from "./evaluator.ts";
import { FormulaSyntaxError } from "./tokenizer.ts";
import { parseFormula, type Node } from "./parser.ts";

export type { CellError, CellValue, ErrorCode };

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

type Content = { kind: "number"; value: number } | { kind: "text"; value: string }
  | { kind: "formula"; node: Node | null };

function normalize(ref: string): string {
  const upper = ref.toUpperCase();
  if (!isRef(upper)) {
    throw new RangeError(`invalid cell reference ${JSON.stringify(ref)} (A1 to Z999)`);
  }
  return upper;
}

function contentOf(input: string): Content {
  if (input.startsWith("=")) {
    try {
      return { kind: "formula", node: parseFormula(input.slice(1)) };
    } catch (error) {
      if (error instanceof FormulaSyntaxError) {
        return { kind: "formula", node: null };
      }
      throw error;
    }
  }
  const trimmed = input.trim();
  return NUMBER.test(trimmed) ? { kind: "number", value: Number(trimmed) } : { kind: "text", value: input };
}

/** Every cell's input, and values computed on demand (memoized until the next `set`). */
export class Sheet {
  private readonly inputs = new Map<string, string>();
  private readonly contents = new Map<string, Content>();
  private values = new Map<string, CellValue>();
  private readonly visiting = new Set<string>();

  set(ref: string, input: string): void {
    const key = normalize(ref);
    if (input === "") {
      this.inputs.delete(key);
      this.contents.delete(key);
    } else {
      this.inputs.set(key, input);
      this.contents.set(key, contentOf(input));
    }
    this.values = new Map();
  }

  getInput(ref: string): string {
    return this.inputs.get(normalize(ref)) ?? "";
  }

  get(ref: string): CellValue {
    return this.value(normalize(ref));
  }

  display(ref: string): string {
    const value = this.get(ref);
    if (isError(value)) {
      return value.error;
    }
    return typeof value === "number" ? String(Number(value.toPrecision(10))) : value;
  }

  /** The references of every non-empty cell, row by row, A to Z within a row. */
  filled(): string[] {
    const row = (ref: string): number => Number(ref.slice(1));
    return [...this.inputs.keys()].sort((a, b) => row(a) - row(b) || (a < b ? -1 : 1));
  }

  private value(key: string): CellValue {
    const known = this.values.get(key);
    if (known !== undefined) {
      return known;
    }
    if (this.visiting.has(key)) {
      return { error: "#CYCLE!" };
    }
    this.visiting.add(key);
    try {
      const value = this.compute(key);
      this.values.set(key, value);
      return value;
    } finally {
      this.visiting.delete(key);
    }
  }

  private compute(key: string): CellValue {
    const content = this.contents.get(key);
    if (content === undefined) {
      return "";
    }
    if (content.kind !== "formula") {
      return content.value;
    }
    return content.node === null ? { error: "#PARSE!" } : evaluate(content.node, (ref) => this.value(ref));
  }
}
