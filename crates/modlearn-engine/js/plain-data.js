// The data a candidate-controlled value holds, copied once, for what a host reports.

const { isArray } = Array;
const { keys } = Object;

/**
 * Own enumerable properties, read as a tool body reads them. JSON would run a planted `toJSON`
 * and report something else than what the body gets; functions and symbols are not data and
 * are left out, a cycle becomes `"[Circular]"`.
 */
export function dataOf(value, seen = new Set(), depth = 0) {
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (value === null || typeof value !== "object") return value;
  if (seen.has(value)) return "[Circular]";
  if (depth > 64) return "[too deep]";
  seen.add(value);
  const copy = isArray(value) ? [] : {};
  for (const key of keys(value)) {
    const item = dataOf(value[key], seen, depth + 1);
    if (item !== undefined) copy[key] = item;
  }
  seen.delete(value);
  return copy;
}
