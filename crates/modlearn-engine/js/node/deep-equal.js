// Node's deep equality (util.isDeepStrictEqual, assert.deepStrictEqual and,
// with `strict` false, assert.deepEqual), written out: same prototypes and
// tags in strict mode, Object.is for primitives, Maps and Sets by content.

const tagOf = (value) => Object.prototype.toString.call(value);

export function deepEqual(a, b, strict = true, memo = new Map()) {
  if (strict ? Object.is(a, b) : a == b || (a !== a && b !== b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return false;
  }
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const tag = tagOf(a);
  if (tag !== tagOf(b)) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Date) {
    if (a.getTime() !== b.getTime()) return false;
  } else if (a instanceof RegExp) {
    if (a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false;
  } else if (a instanceof Error) {
    if (a.message !== b.message || a.name !== b.name) return false;
  } else if (ArrayBuffer.isView(a)) {
    if (a.byteLength !== b.byteLength) return false;
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    if (tag === "[object Float32Array]" || tag === "[object Float64Array]") {
      for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i]) && !(a[i] === b[i])) return false;
    } else {
      for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
    }
  } else if (a instanceof ArrayBuffer) {
    if (a.byteLength !== b.byteLength) return false;
    const x = new Uint8Array(a);
    const y = new Uint8Array(b);
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  } else if (a instanceof Number || a instanceof String || a instanceof Boolean) {
    if (!Object.is(a.valueOf(), b.valueOf())) return false;
  }
  // Cycles: a pair already being compared counts as equal.
  const seen = memo.get(a);
  if (seen === b) return true;
  memo.set(a, b);
  try {
    if (a instanceof Map) {
      if (a.size !== b.size) return false;
      for (const [key, value] of a) {
        if (b.has(key)) {
          if (!deepEqual(value, b.get(key), strict, memo)) return false;
          continue;
        }
        let found = false;
        for (const [otherKey, otherValue] of b) {
          if (deepEqual(key, otherKey, strict, memo) && deepEqual(value, otherValue, strict, memo)) {
            found = true;
            break;
          }
        }
        if (!found) return false;
      }
    } else if (a instanceof Set) {
      if (a.size !== b.size) return false;
      for (const value of a) {
        if (b.has(value)) continue;
        if (typeof value !== "object" || value === null) return false;
        if (![...b].some((other) => deepEqual(value, other, strict, memo))) return false;
      }
    }
    const keysA = ownKeys(a, strict);
    const keysB = ownKeys(b, strict);
    if (keysA.length !== keysB.length) return false;
    for (const key of keysA) {
      if (!Object.prototype.propertyIsEnumerable.call(b, key)) return false;
      if (!deepEqual(a[key], b[key], strict, memo)) return false;
    }
    return true;
  } finally {
    memo.delete(a);
  }
}

function ownKeys(value, strict) {
  const keys = Object.keys(value);
  if (!strict) return keys;
  return [...keys, ...Object.getOwnPropertySymbols(value).filter((symbol) => Object.prototype.propertyIsEnumerable.call(value, symbol))];
}
