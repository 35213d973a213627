// Permission overlays against Letta's checkModPermissions composition (reference §4).
import { test, assertEqual, assertThrows } from "./harness.js";
import { composePermissionDecision, failedCheckDecision, normalizePermissionResult } from "../permission-compose.js";

test("only objects with a valid decision count; undefined is no opinion; null throws", () => {
  assertEqual(normalizePermissionResult(undefined), undefined);
  assertEqual(normalizePermissionResult({ decision: "deny", reason: "r" }), { decision: "deny", reason: "r" });
  assertEqual(normalizePermissionResult({ decision: "always_ask" }), undefined);
  assertEqual(normalizePermissionResult("allow"), undefined);
  assertEqual(normalizePermissionResult({}), undefined);
  assertThrows(() => normalizePermissionResult(null), "");
});

test("deny beats alwaysAsk beats ask beats allow; the first of each wins", () => {
  const d = (decision, id) => ({ decision, matchedRule: `mod permission:${id}` });
  assertEqual(composePermissionDecision([]), undefined);
  assertEqual(composePermissionDecision([d("allow", "a"), d("allow", "b")]), d("allow", "a"));
  assertEqual(composePermissionDecision([d("allow", "a"), d("ask", "b"), d("ask", "c")]), d("ask", "b"));
  assertEqual(composePermissionDecision([d("ask", "a"), d("alwaysAsk", "b")]), d("alwaysAsk", "b"));
  assertEqual(composePermissionDecision([d("alwaysAsk", "a"), d("allow", "b"), d("deny", "c"), d("deny", "e")]), d("deny", "c"));
});

test("a failed check denies with Letta's rule and reason", () => {
  assertEqual(failedCheckDecision("guard", new Error("boom")), {
    decision: "deny", matchedRule: "mod permission:guard", reason: "Mod permission 'guard' failed: boom",
  });
  assertEqual(failedCheckDecision("guard", "text").reason, "Mod permission 'guard' failed: text");
});
