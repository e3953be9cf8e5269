import { test } from "node:test";
import assert from "node:assert/strict";
import { countWords, tokenize, topWords } from "../src/wordcount.ts";

test("tokenize lower-cases and keeps inner apostrophes", () => {
  assert.deepEqual(tokenize("Don't STOP -- 'quoted' 42x"), ["don't", "stop", "quoted", "42x"]);
});

test("tokenize handles unicode letters and empty runs", () => {
  assert.deepEqual(tokenize("Élan ''' über, naïve"), ["élan", "über", "naïve"]);
  assert.deepEqual(tokenize(""), []);
});

test("countWords counts in first-seen order", () => {
  assert.deepEqual([...countWords("b a b")], [["b", 2], ["a", 1]]);
});

test("countWords applies minLength and stop words", () => {
  const counts = countWords("The cat and the hat", { minLength: 3, stopWords: ["THE"] });
  assert.deepEqual([...counts], [["cat", 1], ["and", 1], ["hat", 1]]);
});

test("topWords orders by count then word", () => {
  const counts = new Map([["b", 2], ["a", 2], ["c", 3], ["d", 1]]);
  assert.deepEqual(topWords(counts, 3), [["c", 3], ["a", 2], ["b", 2]]);
  assert.deepEqual(topWords(counts, 10).length, 4);
  assert.deepEqual(topWords(counts, 0), []);
});

test("topWords rejects a bad n", () => {
  assert.throws(() => topWords(new Map(), -1), RangeError);
  assert.throws(() => topWords(new Map(), 1.5), RangeError);
});
