// node:crypto: hashes, HMACs and key derivation (vendored @noble/hashes,
// audited), and random values from the engine's seeded generator, so ids and
// tokens are the same on every run with the same seed.

import {
  blake2b, blake2s, hkdf as hkdfBytes, hmac, md5, pbkdf2 as pbkdf2Bytes, ripemd160, scrypt as scryptBytes, sha1, sha224, sha256,
  sha384, sha3_224, sha3_256, sha3_384, sha3_512, sha512, sha512_224, sha512_256, shake128, shake256,
} from "../vendor/hashes.js";
import { callMod, queueHostTask } from "../platform.js";
import { Buffer } from "../web/buffer.js";
import { fillRandom, getRandomValues, randomUUID, subtle, webCrypto } from "../web/crypto.js";

// Bun's names (OpenSSL's, lower-cased), each with the hash behind it.
const ALGORITHMS = {
  md5, sha1, sha224, sha256, sha384, sha512, "sha-1": sha1, "sha-224": sha224, "sha-256": sha256, "sha-384": sha384, "sha-512": sha512,
  "sha512-224": sha512_224, "sha512-256": sha512_256, "sha3-224": sha3_224, "sha3-256": sha3_256, "sha3-384": sha3_384,
  "sha3-512": sha3_512, ripemd160, rmd160: ripemd160, blake2b512: blake2b, blake2s256: blake2s, shake128, shake256,
  "rsa-md5": md5, "rsa-sha1": sha1, "rsa-sha224": sha224, "rsa-sha256": sha256, "rsa-sha384": sha384, "rsa-sha512": sha512,
};
// What Bun's getHashes() lists, less md4, which the sandbox lacks.
const LISTED = ["md5", "ripemd160", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512-224", "sha512-256", "sha3-224", "sha3-256", "sha3-384", "sha3-512"];
// A shake's default output length, in bytes, as OpenSSL has it.
const SHAKE_LENGTHS = new Map([[shake128, 16], [shake256, 32]]);

/** The hash Bun knows by `name`, whatever its case, if any. */
function lookup(name) {
  const key = String(name).toLowerCase();
  return Object.hasOwn(ALGORITHMS, key) ? ALGORITHMS[key] : undefined;
}

function algorithm(name) {
  const hash = lookup(name);
  if (!hash) {
    const error = new Error(`Digest method not supported`);
    error.code = "ERR_CRYPTO_INVALID_DIGEST";
    throw error;
  }
  return hash;
}

/** How Node names a wrong argument in its messages: "null", or "type string" and the like. */
function received(value, withType = true) {
  if (value === null) return "null";
  return withType ? `type ${typeof value}` : typeof value;
}

/** A key as bytes: a secret KeyObject's, or the value's own. */
function keyBytes(key) {
  return typeof key === "object" && key !== null && key.type === "secret" ? key.export() : toBytes(key);
}

function toBytes(data, encoding) {
  if (typeof data === "string") return Buffer.from(data, encoding ?? "utf8");
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const error = new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${received(data, false)}`);
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

export function createHash(name, options) {
  const hash = algorithm(name);
  if (!SHAKE_LENGTHS.has(hash)) return new Hash(hash.create());
  const length = options?.outputLength ?? SHAKE_LENGTHS.get(hash);
  return new Hash(hash.create({ dkLen: length }));
}

export function createHmac(name, key, _options) {
  return new Hmac(hmac.create(algorithm(name), keyBytes(key)));
}

/** Node 21's one-shot `crypto.hash(algorithm, data, outputEncoding = "hex")`. */
export function hash(name, data, outputEncoding = "hex") {
  return output(algorithm(name)(toBytes(data)), outputEncoding);
}

export function getHashes() {
  return [...LISTED];
}

function outOfRange(name, value, range) {
  const error = new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${value}`);
  error.code = "ERR_OUT_OF_RANGE";
  return error;
}

function checkInteger(name, value, min) {
  if (typeof value !== "number") {
    const error = new TypeError(`The "${name}" argument must be of type number. Received ${received(value)}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  if (!Number.isInteger(value) || value < min || value > 2147483647) throw outOfRange(name, value, `>= ${min} and <= 2147483647`);
}

function digestFor(digest) {
  if (typeof digest !== "string") {
    const error = new TypeError(`The "digest" argument must be of type string. Received ${received(digest, false)}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  const hash = lookup(digest);
  if (!hash || SHAKE_LENGTHS.has(hash)) {
    const error = new TypeError(`Invalid digest: ${digest}`);
    error.code = "ERR_CRYPTO_INVALID_DIGEST";
    throw error;
  }
  return hash;
}

/**
 * Runs `derive` now and hands its result to `callback` in a later job, as Node's thread pool
 * would, with `noError` in the error's place (Bun passes null, or undefined for scrypt).
 */
function later(callback, derive, noError) {
  if (typeof callback !== "function") {
    const error = new TypeError(`The "callback" argument must be of type function. Received ${received(callback, false)}`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  const key = derive();
  queueHostTask(() => callMod(callback, undefined, [noError, key]), "io");
}

export function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  checkInteger("iterations", iterations, 1);
  checkInteger("keylen", keylen, 0);
  const hash = digestFor(digest);
  return output(pbkdf2Bytes(hash, toBytes(password), toBytes(salt), { c: iterations, dkLen: keylen }));
}

export function pbkdf2(password, salt, iterations, keylen, digest, callback) {
  later(callback, () => pbkdf2Sync(password, salt, iterations, keylen, digest), null);
}

/** Node's hkdfSync gives an ArrayBuffer, not a Buffer. */
export function hkdfSync(digest, key, salt, info, keylen) {
  const hash = digestFor(digest);
  checkInteger("keylen", keylen, 0);
  if (keylen > 255 * hash.outputLen) {
    const error = new RangeError(`Invalid key length`);
    error.code = "ERR_CRYPTO_INVALID_KEYLEN";
    throw error;
  }
  const bytes = hkdfBytes(hash, keyBytes(key), toBytes(salt), toBytes(info), keylen);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
}

export function hkdf(digest, key, salt, info, keylen, callback) {
  later(callback, () => hkdfSync(digest, key, salt, info, keylen), null);
}

function scryptOptions(options = {}) {
  const N = options.N ?? options.cost ?? 16384;
  const r = options.r ?? options.blockSize ?? 8;
  const p = options.p ?? options.parallelization ?? 1;
  const maxmem = options.maxmem ?? 32 * 1024 * 1024;
  // OpenSSL's checks: N a power of two above 1, and the work area within maxmem.
  if (!(N > 1) || (N & (N - 1)) !== 0 || !(r >= 1) || !(p >= 1) || 128 * N * r > maxmem) {
    const error = new RangeError("Invalid scrypt params: error:06000085:public key routines:OPENSSL_internal:INVALID_PARAMETERS");
    error.code = "ERR_CRYPTO_INVALID_SCRYPT_PARAMS";
    throw error;
  }
  return { N, r, p, maxmem: maxmem + 1024 };
}

export function scryptSync(password, salt, keylen, options) {
  checkInteger("keylen", keylen, 0);
  const settings = scryptOptions(options);
  return output(scryptBytes(toBytes(password), toBytes(salt), { ...settings, dkLen: keylen }));
}

export function scrypt(password, salt, keylen, options, callback) {
  if (typeof options === "function") {
    callback = options;
    options = undefined;
  }
  later(callback, () => scryptSync(password, salt, keylen, options), undefined);
}

export function randomBytes(size, callback) {
  const bytes = Buffer.from(fillRandom(new Uint8Array(size)));
  if (typeof callback === "function") {
    queueHostTask(() => callMod(callback, undefined, [null, bytes]), "io");
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
  queueHostTask(() => callMod(callback, undefined, [null, buffer]), "io");
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
    queueHostTask(() => callMod(callback, undefined, [null, value]), "io");
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
  createHash, createHmac, hash, getHashes, pbkdf2, pbkdf2Sync, hkdf, hkdfSync, scrypt, scryptSync, randomBytes, randomFillSync, randomFill, randomInt, randomUUID,
  getRandomValues, timingSafeEqual, createSecretKey, webcrypto, subtle, constants, Hash, Hmac,
};
