// A minimal test harness for the host modules, run inside the real engine
// by the Rust test `js_unit_tests` (one Rust test per file).

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

globalThis.__modlearnTests = {
  async run() {
    const results = [];
    for (const { name, fn } of tests) {
      try {
        await fn();
        results.push({ name, ok: true });
      } catch (error) {
        results.push({ name, ok: false, error: String(error && error.stack ? `${error.message}\n${error.stack}` : error) });
      }
    }
    return JSON.stringify(results);
  },
};
