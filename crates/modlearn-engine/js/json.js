// JSON for values that come out of mod code: cycles, functions, symbols and
// bigints must not make the host throw while it reports on them. Shared
// (non-cyclic) references are written out in full each time.
//
// Object.prototype stays writable (seal.js says why), so nothing here may
// consult it: what toPlain builds has no prototype at all, arrays included
// (JSON.stringify asks every object and array it writes for a toJSON, and
// an array's chain ends in Object.prototype), and a toJSON is only taken
// from the value or a prototype below Object.prototype.

const { getOwnPropertyDescriptor, getPrototypeOf, keys, create, setPrototypeOf } = Object;
const ObjectPrototype = Object.prototype;
const isArray = Array.isArray;
const stringify = JSON.stringify;

/** Serialises `value`; a cycle becomes "[Circular]", a bigint a string. */
export function toJson(value) {
  const text = stringify(toPlain(value, []));
  return text === undefined ? "null" : text;
}

/** The value's toJSON, looked up without reading anything on Object.prototype. */
function ownToJson(value) {
  for (let object = value; object !== null && object !== ObjectPrototype; object = getPrototypeOf(object)) {
    const descriptor = getOwnPropertyDescriptor(object, "toJSON");
    if (descriptor === undefined) continue;
    if ("value" in descriptor) return descriptor.value;
    return descriptor.get === undefined ? undefined : descriptor.get.call(value);
  }
  return undefined;
}

function toPlain(value, ancestors) {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "function") return `[Function ${value.name || "anonymous"}]`;
  if (typeof value === "symbol") return value.toString();
  if (value === null || typeof value !== "object") return value;
  const toJSON = ownToJson(value);
  if (typeof toJSON === "function") return toPlain(toJSON.call(value), ancestors);
  if (ancestors.includes(value)) return "[Circular]";
  ancestors.push(value);
  let plain;
  if (isArray(value)) {
    // Not value.map: a mod's array may bring its own map or Symbol.species.
    plain = [];
    const length = value.length;
    for (let index = 0; index < length; index++) {
      const converted = toPlain(value[index], ancestors);
      plain.push(converted === undefined ? null : converted);
    }
    setPrototypeOf(plain, null);
  } else {
    plain = create(null);
    for (const key of keys(value)) {
      const converted = toPlain(value[key], ancestors);
      if (converted !== undefined) plain[key] = converted;
    }
  }
  ancestors.pop();
  return plain;
}
