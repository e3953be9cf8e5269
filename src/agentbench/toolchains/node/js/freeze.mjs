// Preloaded (--import) into the harness's hidden-test run before any test or product module:
// freezes the assertion and test APIs so product code cannot replace an assertion with a no-op.
import assert from 'node:assert';
import strict from 'node:assert/strict';
import test from 'node:test';

for (const api of [assert, strict, test, test.mock]) {
  Object.freeze(api);
}
