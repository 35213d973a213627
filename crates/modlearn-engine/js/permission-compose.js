// How Letta Code combines the answers of permission overlays
// (checkModPermissions, reference §4): which answers count and which wins.

import { errorText } from "./diagnostics.js";

const DECISIONS = new Set(["allow", "ask", "alwaysAsk", "deny"]);

/**
 * One overlay's answer: undefined is no opinion, an object with a valid
 * decision counts, anything else is ignored. Like Letta, this reads
 * `.decision` unguarded, so a `null` answer throws a TypeError.
 */
export function normalizePermissionResult(result) {
  if (result === undefined) return undefined;
  return DECISIONS.has(result.decision) ? result : undefined;
}

/** The rule a decision names: `mod permission:<id>`. */
export function matchedRule(id) {
  return `mod permission:${id}`;
}

/** The fail-closed decision when `check` throws; later overlays are not asked. */
export function failedCheckDecision(id, error) {
  const message = errorText(error);
  return { decision: "deny", matchedRule: matchedRule(id), reason: `Mod permission '${id}' failed: ${message}` };
}

/** First deny, else first alwaysAsk, else first ask, else first allow; undefined when none. */
export function composePermissionDecision(decisions) {
  for (const wanted of ["deny", "alwaysAsk", "ask", "allow"]) {
    const found = decisions.find((decision) => decision.decision === wanted);
    if (found) return found;
  }
  return undefined;
}
