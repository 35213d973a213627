// structuredClone for the data mods pass around (the engine has no web
// platform). Covers what the HTML algorithm covers for plain data; functions,
// symbols and host objects throw a DOMException named DataCloneError, with Bun's message.

import { DOMException } from "./web/event-target.js";

/** What structuredClone throws for a value it cannot copy, as Bun throws it. */
const notCloneable = () => new DOMException("The object can not be cloned.", "DataCloneError");

/** Deep-copies `value` with structured-clone semantics (cycles kept). */
export function structuredCloneValue(value) {
  if (arguments.length === 0) {
    throw new TypeError("structuredClone requires a value to clone");
  }
  return cloneInto(value, new Map());
}

function cloneInto(value, seen) {
  if (value === null) return null;
  const type = typeof value;
  if (type === "function" || type === "symbol") {
    throw notCloneable();
  }
  if (type !== "object") return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const copy = new Array(value.length);
    seen.set(value, copy);
    for (const key of Object.keys(value)) copy[key] = cloneInto(value[key], seen);
    return copy;
  }
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof RegExp) return new RegExp(value.source, value.flags);
  if (value instanceof Map) {
    const copy = new Map();
    seen.set(value, copy);
    for (const [k, v] of value) copy.set(cloneInto(k, seen), cloneInto(v, seen));
    return copy;
  }
  if (value instanceof Set) {
    const copy = new Set();
    seen.set(value, copy);
    for (const v of value) copy.add(cloneInto(v, seen));
    return copy;
  }
  if (value instanceof ArrayBuffer) return value.slice(0);
  if (ArrayBuffer.isView(value)) {
    const Ctor = value.constructor;
    return new Ctor(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
  }
  if (value instanceof Error) {
    const copy = new Error(value.message);
    copy.name = value.name;
    if (value.stack !== undefined) copy.stack = value.stack;
    return copy;
  }
  if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) {
    throw notCloneable();
  }
  const copy = {};
  seen.set(value, copy);
  // Defined, not assigned: a `__proto__` key stays a key, as the structured clone keeps it.
  for (const key of Object.keys(value)) defineOwn(copy, key, cloneInto(value[key], seen));
  return copy;
}

/**
 * Sets `object[key]` as an assignment would, except that a `__proto__` key stays a key; with
 * the engine's own defineProperty, which a mod replacing the global's cannot change.
 */
const { defineProperty } = Object;
export const defineOwn = (object, key, value) =>
  defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
