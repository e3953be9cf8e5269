// Countable lines of JavaScript/TypeScript files, for line coverage: a line counts when, once the
// TypeScript types are stripped (as Node strips them to run the file), it holds code that is not
// a comment. Prints, per file, the UTF-16 offset of each countable line's
// first code character (what V8's coverage ranges are measured in), and the SHA-256 of the text V8
// compiles (types stripped): {"file": {"lines": [[line, offset], ...], "sha256": hex}}. Reads the file
// list (JSON) on stdin.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { stripTypeScriptTypes } from 'node:module';

const TS = /\.(ts|mts|cts)$/;

function stripped(file, text) {
  if (!TS.test(file)) return text;
  try {
    return stripTypeScriptTypes(text, { mode: 'strip' });
  } catch {
    return text;
  }
}

const REGEX_BEFORE = new Set('(,=:[!&|?{};+-*%<>~^'.split(''));

function codeOffsets(text) {
  const found = new Map();
  let line = 1, state = 'code', quote = '', prev = '';
  const depth = [];
  const mark = (i) => { if (!found.has(line)) found.set(line, i); };
  for (let i = 0; i < text.length; i++) {
    const c = text[i], n = text[i + 1];
    if (c === '\n') { line++; if (state === 'line') state = 'code'; continue; }
    if (state === 'line') continue;
    if (state === 'block') { if (c === '*' && n === '/') { state = 'code'; i++; } continue; }
    if (state === 'string') { mark(i); if (c === '\\') i++; else if (c === quote) state = 'code'; continue; }
    if (state === 'template') {
      mark(i);
      if (c === '\\') i++;
      else if (c === '`') state = 'code';
      else if (c === '$' && n === '{') { depth.push(0); state = 'code'; i++; }
      continue;
    }
    if (state === 'regex') { mark(i); if (c === '\\') i++; else if (c === '/') state = 'code'; continue; }
    if (/\s/.test(c)) continue;
    if (c === '/' && n === '/') { state = 'line'; continue; }
    if (c === '/' && n === '*') { state = 'block'; i++; continue; }
    mark(i);
    if (c === '"' || c === "'") { state = 'string'; quote = c; }
    else if (c === '`') state = 'template';
    else if (c === '/' && (prev === '' || REGEX_BEFORE.has(prev))) state = 'regex';
    else if (c === '{' && depth.length) depth[depth.length - 1]++;
    else if (c === '}' && depth.length) {
      if (depth[depth.length - 1] === 0) { depth.pop(); state = 'template'; } else depth[depth.length - 1]--;
    }
    prev = c;
  }
  return [...found.entries()];
}

const files = JSON.parse(fs.readFileSync(0, 'utf8'));
const result = {};
for (const file of files) {
  try {
    const text = stripped(file, fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));  // Node drops a BOM
    result[file] = { lines: codeOffsets(text), sha256: createHash('sha256').update(text, 'utf8').digest('hex') };
  } catch {
    result[file] = null;
  }
}
process.stdout.write(JSON.stringify(result));
