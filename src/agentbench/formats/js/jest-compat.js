// Jest's API on node:test, for tests converted by `agentbench import exercism`: describe, it, test
// and the hooks are node:test's own (each test is registered from its test file and counted
// through the harness's reporter); `expect` implements jest's matchers. Exercism's skips (xit,
// xtest, xdescribe, .skip) were turned into plain calls by the conversion.
import { describe, it, test, before as beforeAll, after as afterAll, beforeEach, afterEach } from "node:test";
import __jcAssert from "node:assert/strict";
import { isDeepStrictEqual as __jcDeepEqual, inspect as __jcInspect } from "node:util";

const expect = (() => {
  function strip(value, seen = new Set()) {
    if (Array.isArray(value)) return value.map((v) => strip(v, seen));
    if (value && typeof value === "object" && !(value instanceof Date) && !(value instanceof RegExp)
        && !(value instanceof Map) && !(value instanceof Set) && !seen.has(value)) {
      seen.add(value);
      const out = {};
      for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = strip(v, seen);
      return out;
    }
    return value;
  }
  const equal = (a, b) => __jcDeepEqual(strip(a), strip(b));
  const show = (v) => __jcInspect(v, { depth: 6 });

  function thrown(fn) {
    try { fn(); } catch (err) { return { err }; }
    return null;
  }
  function matchesError(err, expected) {
    if (expected === undefined) return true;
    const message = err && typeof err === "object" && "message" in err ? String(err.message) : String(err);
    if (typeof expected === "string") return message.includes(expected);
    if (expected instanceof RegExp) return expected.test(message);
    if (typeof expected === "function") return err instanceof expected;
    if (expected && typeof expected === "object" && "message" in expected) return message === expected.message;
    return false;
  }
  function hasPath(obj, path) {
    const keys = Array.isArray(path) ? path : String(path).split(".");
    let cur = obj;
    for (const k of keys) {
      if (cur === null || cur === undefined || !(k in Object(cur))) return { ok: false };
      cur = cur[k];
    }
    return { ok: true, value: cur };
  }
  function subset(actual, expected) {
    if (expected && typeof expected === "object" && !Array.isArray(expected)) {
      return actual && typeof actual === "object" && Object.entries(expected).every(([k, v]) => subset(actual[k], v));
    }
    if (Array.isArray(expected)) return Array.isArray(actual) && actual.length === expected.length && expected.every((v, i) => subset(actual[i], v));
    return equal(actual, expected);
  }

  const MATCHERS = {
    toBe: (a, e) => [Object.is(a, e), `expected ${show(a)} to be ${show(e)}`],
    toEqual: (a, e) => [equal(a, e), `expected ${show(a)} to equal ${show(e)}`],
    toStrictEqual: (a, e) => [__jcDeepEqual(a, e), `expected ${show(a)} to strictly equal ${show(e)}`],
    toBeTruthy: (a) => [Boolean(a), `expected ${show(a)} to be truthy`],
    toBeFalsy: (a) => [!a, `expected ${show(a)} to be falsy`],
    toBeNull: (a) => [a === null, `expected ${show(a)} to be null`],
    toBeUndefined: (a) => [a === undefined, `expected ${show(a)} to be undefined`],
    toBeDefined: (a) => [a !== undefined, `expected a defined value`],
    toBeNaN: (a) => [Number.isNaN(a), `expected ${show(a)} to be NaN`],
    toBeInstanceOf: (a, e) => [a instanceof e, `expected ${show(a)} to be an instance of ${e && e.name}`],
    toContain: (a, e) => [a != null && (typeof a === "string" ? a.includes(e) : Array.from(a).includes(e)), `expected ${show(a)} to contain ${show(e)}`],
    toContainEqual: (a, e) => [Array.from(a ?? []).some((x) => equal(x, e)), `expected ${show(a)} to contain an item equal to ${show(e)}`],
    toHaveLength: (a, n) => [a != null && a.length === n, `expected length ${n}, got ${a == null ? a : a.length}`],
    toBeGreaterThan: (a, e) => [a > e, `expected ${show(a)} > ${show(e)}`],
    toBeGreaterThanOrEqual: (a, e) => [a >= e, `expected ${show(a)} >= ${show(e)}`],
    toBeLessThan: (a, e) => [a < e, `expected ${show(a)} < ${show(e)}`],
    toBeLessThanOrEqual: (a, e) => [a <= e, `expected ${show(a)} <= ${show(e)}`],
    toBeCloseTo: (a, e, digits = 2) => [Math.abs(e - a) < 10 ** -digits / 2, `expected ${show(a)} to be close to ${show(e)}`],
    toMatch: (a, e) => [typeof a === "string" && (e instanceof RegExp ? e.test(a) : a.includes(e)), `expected ${show(a)} to match ${show(e)}`],
    toMatchObject: (a, e) => [subset(a, e), `expected ${show(a)} to match ${show(e)}`],
    toHaveProperty: (a, path, ...value) => {
      const found = hasPath(a, path);
      return [found.ok && (value.length === 0 || equal(found.value, value[0])), `expected property ${show(path)}`];
    },
    toThrow: (fn, e) => {
      const got = thrown(fn);
      return [got !== null && matchesError(got.err, e), got ? `threw ${show(got.err)}, not ${show(e)}` : "expected a throw"];
    },
  };
  MATCHERS.toThrowError = MATCHERS.toThrow;

  function matchers(actual, negate, wrap) {
    return new Proxy({}, {
      get(_, name) {
        if (name === "not") return matchers(actual, !negate, wrap);
        if (name === "resolves" || name === "rejects") return asyncMatchers(actual, name, negate);
        const check = MATCHERS[name];
        if (!check) return () => { throw new Error(`jest matcher ${String(name)} is not supported by the AgentBench shim`); };
        return (...args) => wrap(() => {
          const [ok, message] = check(actual, ...args);
          if (ok === negate) __jcAssert.fail(negate ? `not: ${message}` : message);
        });
      },
    });
  }
  function asyncMatchers(promise, kind, negate) {
    return new Proxy({}, {
      get(_, name) {
        return async (...args) => {
          let value;
          let rejected = false;
          try { value = await promise; } catch (err) { value = err; rejected = true; }
          if (rejected !== (kind === "rejects")) __jcAssert.fail(`expected the promise to ${kind === "rejects" ? "reject" : "resolve"}`);
          const target = kind === "rejects" && (name === "toThrow" || name === "toThrowError") ? () => { throw value; } : value;
          matchers(target, negate, (run) => run())[name](...args);
        };
      },
    });
  }
  function expect(actual) {
    return matchers(actual, false, (run) => run());
  }
  return expect;
})();
