/** The links and their hit counts, optionally kept in a JSON file (written atomically). */
import { randomInt } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";

export interface Link {
  code: string;
  url: string;
  hits: number;
}

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** A random 7-character code. */
export function randomCode(): string {
  return Array.from({ length: 7 }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}

export class LinkStore {
  private readonly links = new Map<string, Link>();
  private readonly file: string | undefined;

  constructor(file?: string) {
    this.file = file;
    for (const link of file === undefined ? [] : readLinks(file)) {
      this.links.set(link.code, link);
    }
  }

  get(code: string): Link | undefined {
    const link = this.links.get(code);
    return link && { ...link };
  }

  list(): Link[] {
    return [...this.links.values()].sort((a, b) => (a.code < b.code ? -1 : 1)).map((l) => ({ ...l }));
  }

  /** Add a link; false when the code is taken. */
  add(code: string, url: string): boolean {
    if (this.links.has(code)) {
      return false;
    }
    this.links.set(code, { code, url, hits: 0 });
    this.save();
    return true;
  }

  /** A code not yet in use. */
  freeCode(): string {
    let code = randomCode();
    while (this.links.has(code)) {
      code = randomCode();
    }
    return code;
  }

  delete(code: string): boolean {
    const removed = this.links.delete(code);
    if (removed) {
      this.save();
    }
    return removed;
  }

  /** Count a visit; the link's URL, or undefined for an unknown code. */
  hit(code: string): string | undefined {
    const link = this.links.get(code);
    if (link === undefined) {
      return undefined;
    }
    link.hits += 1;
    this.save();
    return link.url;
  }

  private save(): void {
    if (this.file === undefined) {
      return;
    }
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify({ links: [...this.links.values()] }));
    renameSync(temporary, this.file);
  }
}

function readLinks(file: string): Link[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return [];
  }
  const data = JSON.parse(text) as { links?: Link[] };
  return Array.isArray(data.links) ? data.links : [];
}
