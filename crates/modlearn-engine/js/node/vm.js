// node:vm in the mod's own realm (the sandbox has one): runInThisContext is an indirect eval;
// a "context" is the object given, and code run in it sees that object's properties first,
// then the JavaScript built-ins Bun's fresh contexts have, through a `with` scope: assignments to
// undeclared names and `var`s land on the object, `let`/`const` stay in the code's own scope.
// Not a separate realm: `vm.runInNewContext("[]") instanceof Array` is true here, false in Bun;
// a name the context lacks reads as undefined rather than throwing; `timeout` is not enforced.
// Code compiles through callMod, so that what it makes counts as the mod's, as eval'd code does.

import { callMod } from "../platform.js";
import { Buffer } from "./buffer.js";

const realEval = globalThis.eval;
const RealFunction = globalThis.Function;

/** What a new context of Bun's holds (JSC's fresh global object), where the sandbox has them. */
const CONTEXT_GLOBALS = new Set([
  "undefined", "NaN", "Infinity", "isNaN", "isFinite", "escape", "unescape", "decodeURI", "decodeURIComponent", "encodeURI",
  "encodeURIComponent", "eval", "parseInt", "parseFloat", "ArrayBuffer", "EvalError", "RangeError", "ReferenceError",
  "SyntaxError", "TypeError", "URIError", "AggregateError", "SuppressedError", "Proxy", "Reflect", "JSON", "Math", "Atomics",
  "WebAssembly", "console", "Int8Array", "Int16Array", "Int32Array", "Uint8Array", "Uint8ClampedArray", "Uint16Array",
  "Uint32Array", "Float16Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array", "DataView", "Date", "Error",
  "Boolean", "Map", "Number", "Set", "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "Object", "Function", "Array",
  "RegExp", "Iterator", "SharedArrayBuffer", "DisposableStack", "AsyncDisposableStack", "String", "Promise", "BigInt", "Symbol",
  "Intl", "Temporal", "ShadowRealm",
]);

const contexts = new WeakSet();
const views = new WeakMap();

/** Names of this module's runner, which code run in a context must not see. */
const PRIVATE = /^__vm\$/;

function argError(message) {
  const error = new TypeError(message);
  error.code = "ERR_INVALID_ARG_TYPE";
  return error;
}

const builtin = (key) => (typeof key === "string" && CONTEXT_GLOBALS.has(key) ? globalThis[key] : undefined);

/** The context's `globalThis` (and top-level `this`): its own properties, then the built-ins. */
function viewOf(sandbox) {
  let view = views.get(sandbox);
  if (view) return view;
  view = new Proxy(sandbox, {
    get(target, key) {
      if (key in target) return Reflect.get(target, key);
      if (key === "globalThis") return view;
      return builtin(key);
    },
    set: (target, key, value) => Reflect.set(target, key, value),
    has: (target, key) => key in target || key === "globalThis" || (typeof key === "string" && CONTEXT_GLOBALS.has(key) && key in globalThis),
  });
  views.set(sandbox, view);
  return view;
}

/**
 * The `with` scope: every name resolves here but the runner's own and `hoisted`, the functions
 * the code declares, which resolve to the runner's scope where direct eval puts them (and are
 * copied onto the context once the code has run).
 */
function scopeOf(sandbox, hoisted = new Set()) {
  const view = viewOf(sandbox);
  return new Proxy(sandbox, {
    has: (_target, key) => typeof key === "string" && !PRIVATE.test(key) && !hoisted.has(key),
    get(target, key) {
      if (key === Symbol.unscopables) return undefined;
      if (key in target) return Reflect.get(target, key);
      if (key === "globalThis") return view;
      if (key === "eval") return realEval;
      return builtin(key);
    },
    set: (target, key, value) => Reflect.set(target, key, value),
  });
}

/** Function declarations a script may make (a superset: a regular expression, not a parser). */
function declaredNames(code) {
  const names = new Set();
  for (const match of code.matchAll(/\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*\(/g)) {
    if (!PRIVATE.test(match[1])) names.add(match[1]);
  }
  return [...names];
}

let runner = null;
function contextRunner() {
  runner ??= callMod(RealFunction, undefined, [
    "__vm$scope", "__vm$code", "__vm$names",
    [
      "var __vm$result;",
      "with (__vm$scope) { __vm$result = eval(__vm$code); }",
      "var __vm$found = [];",
      "for (var __vm$i = 0; __vm$i < __vm$names.length; __vm$i++) {",
      "  try { __vm$found.push([__vm$names[__vm$i], eval(__vm$names[__vm$i])]); } catch (__vm$e) {}",
      "}",
      "return [__vm$result, __vm$found];",
    ].join("\n"),
  ]);
  return runner;
}

function runInSandbox(code, sandbox) {
  const source = String(code);
  const names = declaredNames(source).filter((name) => !(name in globalThis));
  const [result, found] = callMod(contextRunner(), viewOf(sandbox), [scopeOf(sandbox, new Set(names)), source, names]);
  for (const [name, value] of found) {
    if (typeof value === "function") sandbox[name] = value;
  }
  return result;
}

function checkContext(context) {
  if (context === null || typeof context !== "object" || !contexts.has(context)) {
    throw argError('The "contextifiedObject" argument must be an vm.Context');
  }
}

export const constants = Object.freeze({
  USE_MAIN_CONTEXT_DEFAULT_LOADER: Symbol("vm_dynamic_import_main_context_default"),
  DONT_CONTEXTIFY: Symbol("vm_context_no_contextify"),
});

export function createContext(object = {}, _options) {
  if (object === constants.DONT_CONTEXTIFY) object = {};
  if (object === null || typeof object !== "object") {
    throw argError(`The "contextObject" argument must be of type object. Received ${object === null ? "null" : `type ${typeof object}`}`);
  }
  contexts.add(object);
  return object;
}

export function isContext(object) {
  if (object === null || typeof object !== "object") {
    throw argError(`The "object" argument must be of type object. Received ${object === null ? "null" : `type ${typeof object} (${String(object)})`}`);
  }
  return contexts.has(object);
}

export function runInThisContext(code, _options) {
  return callMod(realEval, undefined, [String(code)]);
}

export function runInContext(code, context, _options) {
  checkContext(context);
  return runInSandbox(code, context);
}

export function runInNewContext(code, sandbox = {}, _options) {
  return runInSandbox(code, createContext(sandbox ?? {}));
}

export function compileFunction(code, params = [], options = {}) {
  const source = String(code);
  const names = [...params].map(String);
  const context = options?.parsingContext;
  let fn;
  if (context === undefined && !options?.contextExtensions?.length) {
    fn = callMod(RealFunction, undefined, [...names, source]);
  } else {
    const sandbox = context ?? {};
    const make = callMod(RealFunction, undefined, [
      "__vm$scopes",
      `with (__vm$scopes[0]) { with (__vm$scopes[1]) { return function (${names.join(", ")}) {\n${source}\n}; } }`,
    ]);
    const extensions = Object.assign({}, ...(options?.contextExtensions ?? []));
    fn = callMod(make, viewOf(sandbox), [[scopeOf(sandbox), new Proxy(extensions, { has: (t, k) => Object.hasOwn(t, k) })]]);
  }
  Object.defineProperty(fn, "name", { value: "", configurable: true });
  return fn;
}

export class Script {
  #code;
  constructor(code, options = {}) {
    this.#code = String(code);
    // Compiles once, for the SyntaxError Bun throws here.
    callMod(RealFunction, undefined, [this.#code]);
    this.cachedDataRejected = typeof options === "object" && options?.cachedData ? false : undefined;
    this.sourceMapURL = undefined;
  }
  runInThisContext(options) {
    return runInThisContext(this.#code, options);
  }
  runInContext(context, options) {
    return runInContext(this.#code, context, options);
  }
  runInNewContext(sandbox, options) {
    return runInNewContext(this.#code, sandbox, options);
  }
  createCachedData() {
    return Buffer.alloc(0);
  }
}

export function createScript(code, options) {
  return new Script(code, options);
}

export function measureMemory(_options) {
  return Promise.resolve({ total: { jsMemoryEstimate: 8388608, jsMemoryRange: [8388608, 16777216] } });
}

function unsupportedModules(name) {
  return class {
    constructor() {
      throw new Error(`vm.${name} is not supported in modlearn's sandbox (ES modules cannot be linked at run time here)`);
    }
  };
}
export const Module = unsupportedModules("Module");
export const SourceTextModule = unsupportedModules("SourceTextModule");
export const SyntheticModule = unsupportedModules("SyntheticModule");

export default {
  createContext, runInContext, runInNewContext, runInThisContext, isContext, compileFunction, measureMemory, Script, Module,
  SourceTextModule, SyntheticModule, createScript, constants,
};
