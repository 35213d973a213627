// node:util: Node's own inspect and format (vendored node-inspect-extracted),
// promisify with Node's custom hook, the type checks, deep equality and the
// encoding classes.

import inspectModule from "../vendor/inspect.js";
import { TextDecoder, TextEncoder } from "../web/encoding.js";
import types from "./util-types.js";
import { deepEqual } from "./deep-equal.js";
import { callMod } from "../platform.js";
import { Buffer } from "../web/buffer.js";
import { process } from "./process.js";
import { parseArgs as parseArgsWith } from "./parse-args.js";
import {
  getSystemErrorMap, getSystemErrorMessage, getSystemErrorName, isBoolean, isFunction, isNull, isNullOrUndefined, isNumber, isObject,
  isPrimitive, isString, isSymbol, isUndefined, makeIsBuffer, MIMEParams, MIMEType, parseEnv,
} from "./util-extras.js";

const { isDate, isRegExp } = types;

export const { inspect, format, formatWithOptions, stripVTControlCharacters } = inspectModule;

const kCustomPromisify = Symbol.for("nodejs.util.promisify.custom");

export function promisify(original) {
  if (typeof original !== "function") {
    const error = new TypeError(`The "original" argument must be of type function. Received ${inspect(original)}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  const custom = original[kCustomPromisify];
  if (typeof custom === "function") return custom;
  function promisified(...args) {
    return new Promise((resolve, reject) => {
      callMod(original, this, [...args, (error, ...values) => {
        if (error) reject(error);
        else resolve(values[0]);
      }]);
    });
  }
  Object.setPrototypeOf(promisified, Object.getPrototypeOf(original));
  Object.defineProperty(promisified, kCustomPromisify, { value: promisified, enumerable: false, writable: false, configurable: true });
  return Object.defineProperties(promisified, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = kCustomPromisify;

export function callbackify(original) {
  return function callbackified(...args) {
    const callback = args.pop();
    callMod(original, this, args).then(
      (value) => queueMicrotask(() => callMod(callback, undefined, [null, value])),
      (reason) => {
        const error = reason || Object.assign(new Error("Promise was rejected with a falsy value"), { reason, code: "ERR_FALSY_VALUE_REJECTION" });
        queueMicrotask(() => callMod(callback, undefined, [error]));
      },
    );
  };
}

export function inherits(constructor, superConstructor) {
  Object.defineProperty(constructor, "super_", { value: superConstructor, writable: true, configurable: true });
  Object.setPrototypeOf(constructor.prototype, superConstructor.prototype);
}

const warned = new Set();
export function deprecate(fn, message, code) {
  return function deprecated(...args) {
    const key = code ?? message;
    if (!warned.has(key)) {
      warned.add(key);
      console.warn(`[${code ?? "DEP0000"}] DeprecationWarning: ${message}`);
    }
    return new.target ? Reflect.construct(fn, args, new.target) : callMod(fn, this, args);
  };
}

export function debuglog(_section) {
  const log = () => {};
  log.enabled = false;
  return log;
}

export const isDeepStrictEqual = (a, b) => deepEqual(a, b, true);
export const isArray = Array.isArray;
export const isError = (value) => value instanceof Error;
export const toUSVString = (text) => String(text).toWellFormed?.() ?? String(text);

export function styleText(format, text) {
  const codes = { reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], inverse: [7, 27], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39], cyan: [36, 39], white: [37, 39], gray: [90, 39], grey: [90, 39] };
  let out = String(text);
  for (const name of Array.isArray(format) ? format : [format]) {
    const code = codes[name];
    if (!code) throw new TypeError(`The argument 'format' must be one of: ${Object.keys(codes).join(", ")}. Received ${inspect(name)}`);
    out = `\u001b[${code[0]}m${out}\u001b[${code[1]}m`;
  }
  return out;
}

export function aborted(signal, _resource) {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/** Node's parseArgs, over the virtual process's arguments when given none. */
export function parseArgs(config) {
  return parseArgsWith(config, process.argv.slice(2));
}

export const isBuffer = makeIsBuffer(Buffer);

export { types, TextEncoder, TextDecoder };
export {
  getSystemErrorMap, getSystemErrorMessage, getSystemErrorName, isBoolean, isDate, isFunction, isNull, isNullOrUndefined, isNumber,
  isObject, isPrimitive, isRegExp, isString, isSymbol, isUndefined, MIMEParams, MIMEType, parseEnv,
};

export default {
  inspect, format, formatWithOptions, stripVTControlCharacters, promisify, callbackify, inherits, deprecate, debuglog,
  isDeepStrictEqual, isArray, isError, toUSVString, styleText, aborted, types, TextEncoder, TextDecoder, parseArgs, isBuffer,
  getSystemErrorMap, getSystemErrorMessage, getSystemErrorName, isBoolean, isDate, isFunction, isNull, isNullOrUndefined, isNumber,
  isObject, isPrimitive, isRegExp, isString, isSymbol, isUndefined, MIMEParams, MIMEType, parseEnv,
};
