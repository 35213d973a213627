// The last step of building the sandbox, after deno_core and the backend
// have set up the global object: remove what the backend leaves there for
// itself (`__v8x*` intrinsics, one of which imports any module given any
// referrer), and replace what would let a mod read the host's clock or
// block its thread for good.

import { clock, HostAccessError, watchSetting } from "./platform.js";
import { performance } from "./web/install.js";

/** Globals the backend defines for its own use; none is part of any platform a mod targets. */
const BACKEND_PREFIXES = ["__v8x", "__bootstrap"];

/** Symbol-keyed globals of the backend's Temporal (which the seal removes): its slot tables. */
const BACKEND_SYMBOL_PREFIX = "@@Temporal__";

function removeBackendIntrinsics(global) {
  for (const key of Reflect.ownKeys(global)) {
    const backend = typeof key === "symbol"
      ? String(key.description).startsWith(BACKEND_SYMBOL_PREFIX)
      : BACKEND_PREFIXES.some((prefix) => key.startsWith(prefix));
    if (backend && !delete global[key]) throw new Error(`cannot remove the backend intrinsic ${String(key)}`);
  }
}

/**
 * `Atomics.wait` on the only thread there is: nothing can ever notify it,
 * so it is decided at once on the virtual clock instead of blocking the
 * engine (a finite timeout passes on the virtual clock; an infinite one
 * can never return and throws, which the host records).
 */
function installAtomicsWait(global) {
  const atomics = global.Atomics;
  if (!atomics) return;
  const load = atomics.load;
  Object.defineProperty(atomics, "wait", {
    configurable: true,
    writable: true,
    value: function wait(array, index, value, timeout) {
      if (load(array, index) !== value) return "not-equal";
      const ms = timeout === undefined ? Infinity : Number(timeout);
      if (!(ms < Infinity)) {
        throw new Error("Atomics.wait would block forever: no other thread can notify a mod's engine");
      }
      clock.now += Math.max(0, ms || 0);
      return "timed-out";
    },
  });
  // The backend's waitAsync leans on the intrinsics removed above.
  delete atomics.waitAsync;
}

/** `performance` on the virtual clock (js/web/install.js), whatever took the name since. */
function installPerformance(global) {
  Object.defineProperty(global, "performance", { configurable: true, writable: true, value: performance });
}

/**
 * Built-ins the host's own code calls after mod code has run (to parse
 * requests, walk its registry and timers, serialise replies). They are
 * frozen, and their global bindings made read-only, so no mod can hang the
 * host through them or forge what it reports. Object.prototype and
 * Error.prototype stay writable: freezing them would make ordinary
 * assignments such as `error.name = ...` or `object.toString = ...` throw
 * (the "override mistake"), and the host does not rely on what a mod can
 * put there (json.js takes a toJSON from none of them, host records have no
 * prototype). String.prototype is frozen: the host's paths, command lines and
 * encodings run through its methods. `Date` stays open (mods mock its
 * statics, as they may in Bun); the host only formats timestamps with it.
 * Object.prototype and the error prototypes are
 * closed instead (closePrototypes).
 */
const LOCKED_GLOBALS = [
  "JSON", "Reflect", "Math", "Atomics", "Object", "Array", "Map", "Set", "WeakMap", "WeakSet", "Promise",
  "Function", "String", "Symbol", "RegExp", "Number", "Boolean", "Proxy", "Error", "TypeError",
];

function iteratorPrototypes() {
  const protoOf = Object.getPrototypeOf;
  const arrayIterator = protoOf([][Symbol.iterator]());
  return [
    protoOf(arrayIterator),
    arrayIterator,
    protoOf(new Map()[Symbol.iterator]()),
    protoOf(new Set()[Symbol.iterator]()),
    protoOf(""[Symbol.iterator]()),
    protoOf(function* () {}).prototype,
    protoOf(protoOf(function* () {}).prototype),
  ];
}

function lockIntrinsics(global) {
  const frozen = new Set([global.Object.prototype, global.Error.prototype]);
  const freeze = (value) => {
    if ((typeof value !== "object" && typeof value !== "function") || value === null || frozen.has(value)) return;
    frozen.add(value);
    Object.freeze(value);
  };
  for (const name of LOCKED_GLOBALS) {
    const value = global[name];
    if (value === undefined) continue;
    Object.defineProperty(global, name, { value, writable: false, configurable: false, enumerable: false });
    // Errors keep their statics writable (mods set Error.stackTraceLimit); their bindings are locked above.
    if (name === "Error" || name === "TypeError") continue;
    freeze(value);
    if (typeof value === "function") freeze(value.prototype);
  }
  for (const prototype of iteratorPrototypes()) freeze(prototype);
  freeze(Function.prototype);
  // What the virtual platform encodes, decodes, slices and measures bytes with: a mod that
  // patched them could make a file hold one text and the judge read another.
  const TypedArray = Object.getPrototypeOf(global.Uint8Array);
  freeze(TypedArray);
  freeze(TypedArray.prototype);
  for (const name of TYPED_ARRAYS) {
    const value = global[name];
    if (value === undefined) continue;
    // Bound read-only as well: the world's files are made with the global constructors.
    lockBinding(global, name);
    freeze(value);
    freeze(value.prototype);
  }
}

/** Makes the global binding `name` read-only, as it is. */
function lockBinding(global, name) {
  const { value, enumerable } = Object.getOwnPropertyDescriptor(global, name);
  Object.defineProperty(global, name, { value, writable: false, configurable: false, enumerable });
}

/** The prototypes every host object's chain ends in: plain objects and arrays, and errors. */
const CLOSED_PROTOTYPES = [
  "Object", "Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError",
  "AggregateError", "InternalError", "SuppressedError",
];

/**
 * What a mod adds to Object.prototype, every host object inherits: a setter there receives
 * the values of the host's own assignments (an operation's host, the judge's expected
 * values, the objects it pushes into arrays, through an index setter), and a getter answers
 * the host's reads of what it never set. So these prototypes take no new properties, and
 * none of theirs can become an accessor. Their properties stay writable: assignments that
 * shadow them (`error.name = ...`) work as before, which freezing would break.
 */
function closePrototypes(global) {
  const close = (object) => {
    for (const key of Reflect.ownKeys(object)) {
      if (Reflect.getOwnPropertyDescriptor(object, key).configurable) Reflect.defineProperty(object, key, { configurable: false });
    }
    Object.preventExtensions(object);
  };
  for (const name of CLOSED_PROTOTYPES) {
    const constructor = global[name];
    if (constructor === undefined) continue;
    close(constructor.prototype);
    if (name === "Object") continue;
    // The constructors too: a `Symbol.hasInstance` of the mod's would answer the host's
    // `instanceof Error`, and throw there to stop a record being made. Their statics stay
    // writable (mods set `Error.stackTraceLimit`), and so does their global binding's value.
    close(constructor);
    lockBinding(global, name);
  }
  // The host's own error classes, which reach mods as what they catch.
  for (const constructor of [HostAccessError, global.DOMException]) {
    if (typeof constructor !== "function") continue;
    close(constructor.prototype);
    close(constructor);
  }
}

/** Typed arrays, their buffers and node's Buffer: frozen with their prototypes (lockIntrinsics). */
const TYPED_ARRAYS = [
  "Buffer", "ArrayBuffer", "SharedArrayBuffer", "DataView", "Uint8Array", "Uint8ClampedArray", "Int8Array", "Uint16Array",
  "Int16Array", "Uint32Array", "Int32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array",
];

/**
 * How deep the host looks into a stack to find a candidate's frame (`withHostStackLimit`): as
 * deep as the engine keeps (QuickJS: 64 frames; platform.js counts a stack that deep as the
 * mod's), since native and host frames count against the limit before the host's frames are
 * dropped, and a mod can put any number of them above its own.
 */
const HOST_STACK_LIMIT = 1_000_000;

/** The engine's own stackTraceLimit accessors, which only the host keeps. */
let nativeStackLimit = null;

/**
 * Error.prepareStackTrace is the host's for good: whatever function sits
 * there is handed call sites whose getThis() and getFunction() are the real
 * receiver and function of every frame on the stack, the host's frames (its
 * operations, the host object itself) included. A mod's assignment is
 * accepted and ignored. Error.stackTraceLimit stays the mod's to set (it
 * shapes its own stacks), but its property cannot be replaced, and the host
 * reads the stacks it relies on with a limit of its own (`withHostStackLimit`).
 */
function lockStackTraces(global) {
  const ErrorConstructor = global.Error;
  const prepare = ErrorConstructor.prepareStackTrace;
  Object.defineProperty(ErrorConstructor, "prepareStackTrace", {
    configurable: false,
    enumerable: false,
    get: () => prepare,
    set: () => {},
  });
  const limit = Object.getOwnPropertyDescriptor(ErrorConstructor, "stackTraceLimit");
  if (limit && typeof limit.get === "function" && typeof limit.set === "function") {
    nativeStackLimit = { get: limit.get, set: limit.set, owner: ErrorConstructor };
    watchSetting("Error.stackTraceLimit", () => limit.get.call(ErrorConstructor));
    Object.defineProperty(ErrorConstructor, "stackTraceLimit", {
      configurable: false,
      enumerable: limit.enumerable,
      get: () => limit.get.call(ErrorConstructor),
      // Coerced here, in the mod's own call: the engine reads the limit on every error.
      set: (value) => limit.set.call(ErrorConstructor, Number(value)),
    });
  }
}

/** Runs `read` (a read of the stack) with the host's own stack limit, whatever a mod set. */
export function withHostStackLimit(read) {
  if (nativeStackLimit === null) return read();
  const { get, set, owner } = nativeStackLimit;
  const saved = get.call(owner);
  set.call(owner, HOST_STACK_LIMIT);
  try {
    return read();
  } finally {
    set.call(owner, saved);
  }
}

/** Seals `global`; run after everything else of the sandbox is installed. */
export function sealGlobals(global) {
  removeBackendIntrinsics(global);
  installAtomicsWait(global);
  installPerformance(global);
  // Temporal.Now reads the host's clock and time zone; Bun has no Temporal either.
  delete global.Temporal;
  // A fresh realm would have none of this sealing; QuickJS's gc() is no platform's API.
  delete global.ShadowRealm;
  delete global.gc;
  lockStackTraces(global);
  lockIntrinsics(global);
  closePrototypes(global);
}
