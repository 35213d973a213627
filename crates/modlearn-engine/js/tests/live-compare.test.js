// The live comparisons against Letta's learning harness (learning-harness.ts: stableJson,
// valuesMatch, objectContains), including what JSON would lose.
import { test, assert } from "./harness.js";
import { compareLive, stableJson } from "../live-compare.js";

function same(actual, expected, message) {
  if (actual !== expected) throw new Error(`${message}: expected ${expected}, got ${actual}`);
}

test("stableJson sorts keys and prints a key holding undefined", () => {
  same(stableJson({ b: 1, a: [2, { d: undefined, c: null }] }), '{"a":[2,{"c":null,"d":undefined}],"b":1}', "nested");
  same(stableJson(undefined), undefined, "top-level undefined is JSON's undefined");
});

test("args_equal fails on a key set to undefined, which JSON drops", () => {
  const event = { args: { command: "git status", note: undefined } };
  const compared = compareLive({ compare: "args_equal", expected: { command: "git status" } }, event);
  assert(!compared.matched, "a key holding undefined is a change");
  same(compared.actual, '{"command":"git status","note":undefined}', "actual");
  assert(JSON.stringify(event.args) === '{"command":"git status"}', "JSON alone would see no change");
});

test("args_equal ignores key order and number spelling", () => {
  const compared = compareLive({ compare: "args_equal", expected: { b: 120000, a: "x" } }, { args: { a: "x", b: 120000.0 } });
  assert(compared.matched, JSON.stringify(compared));
});

test("args_contain looks only at the expected keys and names the mismatched ones", () => {
  const event = { args: { command: "git push --dry-run", extra: true, description: undefined } };
  assert(compareLive({ compare: "args_contain", expected: { command: "git push --dry-run" } }, event).matched, "extra keys pass");
  const compared = compareLive({ compare: "args_contain", expected: { command: "x", description: "d" } }, event);
  assert(!compared.matched, "mismatch");
  same(compared.mismatched.join(","), "command,description", "mismatched keys in expected order");
});

test("input_prefix compares only the original items, live", () => {
  const expected = [{ type: "message", role: "user", content: "hi" }];
  const kept = { input: [{ type: "message", role: "user", content: "hi" }, { role: "system", content: "r" }] };
  assert(compareLive({ compare: "input_prefix", expected }, kept).matched, "appended items are not compared");
  const marked = { input: [{ type: "message", role: "user", content: "hi", seen: undefined }] };
  assert(!compareLive({ compare: "input_prefix", expected }, marked).matched, "a key holding undefined changes an item");
});

test("a value stableJson cannot print fails the comparison instead of throwing", () => {
  const args = { command: "x" };
  args.self = args;
  const compared = compareLive({ compare: "args_equal", expected: { command: "x" } }, { args });
  assert(!compared.matched, "a cycle does not match");
  assert(compared.actual.startsWith("cannot print the value"), compared.actual);
  const big = compareLive({ compare: "args_contain", expected: { n: 1 } }, { args: { n: 1n } });
  assert(!big.matched, "a bigint does not match");
});
