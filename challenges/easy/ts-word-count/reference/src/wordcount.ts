/** Word tokenizing and counting. */

export interface CountOptions {
  /** Words shorter than this many characters are left out (default 1). */
  minLength?: number;
  /** Words left out (compared lower-cased). */
  stopWords?: Iterable<string>;
}

const RUN = /[\p{L}\p{N}']+/gu;

/** The lower-cased words of `text`, in order (apostrophes at either end of a run dropped). */
export function tokenize(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(RUN)) {
    const word = match[0].replace(/^'+|'+$/g, "").toLowerCase();
    if (word !== "") {
      words.push(word);
    }
  }
  return words;
}

/** How often each word of `text` occurs, in first-seen order. */
export function countWords(text: string, options: CountOptions = {}): Map<string, number> {
  const minLength = options.minLength ?? 1;
  const stop = new Set([...(options.stopWords ?? [])].map((w) => w.toLowerCase()));
  const counts = new Map<string, number>();
  for (const word of tokenize(text)) {
    if (word.length >= minLength && !stop.has(word)) {
      counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return counts;
}

function byFrequency(a: [string, number], b: [string, number]): number {
  if (a[1] !== b[1]) {
    return b[1] - a[1];
  }
  return a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0;
}

/** The `n` most frequent words, count descending then word ascending. */
export function topWords(counts: Map<string, number>, n: number): Array<[string, number]> {
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`n must be a non-negative integer, got ${n}`);
  }
  return [...counts.entries()].sort(byFrequency).slice(0, n);
}
