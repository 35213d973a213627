// JSON for values that come out of mod code: cycles, functions, symbols and
// bigints must not make the host throw while it reports on them. Shared
// (non-cyclic) references are written out in full each time.
//
// Nothing here may take a toJSON from Object.prototype, which stays writable
// (seal.js says why): JSON.stringify asks every object and array it writes
// for one, and every chain ends there. Once the seal has closed
// Object.prototype to new properties (and it has no toJSON of its own), the
// engine's JSON.stringify is safe and is used directly; only a value it
// refuses (a cycle) or a prototype still open takes the careful walk, which
// builds a copy with no prototypes at all and asks only what lies below.

const { getOwnPropertyDescriptor, getPrototypeOf, keys, create, setPrototypeOf, isExtensible, hasOwn } = Object;
const ObjectPrototype = Object.prototype;
const isArray = Array.isArray;
const stringify = JSON.stringify;
// A raw JSON value is written out verbatim by JSON.stringify, and its text may be JSON the
// Rust side refuses (`1e1000` is out of a double's range): it is written as the object it is.
const isRawJSON = JSON.isRawJSON ?? (() => false);

/** Serialises `value`; a cycle becomes "[Circular]", a bigint a string. */
export function toJson(value) {
  let text;
  if (isExtensible(ObjectPrototype) || hasOwn(ObjectPrototype, "toJSON")) {
    text = stringify(toPlain(value, []));
  } else {
    try {
      text = stringify(value, replaceUnwritable);
    } catch {
      // A cycle, or mod code that threw (it then throws again below, where it is reported).
      text = stringify(toPlain(value, []));
    }
  }
  if (text === undefined) return "null";
  // JSON.stringify escapes a lone surrogate, which is no Unicode text: the Rust side would
  // refuse the whole reply and blame the host. It becomes U+FFFD, as a lossy decoder makes it.
  return text.includes("\\ud") ? text.replace(LONE_SURROGATE, "$1\\ufffd") : text;
}

/** An escaped surrogate in JSON.stringify's text (an escaped backslash before it does not count). */
const LONE_SURROGATE = /(?<!\\)((?:\\\\)*)\\ud[89a-f][0-9a-f]{2}/g;

/** What toPlain makes of the values JSON.stringify would drop or refuse. */
function replaceUnwritable(_key, value) {
  switch (typeof value) {
    case "bigint":
    case "symbol":
      return value.toString();
    case "function":
      return `[Function ${value.name || "anonymous"}]`;
    case "object":
      return value !== null && isRawJSON(value) ? { rawJSON: value.rawJSON } : value;
    default:
      return value;
  }
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

/**
 * The data of `value` as the host would read it property by property (as Letta's harness reads
 * an event's messages), never asking it for a toJSON: a copy of host objects with no
 * prototypes, whose JSON is what the judge sees of the live value.
 */
export function plainData(value) {
  return toPlain(value, [], false);
}

function toPlain(value, ancestors, honourToJson = true) {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "function") return `[Function ${value.name || "anonymous"}]`;
  if (typeof value === "symbol") return value.toString();
  if (value === null || typeof value !== "object") return value;
  const toJSON = honourToJson ? ownToJson(value) : undefined;
  if (typeof toJSON === "function") return toPlain(toJSON.call(value), ancestors);
  if (ancestors.includes(value)) return "[Circular]";
  ancestors.push(value);
  let plain;
  if (isArray(value)) {
    // Not value.map: a mod's array may bring its own map or Symbol.species.
    plain = [];
    const length = value.length;
    for (let index = 0; index < length; index++) {
      const converted = toPlain(value[index], ancestors, honourToJson);
      plain.push(converted === undefined ? null : converted);
    }
    setPrototypeOf(plain, null);
  } else {
    plain = create(null);
    for (const key of keys(value)) {
      const converted = toPlain(value[key], ancestors, honourToJson);
      if (converted !== undefined) plain[key] = converted;
    }
  }
  ancestors.pop();
  return plain;
}
