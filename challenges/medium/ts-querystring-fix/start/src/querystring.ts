/** Parsing and building URL query strings. */

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

/** Decode one component. */
export function decode(text: string): string {
  return decodeURIComponent(text);
}

/** A query string as an object; keys in first-seen order. */
export function parse(text: string): Query {
  const query: Query = {};
  for (const [key, value] of pairs(text)) {
    query[key] = value;
  }
  return query;
}

/** Build a query string: keys in insertion order, components percent-encoded. */
export function stringify(query: Query): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join("&");
}
