/** INI documents: parse text into sections of key/value pairs, and write them back. */

export type IniDocument = Map<string, Map<string, string>>;

/** A line that is not valid INI. */
export class IniSyntaxError extends Error {
  readonly line: number;

  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
    this.name = "IniSyntaxError";
    this.line = line;
  }
}

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", n: "\n" };

function unquote(raw: string, line: number): string {
  let out = "";
  for (let i = 1; i < raw.length - 1; i++) {
    const c = raw[i];
    if (c === '"') {
      throw new IniSyntaxError(line, "unescaped quote inside a quoted value");
    }
    if (c !== "\\") {
      out += c;
      continue;
    }
    const escaped = ESCAPES[raw[++i]];
    if (escaped === undefined || i >= raw.length - 1) {
      throw new IniSyntaxError(line, `invalid escape \\${raw[i] ?? ""}`);
    }
    out += escaped;
  }
  return out;
}

function parseValue(raw: string, line: number): string {
  if (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"')) {
    return unquote(raw, line);
  }
  return raw;
}

function section(doc: IniDocument, name: string): Map<string, string> {
  let entries = doc.get(name);
  if (entries === undefined) {
    entries = new Map();
    doc.set(name, entries);
  }
  return entries;
}

function parseLine(doc: IniDocument, current: string, text: string, line: number): string {
  if (text.startsWith("[") && text.endsWith("]")) {
    const name = text.slice(1, -1).trim();
    if (name === "") {
      throw new IniSyntaxError(line, "empty section name");
    }
    section(doc, name);
    return name;
  }
  const eq = text.indexOf("=");
  if (eq < 0) {
    throw new IniSyntaxError(line, `expected "key = value" or "[section]", got ${JSON.stringify(text)}`);
  }
  const key = text.slice(0, eq).trim();
  if (key === "") {
    throw new IniSyntaxError(line, "empty key");
  }
  section(doc, current).set(key, parseValue(text.slice(eq + 1).trim(), line));
  return current;
}

/** Parse INI text (see the README for the rules). */
export function parse(text: string): IniDocument {
  const doc: IniDocument = new Map([["", new Map()]]);
  let current = "";
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line !== "" && !line.startsWith(";") && !line.startsWith("#")) {
      current = parseLine(doc, current, line, index + 1);
    }
  });
  if (doc.get("")?.size === 0) {
    doc.delete("");
  }
  return doc;
}

function needsQuotes(value: string): boolean {
  return value === "" || value !== value.trim() || /["\\;#\n\r]/.test(value);
}

function formatValue(value: string): string {
  if (!needsQuotes(value)) {
    return value;
  }
  const escaped = value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
  return `"${escaped}"`;
}

function formatSection(name: string, entries: Map<string, string>): string {
  const lines = name === "" ? [] : [`[${name}]`];
  for (const [key, value] of entries) {
    lines.push(`${key} = ${formatValue(value)}`);
  }
  return lines.join("\n") + "\n";
}

/** Write a document as INI text that parses back to it. */
export function stringify(doc: IniDocument): string {
  const names = [...doc.keys()].sort((a, b) => (a === "" ? -1 : b === "" ? 1 : 0));
  return names.map((name) => formatSection(name, doc.get(name) as Map<string, string>)).join("\n");
}
