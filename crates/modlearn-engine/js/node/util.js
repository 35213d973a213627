// node:util: Node's own inspect and format (vendored node-inspect-extracted),
// promisify with Node's custom hook, the type checks, deep equality and the
// encoding classes.

import inspectModule from "../vendor/inspect.js";
import { TextDecoder, TextEncoder } from "../web/encoding.js";
import types from "./util-types.js";
import { deepEqual } from "./deep-equal.js";
import { callMod, queueHostTask, watchCollection } from "../platform.js";
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
      (value) => queueHostTask(() => callMod(callback, undefined, [null, value]), "tick"),
      (reason) => {
        const error = reason || Object.assign(new Error("Promise was rejected with a falsy value"), { reason, code: "ERR_FALSY_VALUE_REJECTION" });
        queueHostTask(() => callMod(callback, undefined, [error]), "tick");
      },
    );
  };
}

export function inherits(constructor, superConstructor) {
  Object.defineProperty(constructor, "super_", { value: superConstructor, writable: true, configurable: true });
  Object.setPrototypeOf(constructor.prototype, superConstructor.prototype);
}

const warned = new Set();
// The deprecations warned of, every load generation's: one a load adds, the next inherits.
watchCollection("node:util deprecations warned", warned);
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

/**
 * Node's styleText: with `validateStream` (the default) the codes are left out unless `stream`
 * is a terminal, and the virtual machine's stdout is a pipe, so a mod gets the plain text, as
 * under Letta's harness; the format is checked either way.
 */
export function styleText(format, text, { validateStream = true, stream = process.stdout } = {}) {
  const colors = inspect.colors;
  const names = Object.getOwnPropertyNames(colors);
  let left = "";
  let right = "";
  for (const name of Array.isArray(format) ? format : [format]) {
    const code = Object.hasOwn(colors, name) ? colors[name] : undefined;
    if (code === undefined) {
      const error = new TypeError(`The argument 'format' must be one of: ${names.map((each) => `'${each}'`).join(", ")}. Received ${inspect(name)}`);
      error.code = "ERR_INVALID_ARG_VALUE";
      throw error;
    }
    left += `\u001b[${code[0]}m`;
    right = `\u001b[${code[1]}m${right}`;
  }
  if (validateStream && !stream?.isTTY) return String(text);
  return `${left}${text}${right}`;
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
