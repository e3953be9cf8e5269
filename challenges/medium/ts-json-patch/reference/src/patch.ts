/** JSON Patch (RFC 6902): apply a list of operations to a copy of a document, atomically. */
import { arrayIndex, child, isObject, parsePointer, PointerError } from "./pointer.ts";

export type Operation =
  | { op: "add" | "replace" | "test"; path: string; value: unknown }
  | { op: "remove"; path: string }
  | { op: "move" | "copy"; path: string; from: string };

export class PatchError extends Error {
  readonly index: number;

  constructor(index: number, message: string) {
    super(`operation ${index}: ${message}`);
    this.name = "PatchError";
    this.index = index;
  }
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** JSON equality: objects by members in any order, arrays in order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

function parentOf(doc: unknown, tokens: string[]): unknown {
  return tokens.slice(0, -1).reduce((value, token) => child(value, token), doc);
}

function add(doc: unknown, path: string, value: unknown): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) {
    return value;
  }
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  if (Array.isArray(parent)) {
    parent.splice(last === "-" ? parent.length : arrayIndex(last, parent.length, true), 0, value);
  } else if (isObject(parent)) {
    parent[last] = value;
  } else {
    throw new PointerError(`cannot add ${JSON.stringify(last)} to a ${typeof parent}`);
  }
  return doc;
}

function remove(doc: unknown, path: string): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) {
    throw new PointerError("cannot remove the whole document");
  }
  const parent = parentOf(doc, tokens);
  const last = tokens[tokens.length - 1];
  child(parent, last);
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(last, parent.length, false), 1);
  } else {
    delete (parent as Record<string, unknown>)[last];
  }
  return doc;
}

function isProperPrefix(from: string, path: string): boolean {
  return path.startsWith(from + "/");
}

function field(operation: Record<string, unknown>, name: string): unknown {
  if (!Object.hasOwn(operation, name)) {
    throw new PointerError(`missing "${name}"`);
  }
  return operation[name];
}

function text(operation: Record<string, unknown>, name: string): string {
  const value = field(operation, name);
  if (typeof value !== "string") {
    throw new PointerError(`"${name}" must be a string`);
  }
  return value;
}

function apply(doc: unknown, operation: Record<string, unknown>): unknown {
  const path = text(operation, "path");
  switch (operation.op) {
    case "add":
      return add(doc, path, clone(field(operation, "value")));
    case "remove":
      return remove(doc, path);
    case "replace": {
      const value = clone(field(operation, "value"));
      return path === "" ? value : add(remove(doc, path), path, value);
    }
    case "move": {
      const from = text(operation, "from");
      if (isProperPrefix(from, path)) {
        throw new PointerError("cannot move a value into itself");
      }
      const value = getAt(doc, from);
      return from === path ? doc : add(remove(doc, from), path, value);
    }
    case "copy":
      return add(doc, path, clone(getAt(doc, text(operation, "from"))));
    case "test":
      if (!jsonEqual(getAt(doc, path), field(operation, "value"))) {
        throw new PointerError(`test failed at ${JSON.stringify(path)}`);
      }
      return doc;
    default:
      throw new PointerError(`unknown op ${JSON.stringify(operation.op)}`);
  }
}

function getAt(doc: unknown, pointer: string): unknown {
  return parsePointer(pointer).reduce((value, token) => child(value, token), doc);
}

/** Apply `patch` to a copy of `doc` (see the README); `doc` itself is never changed. */
export function applyPatch(doc: unknown, patch: Operation[]): unknown {
  let result = clone(doc);
  patch.forEach((operation, index) => {
    try {
      if (!isObject(operation)) {
        throw new PointerError("an operation must be an object");
      }
      result = apply(result, operation);
    } catch (error) {
      throw new PatchError(index, (error as Error).message);
    }
  });
  return result;
}
