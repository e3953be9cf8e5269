// Preloaded (--import) into the harness's hidden-test run, in the parent `node --test` and in every
// test file's child process before any test or product module: freezes the assertion and test APIs
// so product code cannot replace an assertion with a no-op, and puts the run's temp folder back in
// TMPDIR (glibc drops it in the undumpable tree the run is).
import assert from 'node:assert';
import strict from 'node:assert/strict';
import test from 'node:test';

if (process.env.AGENTBENCH_TMPDIR) process.env.TMPDIR = process.env.AGENTBENCH_TMPDIR;
for (const api of [assert, strict, test, test.mock]) {
  Object.freeze(api);
}
