// Comparisons of the live event after dispatch, made the way Letta's learning harness makes
// them (learning-harness.ts: stableJson, valuesMatch, objectContains). They run here because
// JSON cannot carry what they see out of the engine: a key holding `undefined` prints as
// `"key":undefined`, so it differs from a missing key. Only the outcome leaves the engine.

import { defineOwn } from "./clone.js";

// The host's own copies: a mod replacing these globals must not change the comparison.
const stringify = JSON.stringify;
const entries = Object.entries;
const isArray = Array.isArray;
const localeCompare = Function.prototype.call.bind(String.prototype.localeCompare);
const arrayPush = Function.prototype.call.bind(Array.prototype.push);
const arrayFilter = Function.prototype.call.bind(Array.prototype.filter);
const arrayMap = Function.prototype.call.bind(Array.prototype.map);
const arrayJoin = Function.prototype.call.bind(Array.prototype.join);

/**
 * The live value, read once with the engine's own operations into arrays and objects of the
 * host's: the comparison then calls no method of the mod's arrays (an own `slice` or `map`
 * could show the judge the originals while the event holds something else). Keys whose value
 * is `undefined` are kept, as stableJson prints them.
 */
function readLive(value) {
  if (isArray(value)) return arrayMap(itemsOf(value, 0), readLive);
  if (typeof value === "object" && value !== null) {
    const copy = {};
    // Defined, not assigned: a `__proto__` key stays a key, as Letta's JSON-parsed args keep it.
    for (const [key, item] of entries(value)) defineOwn(copy, key, readLive(item));
    return copy;
  }
  return value;
}

/**
 * The items of the mod's array from index `from` (up to `to`), read one by one into an array
 * of the host's: `slice` would build its result with the array's own species constructor,
 * which the mod can point anywhere.
 */
function itemsOf(array, from, to = array.length) {
  const items = [];
  for (let index = from; index < to; index++) arrayPush(items, array[index]);
  return items;
}

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
    return { text: stableJson(readLive(value)) };
  } catch (error) {
    return { text: undefined, error: `cannot print the value: ${String(error && error.message)}` };
  }
}

function valuesMatch(actual, expected) {
  const a = printed(actual);
  return a.error === undefined && a.text === stableJson(expected);
}

/**
 * Letta's stringifyMessageContent, on the live content: a string is itself, an array the
 * joined text of its parts (through its own `map`, as Letta calls it), an object its string
 * `text`, anything else its JSON (`toJSON` included; a function has none, and joins as "").
 */
function messageText(content) {
  if (typeof content === "string") return content;
  if (isArray(content)) return content.map((part) => messageText(part)).join("");
  if (typeof content === "object" && content !== null) {
    const text = content.text;
    if (typeof text === "string") return text;
  }
  return content == null ? "" : stringify(content);
}

/** What was thrown, as text, whatever it is. */
function thrownText(error) {
  try {
    return String(error?.message ?? error);
  } catch {
    return "an exception that cannot be printed";
  }
}

/**
 * What Letta's turn_start check reads of the items appended after the first `from`: their
 * count, those whose live `role` is `role`, and those messages' text. Mod code may run here
 * (getters, proxies, toJSON); where it throws, Letta's harness would have failed outright.
 */
function appendedMessages(input, from, role) {
  const appended = isArray(input) ? itemsOf(input, from) : [];
  const found = { count: appended.length, matching: 0, text: "" };
  try {
    const matching = arrayFilter(appended, (message) => message.role === role);
    found.matching = matching.length;
    found.text = arrayJoin(arrayMap(matching, (message) => messageText(message.content)), "\n");
  } catch (error) {
    found.error = `reading the appended messages threw: ${thrownText(error)}`;
  }
  return found;
}

/**
 * Runs `compare` ({compare: "args_equal" | "args_contain" | "input_prefix", expected}) on the
 * live `event`. Returns {matched, actual, mismatched}; `actual` is the printed live value.
 * What decides the match is read once: the whole value, or for `args_contain` each expected
 * key's value (as Letta's objectContains looks at no other).
 */
export function compareLive(compare, event) {
  const { compare: kind, expected } = compare;
  const subject = kind === "input_prefix"
    ? (isArray(event.input) ? itemsOf(event.input, 0, expected.length < event.input.length ? expected.length : event.input.length) : event.input)
    : event.args;
  if (kind === "args_contain") {
    // Compared first, printed after, in Letta's order: a getter is judged on its first read,
    // and the details show what a later read gives (Letta's report serialises the live args).
    const args = subject !== null && typeof subject === "object" ? subject : {};
    const mismatched = entries(expected)
      .filter(([key, value]) => !valuesMatch(args[key], value))
      .map(([key]) => key);
    const actual = printed(subject);
    return { matched: mismatched.length === 0, actual: actual.error ?? String(actual.text), mismatched };
  }
  if (kind === "args_equal" || kind === "input_prefix") {
    const shown = printed(subject);
    const matched = shown.error === undefined && shown.text === stableJson(expected);
    const compared = { matched, actual: shown.error ?? String(shown.text), mismatched: [] };
    if (kind === "input_prefix") compared.appended = appendedMessages(event.input, expected.length, compare.role);
    return compared;
  }
  throw new Error(`unknown live comparison '${String(kind)}'`);
}
