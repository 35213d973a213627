// node:util/types, by internal tags (the engine gives no brand checks to JS).

const tag = (value) => Object.prototype.toString.call(value).slice(8, -1);
const is = (name) => (value) => typeof value === "object" && value !== null && tag(value) === name;
const TYPED = new Set(["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"]);
const AsyncFunction = Object.getPrototypeOf(async function () {}).constructor;
const GeneratorFunction = Object.getPrototypeOf(function* () {}).constructor;
const AsyncGeneratorFunction = Object.getPrototypeOf(async function* () {}).constructor;

// Brand checks (the internal slot, as Bun's are), not instanceof: an object made from
// Date.prototype is no Date.
const dateValueOf = Date.prototype.valueOf;
export function isDate(value) {
  if (typeof value !== "object" || value === null) return false;
  try {
    Reflect.apply(dateValueOf, value, []);
    return true;
  } catch {
    return false;
  }
}

// The `global` getter throws for a non-RegExp and gives undefined for RegExp.prototype itself.
const regExpGlobal = Object.getOwnPropertyDescriptor(RegExp.prototype, "global").get;
export function isRegExp(value) {
  if (typeof value !== "object" || value === null) return false;
  try {
    return typeof Reflect.apply(regExpGlobal, value, []) === "boolean";
  } catch {
    return false;
  }
}
export const isMap = (value) => value instanceof Map;
export const isSet = (value) => value instanceof Set;
export const isWeakMap = (value) => value instanceof WeakMap;
export const isWeakSet = (value) => value instanceof WeakSet;
export const isPromise = (value) => value instanceof Promise;
export const isNativeError = (value) => value instanceof Error;
export const isArrayBuffer = (value) => value instanceof ArrayBuffer;
export const isSharedArrayBuffer = (value) => typeof SharedArrayBuffer !== "undefined" && value instanceof SharedArrayBuffer;
export const isAnyArrayBuffer = (value) => isArrayBuffer(value) || isSharedArrayBuffer(value);
export const isArrayBufferView = (value) => ArrayBuffer.isView(value);
export const isDataView = (value) => value instanceof DataView;
export const isTypedArray = (value) => ArrayBuffer.isView(value) && TYPED.has(tag(value));
export const isUint8Array = is("Uint8Array");
export const isUint8ClampedArray = is("Uint8ClampedArray");
export const isUint16Array = is("Uint16Array");
export const isUint32Array = is("Uint32Array");
export const isInt8Array = is("Int8Array");
export const isInt16Array = is("Int16Array");
export const isInt32Array = is("Int32Array");
export const isFloat32Array = is("Float32Array");
export const isFloat64Array = is("Float64Array");
export const isBigInt64Array = is("BigInt64Array");
export const isBigUint64Array = is("BigUint64Array");
export const isAsyncFunction = (value) => value instanceof AsyncFunction || value instanceof AsyncGeneratorFunction;
export const isGeneratorFunction = (value) => value instanceof GeneratorFunction || value instanceof AsyncGeneratorFunction;
export const isGeneratorObject = is("Generator");
export const isMapIterator = is("Map Iterator");
export const isSetIterator = is("Set Iterator");
export const isNumberObject = (value) => value instanceof Number;
export const isStringObject = (value) => value instanceof String;
export const isBooleanObject = (value) => value instanceof Boolean;
export const isBigIntObject = (value) => typeof value === "object" && value !== null && tag(value) === "BigInt";
export const isSymbolObject = (value) => typeof value === "object" && value !== null && tag(value) === "Symbol";
export const isBoxedPrimitive = (value) => isNumberObject(value) || isStringObject(value) || isBooleanObject(value) || isBigIntObject(value) || isSymbolObject(value);
export const isProxy = (_value) => false;
export const isModuleNamespaceObject = is("Module");
export const isExternal = (_value) => false;
export const isKeyObject = (_value) => false;
export const isCryptoKey = (_value) => false;

const types = {
  isDate, isRegExp, isMap, isSet, isWeakMap, isWeakSet, isPromise, isNativeError, isArrayBuffer, isSharedArrayBuffer,
  isAnyArrayBuffer, isArrayBufferView, isDataView, isTypedArray, isUint8Array, isUint8ClampedArray, isUint16Array,
  isUint32Array, isInt8Array, isInt16Array, isInt32Array, isFloat32Array, isFloat64Array, isBigInt64Array,
  isBigUint64Array, isAsyncFunction, isGeneratorFunction, isGeneratorObject, isMapIterator, isSetIterator,
  isNumberObject, isStringObject, isBooleanObject, isBigIntObject, isSymbolObject, isBoxedPrimitive, isProxy,
  isModuleNamespaceObject, isExternal, isKeyObject, isCryptoKey,
};
export default types;
