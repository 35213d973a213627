// Comparisons of the live event after dispatch, made the way Letta's learning harness makes
// them (learning-harness.ts: stableJson, valuesMatch, objectContains). They run here because
// JSON cannot carry what they see out of the engine: a key holding `undefined` prints as
// `"key":undefined`, so it differs from a missing key. Only the outcome leaves the engine.

// The host's own copies: a mod replacing these globals must not change the comparison.
const stringify = JSON.stringify;
const entries = Object.entries;
const isArray = Array.isArray;
const localeCompare = Function.prototype.call.bind(String.prototype.localeCompare);

/** Letta's stableJson: keys sorted with localeCompare; `undefined` where JSON has nothing. */
export function stableJson(value) {
  if (isArray(value)) {
    return `[${value.map(stableJson).join(",")}]`;
  }
  if (typeof value === "object" && value !== null) {
    return `{${entries(value)
      .sort(([a], [b]) => localeCompare(a, b))
      .map(([key, item]) => `${stringify(key)}:${stableJson(item)}`)
      .join(",")}}`;
  }
  return stringify(value);
}

// Letta's harness would throw out of the whole run (a cycle overflows the stack, a bigint
// fails JSON.stringify); here the comparison fails and says why.
function printed(value) {
  try {
    return { text: stableJson(value) };
  } catch (error) {
    return { text: undefined, error: `cannot print the value: ${String(error && error.message)}` };
  }
}

function valuesMatch(actual, expected) {
  const a = printed(actual);
  return a.error === undefined && a.text === stableJson(expected);
}

/**
 * Runs `compare` ({compare: "args_equal" | "args_contain" | "input_prefix", expected}) on the
 * live `event`. Returns {matched, actual, mismatched}; `actual` is the printed live value.
 */
export function compareLive(compare, event) {
  const { compare: kind, expected } = compare;
  const subject = kind === "input_prefix"
    ? (isArray(event.input) ? event.input.slice(0, expected.length) : event.input)
    : event.args;
  const shown = printed(subject);
  const actual = shown.error ?? String(shown.text);
  if (kind === "args_contain") {
    const args = subject !== null && typeof subject === "object" ? subject : {};
    const mismatched = entries(expected)
      .filter(([key, value]) => !valuesMatch(args[key], value))
      .map(([key]) => key);
    return { matched: mismatched.length === 0, actual, mismatched };
  }
  if (kind === "args_equal" || kind === "input_prefix") {
    return { matched: valuesMatch(subject, expected), actual, mismatched: [] };
  }
  throw new Error(`unknown live comparison '${String(kind)}'`);
}
