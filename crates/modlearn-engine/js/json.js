// JSON for values that come out of mod code: cycles, functions, symbols and
// bigints must not make the host throw while it reports on them. Shared
// (non-cyclic) references are written out in full each time.

/** Serialises `value`; a cycle becomes "[Circular]", a bigint a string. */
export function toJson(value) {
  const text = JSON.stringify(toPlain(value, []));
  return text === undefined ? "null" : text;
}

function toPlain(value, ancestors) {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "function") return `[Function ${value.name || "anonymous"}]`;
  if (typeof value === "symbol") return value.toString();
  if (value === null || typeof value !== "object") return value;
  // An inherited toJSON counts only from a class's prototype (Date's, say): a
  // mod may put one on Object.prototype, and the host's replies must not change.
  const toJSON = value.toJSON;
  if (typeof toJSON === "function" && !(toJSON === Object.prototype.toJSON && !Object.hasOwn(value, "toJSON"))) {
    return toPlain(toJSON.call(value), ancestors);
  }
  if (ancestors.includes(value)) return "[Circular]";
  ancestors.push(value);
  let plain;
  if (Array.isArray(value)) {
    plain = value.map((item) => {
      const converted = toPlain(item, ancestors);
      return converted === undefined ? null : converted;
    });
    // Arrays too: JSON.stringify asks each for a toJSON, which Array.prototype would inherit.
    Object.setPrototypeOf(plain, null);
  } else {
    // No prototype: JSON.stringify must not find a toJSON a mod put on Object.prototype.
    plain = Object.create(null);
    for (const key of Object.keys(value)) {
      const converted = toPlain(value[key], ancestors);
      if (converted !== undefined) plain[key] = converted;
    }
  }
  ancestors.pop();
  return plain;
}
