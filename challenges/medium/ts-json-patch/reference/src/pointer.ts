/** JSON Pointer (RFC 6901): parse, format and resolve. */

export class PointerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PointerError";
  }
}

function unescapeToken(token: string, pointer: string): string {
  if (/~(?![01])/.test(token)) {
    throw new PointerError(`invalid escape in pointer ${JSON.stringify(pointer)}`);
  }
  return token.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The reference tokens of `pointer` (`""` is the whole document). */
export function parsePointer(pointer: string): string[] {
  if (pointer === "") {
    return [];
  }
  if (!pointer.startsWith("/")) {
    throw new PointerError(`pointer ${JSON.stringify(pointer)} must start with "/"`);
  }
  return pointer.slice(1).split("/").map((token) => unescapeToken(token, pointer));
}

/** The pointer naming `tokens`. */
export function formatPointer(tokens: string[]): string {
  return tokens.map((t) => "/" + t.replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** Whether `value` is a JSON object (not an array, not null). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The array index a token names, or a PointerError (`allowEnd`: the index may equal the length). */
export function arrayIndex(token: string, length: number, allowEnd: boolean): number {
  if (!/^(0|[1-9][0-9]*)$/.test(token)) {
    throw new PointerError(`invalid array index ${JSON.stringify(token)}`);
  }
  const index = Number(token);
  if (index > length || (index === length && !allowEnd)) {
    throw new PointerError(`array index ${index} out of range`);
  }
  return index;
}

/** One step down from `value` by `token`. */
export function child(value: unknown, token: string): unknown {
  if (Array.isArray(value)) {
    return value[arrayIndex(token, value.length, false)];
  }
  if (isObject(value) && Object.hasOwn(value, token)) {
    return value[token];
  }
  throw new PointerError(`no member ${JSON.stringify(token)}`);
}

/** The value `pointer` names in `doc`. */
export function getValue(doc: unknown, pointer: string): unknown {
  return parsePointer(pointer).reduce((value, token) => child(value, token), doc);
}
