// A minimal test harness for the host modules, run inside the real engine
// by the Rust test `js_unit_tests` (one Rust test per file).

import { advanceClock } from "../platform.js";

const tests = [];

/** Registers a test; `fn` may be async. */
export function test(name, fn) {
  tests.push({ name, fn });
}

function show(value) {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** Deep equality through JSON with sorted keys (the way Letta's harness compares). */
export function assertEqual(actual, expected, message = "") {
  const a = sortedJson(actual);
  const e = sortedJson(expected);
  if (a !== e) throw new Error(`${message ? `${message}: ` : ""}expected ${e}, got ${a}`);
}

/** Fails unless `condition` is truthy. */
export function assert(condition, message = "assertion failed") {
  if (!condition) throw new Error(message);
}

/** Fails unless `fn` throws an error whose message contains `fragment`. */
export function assertThrows(fn, fragment) {
  try {
    fn();
  } catch (error) {
    if (fragment && !String(error && error.message).includes(fragment)) {
      throw new Error(`expected an error containing ${show(fragment)}, got ${show(String(error && error.message))}`);
    }
    return error;
  }
  throw new Error(`expected an error containing ${show(fragment)}, nothing was thrown`);
}

function sortedJson(value) {
  return JSON.stringify(value, (_key, current) => {
    if (current && typeof current === "object" && !Array.isArray(current)) {
      return Object.fromEntries(Object.keys(current).sort().map((key) => [key, current[key]]));
    }
    return current;
  });
}

/**
 * Waits for `promise` as the engine's step loop does: promise jobs first, then a turn of the
 * virtual event loop (ticks, finished I/O, timers) whenever they alone are left to run.
 */
async function settle(promise) {
  const state = { done: false, failed: false, value: undefined };
  promise.then(
    (value) => Object.assign(state, { done: true, value }),
    (value) => Object.assign(state, { done: true, failed: true, value }),
  );
  for (let turns = 0; !state.done && turns < 100_000; turns++) {
    for (let jobs = 0; jobs < 10_000 && !state.done; jobs++) await null;
    if (!state.done && !advanceClock()) break;
  }
  if (!state.done) throw new Error("the test awaited a promise that can never settle");
  if (state.failed) throw state.value;
  return state.value;
}

globalThis.__modlearnTests = {
  async run() {
    const results = [];
    for (const { name, fn } of tests) {
      try {
        await settle(Promise.resolve().then(fn));
        results.push({ name, ok: true });
      } catch (error) {
        results.push({ name, ok: false, error: String(error && error.stack ? `${error.message}\n${error.stack}` : error) });
      }
    }
    return JSON.stringify(results);
  },
};
