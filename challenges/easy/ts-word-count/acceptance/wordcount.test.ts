import { test } from "node:test";
import assert from "node:assert/strict";
import { countWords, tokenize, topWords } from "../src/wordcount.ts";

test("tokenize: the prompt's example", () => {
  assert.deepEqual(tokenize("Don't STOP -- 'quoted' 42x"), ["don't", "stop", "quoted", "42x"]);
});

test("tokenize: unicode letters and digits", () => {
  assert.deepEqual(tokenize("Größe: 3 Äpfel, ÉTÉ!"), ["größe", "3", "äpfel", "été"]);
});

test("tokenize: runs of only apostrophes are no word", () => {
  assert.deepEqual(tokenize("'' ' rock'n'roll ''x''"), ["rock'n'roll", "x"]);
});

test("tokenize: empty and punctuation-only text", () => {
  assert.deepEqual(tokenize(""), []);
  assert.deepEqual(tokenize("--- ... !!!"), []);
});

test("countWords: first-seen order and counts", () => {
  assert.deepEqual([...countWords("to be or not to be")], [["to", 2], ["be", 2], ["or", 1], ["not", 1]]);
});

test("countWords: minLength keeps words of exactly that length", () => {
  assert.deepEqual([...countWords("a bb ccc bb", { minLength: 2 })], [["bb", 2], ["ccc", 1]]);
});

test("countWords: stop words compared lower-cased", () => {
  assert.deepEqual([...countWords("The THE the end", { stopWords: new Set(["The"]) })], [["end", 1]]);
});

test("topWords: count descending, then word ascending", () => {
  const counts = new Map([["pear", 2], ["apple", 2], ["fig", 5], ["kiwi", 1]]);
  assert.deepEqual(topWords(counts, 3), [["fig", 5], ["apple", 2], ["pear", 2]]);
});

test("topWords: fewer words than n, and n = 0", () => {
  const counts = new Map([["a", 1]]);
  assert.deepEqual(topWords(counts, 5), [["a", 1]]);
  assert.deepEqual(topWords(counts, 0), []);
});

test("topWords: n must be a non-negative integer", () => {
  assert.throws(() => topWords(new Map(), -1), RangeError);
  assert.throws(() => topWords(new Map(), 2.5), RangeError);
  assert.throws(() => topWords(new Map(), Number.NaN), RangeError);
});
