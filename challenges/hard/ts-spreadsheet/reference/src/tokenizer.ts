/** Formula text -> tokens. */

export type TokenKind = "number" | "name" | "op" | "(" | ")" | "," | ":";

export interface Token {
  kind: TokenKind;
  text: string;
}

export class FormulaSyntaxError extends Error {}

const PATTERNS: Array<[TokenKind | "space", RegExp]> = [
  ["space", /^\s+/],
  ["number", /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/],
  ["name", /^[A-Za-z]+\d*/],
  ["op", /^(<=|>=|<>|[-+*/^=<>])/],
  ["(", /^\(/],
  [")", /^\)/],
  [",", /^,/],
  [":", /^:/],
];

function next(text: string): [TokenKind | "space", string] {
  for (const [kind, pattern] of PATTERNS) {
    const match = pattern.exec(text);
    if (match) {
      return [kind, match[0]];
    }
  }
  throw new FormulaSyntaxError(`unexpected character ${JSON.stringify(text[0])}`);
}

/** The tokens of a formula (without its leading `=`). */
export function tokenize(formula: string): Token[] {
  const tokens: Token[] = [];
  let rest = formula;
  while (rest !== "") {
    const [kind, text] = next(rest);
    if (kind !== "space") {
      tokens.push({ kind, text });
    }
    rest = rest.slice(text.length);
  }
  return tokens;
}
