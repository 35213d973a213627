// node:assert: Node's assertions with Node's error class and codes. The
// messages follow Node's for the common cases; the diffs Node prints for
// deep comparisons are shortened to the two values.

import { inspect } from "./util.js";
import { deepEqual } from "./deep-equal.js";

export class AssertionError extends Error {
  constructor(options = {}) {
    const { message, actual, expected, operator } = options;
    super(message === undefined ? `${inspect(actual)} ${operator} ${inspect(expected)}` : String(message));
    this.name = "AssertionError";
    this.generatedMessage = message === undefined || options.generated === true;
    this.code = "ERR_ASSERTION";
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
  }
}

function fail(actual, expected, message, operator, generated) {
  if (message instanceof Error) throw message;
  throw new AssertionError({ message: message ?? generated, actual, expected, operator, generated: message === undefined });
}

function show(value) {
  return inspect(value, { depth: 1000, compact: false, sorted: false });
}

function comparison(header, actual, expected, operator) {
  return `${header}\n\n${show(actual)}\n\nshould ${operator} ${show(expected)}`;
}

export function ok(value, message) {
  if (!value) {
    fail(value, true, message, "==", arguments.length === 0 ? "No value argument passed to `assert.ok()`" : `${show(value)} == true`);
  }
}

export function equal(actual, expected, message) {
  if (!(actual == expected || (actual !== actual && expected !== expected))) fail(actual, expected, message, "==", `${show(actual)} == ${show(expected)}`);
}

export function notEqual(actual, expected, message) {
  if (actual == expected || (actual !== actual && expected !== expected)) fail(actual, expected, message, "!=", `${show(actual)} != ${show(expected)}`);
}

export function strictEqual(actual, expected, message) {
  if (!Object.is(actual, expected)) {
    const generated = typeof actual === "object" && actual !== null || typeof expected === "object" && expected !== null
      ? `Expected values to be strictly equal:\n+ actual - expected\n\n+ ${show(actual)}\n- ${show(expected)}\n`
      : `Expected values to be strictly equal:\n\n${show(actual)} !== ${show(expected)}\n`;
    fail(actual, expected, message, "strictEqual", generated);
  }
}

export function notStrictEqual(actual, expected, message) {
  if (Object.is(actual, expected)) fail(actual, expected, message, "notStrictEqual", `Expected "actual" to be strictly unequal to: ${show(expected)}`);
}

export function deepStrictEqual(actual, expected, message) {
  if (!deepEqual(actual, expected, true)) {
    fail(actual, expected, message, "deepStrictEqual", `Expected values to be strictly deep-equal:\n+ actual - expected\n\n+ ${show(actual)}\n- ${show(expected)}\n`);
  }
}

export function notDeepStrictEqual(actual, expected, message) {
  if (deepEqual(actual, expected, true)) fail(actual, expected, message, "notDeepStrictEqual", comparison("Expected \"actual\" not to be strictly deep-equal to:", actual, expected, "not equal"));
}

export function deepEqualLoose(actual, expected, message) {
  if (!deepEqual(actual, expected, false)) fail(actual, expected, message, "deepEqual", `Expected values to be loosely deep-equal:\n\n${show(actual)}\n\nshould loosely deep-equal\n\n${show(expected)}`);
}

export function notDeepEqual(actual, expected, message) {
  if (deepEqual(actual, expected, false)) fail(actual, expected, message, "notDeepEqual", `"actual" deepEqual "expected"`);
}

function matches(error, expected) {
  if (expected === undefined) return true;
  if (typeof expected === "function") {
    if (expected.prototype !== undefined && error instanceof expected) return true;
    if (Error.isPrototypeOf(expected) || expected === Error) return false;
    return expected.call({}, error) === true;
  }
  if (expected instanceof RegExp) return expected.test(String(error));
  if (typeof expected === "object" && expected !== null) {
    return Object.keys(expected).every((key) => {
      const want = expected[key];
      const have = error?.[key];
      return want instanceof RegExp && typeof have === "string" ? want.test(have) : deepEqual(have, want, true);
    });
  }
  return false;
}

export function throws(fn, expected, message) {
  if (typeof expected === "string") {
    message = expected;
    expected = undefined;
  }
  try {
    fn();
  } catch (error) {
    if (!matches(error, expected)) {
      if (typeof expected === "function" && expected.prototype !== undefined && !(error instanceof expected)) throw error;
      fail(error, expected, message, "throws", `The error did not match the expected value`);
    }
    return;
  }
  fail(undefined, expected, message, "throws", `Missing expected exception${expected?.name ? ` (${expected.name})` : ""}.`);
}

export function doesNotThrow(fn, expected, message) {
  try {
    fn();
  } catch (error) {
    fail(error, expected, typeof expected === "string" ? expected : message, "doesNotThrow", `Got unwanted exception.\nActual message: "${error?.message}"`);
  }
}

export async function rejects(promiseOrFn, expected, message) {
  if (typeof expected === "string") {
    message = expected;
    expected = undefined;
  }
  try {
    await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
  } catch (error) {
    if (!matches(error, expected)) fail(error, expected, message, "rejects", `The error did not match the expected value`);
    return;
  }
  fail(undefined, expected, message, "rejects", `Missing expected rejection${expected?.name ? ` (${expected.name})` : ""}.`);
}

export async function doesNotReject(promiseOrFn, expected, message) {
  try {
    await (typeof promiseOrFn === "function" ? promiseOrFn() : promiseOrFn);
  } catch (error) {
    fail(error, expected, typeof expected === "string" ? expected : message, "doesNotReject", `Got unwanted rejection.\nActual message: "${error?.message}"`);
  }
}

export function match(text, regexp, message) {
  if (!regexp.test(text)) fail(text, regexp, message, "match", `The input did not match the regular expression ${regexp}. Input:\n\n${show(text)}\n`);
}

export function doesNotMatch(text, regexp, message) {
  if (regexp.test(text)) fail(text, regexp, message, "doesNotMatch", `The input was expected to not match the regular expression ${regexp}. Input:\n\n${show(text)}\n`);
}

export function ifError(value) {
  if (value !== null && value !== undefined) {
    if (value instanceof Error) throw value;
    fail(value, null, undefined, "ifError", `ifError got unwanted exception: ${show(value)}`);
  }
}

function failAssertion(message = "Failed") {
  if (message instanceof Error) throw message;
  throw new AssertionError({ message, operator: "fail" });
}

function build(strict) {
  const assert = (value, message) => {
    if (!value) fail(value, true, message, "==", arguments.length === 0 ? "No value argument passed to `assert.ok()`" : `${show(value)} == true`);
  };
  Object.assign(assert, {
    ok, fail: failAssertion, throws, doesNotThrow, rejects, doesNotReject, match, doesNotMatch, ifError,
    strictEqual, notStrictEqual, deepStrictEqual, notDeepStrictEqual, AssertionError,
    equal: strict ? strictEqual : equal,
    notEqual: strict ? notStrictEqual : notEqual,
    deepEqual: strict ? deepStrictEqual : deepEqualLoose,
    notDeepEqual: strict ? notDeepStrictEqual : notDeepEqual,
  });
  return assert;
}

export const strict = build(true);
const assert = build(false);
assert.strict = strict;
strict.strict = strict;
export { failAssertion as fail, deepEqualLoose as deepEqual };
export default assert;
