// node:crypto: hashes and HMACs (vendored @noble/hashes, audited), and
// random values from the engine's seeded generator, so ids and tokens are
// the same on every run with the same seed.

import { hmac, md5, sha1, sha224, sha256, sha384, sha512 } from "../vendor/hashes.js";
import { Buffer } from "../web/buffer.js";
import { fillRandom, getRandomValues, randomUUID, subtle, webCrypto } from "../web/crypto.js";

const ALGORITHMS = { md5, sha1, sha224, sha256, sha384, sha512, "sha-1": sha1, "sha-256": sha256, "sha-384": sha384, "sha-512": sha512 };

function algorithm(name) {
  const hash = ALGORITHMS[String(name).toLowerCase()];
  if (!hash) {
    const error = new Error(`Digest method not supported`);
    error.code = "ERR_CRYPTO_INVALID_DIGEST";
    throw error;
  }
  return hash;
}

function toBytes(data, encoding) {
  if (typeof data === "string") return Buffer.from(data, encoding ?? "utf8");
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const error = new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${data === null ? "null" : typeof data}`);
  error.code = "ERR_INVALID_ARG_TYPE";
  throw error;
}

function output(bytes, encoding) {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return encoding === undefined || encoding === "buffer" ? buffer : buffer.toString(encoding);
}

class Digest {
  #state;
  #done = false;
  constructor(state) {
    this.#state = state;
  }
  update(data, encoding) {
    if (this.#done) throw Object.assign(new Error("Digest already called"), { code: "ERR_CRYPTO_HASH_FINALIZED" });
    this.#state.update(toBytes(data, encoding));
    return this;
  }
  digest(encoding) {
    if (this.#done) throw Object.assign(new Error("Digest already called"), { code: "ERR_CRYPTO_HASH_FINALIZED" });
    this.#done = true;
    return output(this.#state.digest(), encoding);
  }
  copy() {
    return new this.constructor(this.#state.clone());
  }
}

export class Hash extends Digest {}
export class Hmac extends Digest {}

export function createHash(name, _options) {
  return new Hash(algorithm(name).create());
}

export function createHmac(name, key, _options) {
  const keyBytes = typeof key === "object" && key !== null && key.type === "secret" ? key.export() : toBytes(key);
  return new Hmac(hmac.create(algorithm(name), keyBytes));
}

/** Node 21's one-shot `crypto.hash(algorithm, data, outputEncoding = "hex")`. */
export function hash(name, data, outputEncoding = "hex") {
  return output(algorithm(name)(toBytes(data)), outputEncoding);
}

export function getHashes() {
  return ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"];
}

export function randomBytes(size, callback) {
  const bytes = Buffer.from(fillRandom(new Uint8Array(size)));
  if (typeof callback === "function") {
    queueMicrotask(() => callback(null, bytes));
    return undefined;
  }
  return bytes;
}

export function randomFillSync(buffer, offset = 0, size) {
  const view = new Uint8Array(buffer.buffer ?? buffer, (buffer.byteOffset ?? 0) + offset, size ?? (buffer.byteLength - offset));
  fillRandom(view);
  return buffer;
}

export function randomFill(buffer, ...rest) {
  const callback = rest.pop();
  randomFillSync(buffer, ...rest);
  queueMicrotask(() => callback(null, buffer));
}

export function randomInt(min, max, callback) {
  if (max === undefined || typeof max === "function") {
    callback = max;
    max = min;
    min = 0;
  }
  const range = max - min;
  if (!(range > 0) || !Number.isSafeInteger(min) || !Number.isSafeInteger(max)) {
    const error = new RangeError(`The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
    error.code = "ERR_OUT_OF_RANGE";
    throw error;
  }
  const [high, low] = fillRandomWords();
  const value = min + Math.floor(((high * 2 ** 21 + (low >>> 11)) / 2 ** 53) * range);
  if (typeof callback === "function") {
    queueMicrotask(() => callback(null, value));
    return undefined;
  }
  return value;
}

function fillRandomWords() {
  const words = new Uint32Array(2);
  fillRandom(new Uint8Array(words.buffer));
  return [words[0] >>> 11, words[1]];
}

export function timingSafeEqual(a, b) {
  const x = toBytes(a);
  const y = toBytes(b);
  if (x.byteLength !== y.byteLength) {
    const error = new RangeError("Input buffers must have the same byte length");
    error.code = "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH";
    throw error;
  }
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

export function createSecretKey(key, encoding) {
  const bytes = toBytes(key, encoding);
  return { type: "secret", symmetricKeySize: bytes.byteLength, export: () => Buffer.from(bytes) };
}

export const webcrypto = webCrypto;
export { subtle };
export const constants = {};
export { randomUUID, getRandomValues };

export default {
  createHash, createHmac, hash, getHashes, randomBytes, randomFillSync, randomFill, randomInt, randomUUID,
  getRandomValues, timingSafeEqual, createSecretKey, webcrypto, subtle, constants, Hash, Hmac,
};
