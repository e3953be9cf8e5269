/** Tokens -> syntax tree, by recursive descent (precedence from the loosest: comparison, + -, * /,
 * unary + -, ^ which is right-associative and binds tighter than unary minus). */
import { FormulaSyntaxError, tokenize, type Token } from "./tokenizer.ts";

export type Node =
  | { type: "number"; value: number }
  | { type: "name"; name: string }
  | { type: "range"; from: string; to: string }
  | { type: "unary"; op: string; operand: Node }
  | { type: "binary"; op: string; left: Node; right: Node }
  | { type: "call"; name: string; args: Node[] };

const LEVELS: string[][] = [["=", "<>", "<", "<=", ">", ">="], ["+", "-"], ["*", "/"]];

class Parser {
  private position = 0;
  private readonly tokens: Token[];

  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  parse(): Node {
    const node = this.binary(0);
    if (this.peek() !== undefined) {
      throw new FormulaSyntaxError(`unexpected ${this.peek()?.text}`);
    }
    return node;
  }

  private peek(): Token | undefined {
    return this.tokens[this.position];
  }

  private take(kind?: string, text?: string): Token {
    const token = this.peek();
    if (token === undefined || (kind && token.kind !== kind) || (text && token.text !== text)) {
      throw new FormulaSyntaxError(`expected ${text ?? kind ?? "more"}, got ${token?.text ?? "the end"}`);
    }
    this.position++;
    return token;
  }

  private isOp(ops: string[]): boolean {
    const token = this.peek();
    return token?.kind === "op" && ops.includes(token.text);
  }

  private binary(level: number): Node {
    if (level === LEVELS.length) {
      return this.unary();
    }
    let left = this.binary(level + 1);
    while (this.isOp(LEVELS[level])) {
      const op = this.take().text;
      left = { type: "binary", op, left, right: this.binary(level + 1) };
    }
    return left;
  }

  private unary(): Node {
    if (this.isOp(["+", "-"])) {
      return { type: "unary", op: this.take().text, operand: this.unary() };
    }
    return this.power();
  }

  private power(): Node {
    const base = this.primary();
    if (this.isOp(["^"])) {
      this.take();
      return { type: "binary", op: "^", left: base, right: this.unary() };
    }
    return base;
  }

  private primary(): Node {
    const token = this.take();
    if (token.kind === "number") {
      return { type: "number", value: Number(token.text) };
    }
    if (token.kind === "(") {
      const inner = this.binary(0);
      this.take(")");
      return inner;
    }
    if (token.kind === "name") {
      return this.named(token.text.toUpperCase());
    }
    throw new FormulaSyntaxError(`unexpected ${token.text}`);
  }

  private named(name: string): Node {
    if (this.peek()?.kind === ":") {
      this.take(":");
      return { type: "range", from: name, to: this.take("name").text.toUpperCase() };
    }
    if (this.peek()?.kind === "(") {
      this.take("(");
      const args: Node[] = [];
      while (this.peek()?.kind !== ")") {
        args.push(this.binary(0));
        if (this.peek()?.kind !== ")") {
          this.take(",");
        }
      }
      this.take(")");
      return { type: "call", name, args };
    }
    return { type: "name", name };
  }
}

/** The syntax tree of a formula (FormulaSyntaxError when it does not parse). */
export function parseFormula(formula: string): Node {
  return new Parser(tokenize(formula)).parse();
}
