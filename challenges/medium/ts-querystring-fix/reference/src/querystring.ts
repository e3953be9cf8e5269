/** Parsing and building URL query strings (application/x-www-form-urlencoded rules). */

export type QueryValue = string | string[];
export type Query = Record<string, QueryValue>;

/** Split `text` (an optional leading `?` is ignored) into decoded key/value pairs. */
export function pairs(text: string): Array<[string, string]> {
  const body = text.startsWith("?") ? text.slice(1) : text;
  const out: Array<[string, string]> = [];
  for (const part of body.split("&")) {
    if (part === "") {
      continue;
    }
    const eq = part.indexOf("=");
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? "" : part.slice(eq + 1);
    out.push([decode(rawKey), decode(rawValue)]);
  }
  return out;
}

/** Decode one component: `+` is a space; a malformed escape is kept as written. */
export function decode(text: string): string {
  const spaced = text.replaceAll("+", " ");
  return spaced.replace(/(?:%[0-9a-fA-F]{2})+|%/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return decodeRun(run);
    }
  });
}

/** Decode escape by escape, keeping those that are not valid UTF-8 as written. */
function decodeRun(run: string): string {
  let out = "";
  let i = 0;
  while (i < run.length) {
    let decoded: string | null = null;
    for (let len = 4; len >= 1 && decoded === null; len--) {
      const chunk = run.slice(i, i + len * 3);
      if (chunk.length !== len * 3) {
        continue;
      }
      try {
        decoded = decodeURIComponent(chunk);
        i += len * 3;
      } catch {
        decoded = null;
      }
    }
    if (decoded === null) {
      out += run[i];
      i += 1;
    } else {
      out += decoded;
    }
  }
  return out;
}

/** A query string as an object; keys in first-seen order; a repeated key collects its values
 * into an array, in order. */
export function parse(text: string): Query {
  const query: Query = {};
  for (const [key, value] of pairs(text)) {
    const seen = Object.hasOwn(query, key) ? query[key] : undefined;
    if (seen === undefined) {
      query[key] = value;
    } else if (Array.isArray(seen)) {
      seen.push(value);
    } else {
      query[key] = [seen, value];
    }
  }
  return query;
}

/** Build a query string: keys in insertion order, an array repeating its key, components
 * percent-encoded. */
export function stringify(query: Query): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(item))}`);
    }
  }
  return parts.join("&");
}
