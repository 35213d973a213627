// The web `crypto` global: randomUUID and getRandomValues drawn from the
// engine's seeded generator (the one behind Math.random), so ids are the
// same on every run with the same seed; `subtle` digests (mods hash text with
// it), and refuses the rest as an engine without the algorithm would.

import { randomUint32, settleAsIo } from "../platform.js";
import { sha1, sha256, sha384, sha512 } from "../vendor/hashes.js";

/** Fills `bytes` (a Uint8Array) with seeded random bytes. */
export function fillRandom(bytes) {
  for (let i = 0; i < bytes.length; i += 4) {
    const word = randomUint32();
    for (let k = 0; k < 4 && i + k < bytes.length; k++) bytes[i + k] = (word >>> (8 * k)) & 255;
  }
  return bytes;
}

export function randomUUID() {
  const b = fillRandom(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const INTEGER_ARRAYS = ["Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array", "Uint32Array", "BigInt64Array", "BigUint64Array"];

export function getRandomValues(array) {
  if (!ArrayBuffer.isView(array) || !INTEGER_ARRAYS.includes(Object.prototype.toString.call(array).slice(8, -1))) {
    throw new TypeError("The data argument must be an integer-type TypedArray");
  }
  if (array.byteLength > 65536) {
    const error = new Error(`The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`);
    error.name = "QuotaExceededError";
    throw error;
  }
  fillRandom(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  return array;
}

const DIGESTS = { "sha-1": sha1, "sha-256": sha256, "sha-384": sha384, "sha-512": sha512 };

function notSupported(message) {
  const error = new Error(message);
  error.name = "NotSupportedError";
  return error;
}

/** The digest of `data` as `digest` answers it, or the error it rejects with. */
function digestNow(algorithm, data) {
  const name = String(typeof algorithm === "object" && algorithm !== null ? algorithm.name : algorithm).toLowerCase();
  const hash = Object.hasOwn(DIGESTS, name) ? DIGESTS[name] : null;
  if (hash === null) throw notSupported("Unrecognized algorithm name");
  let bytes;
  if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
  else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  else {
    const received = typeof data === "string" ? `type string ('${data}')` : data === null ? "null" : `type ${typeof data}`;
    throw new TypeError(`The "data" argument must be of type ArrayBuffer, Buffer, TypedArray, or DataView. Received ${received}`);
  }
  const digest = hash(bytes);
  return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength);
}

class SubtleCrypto {
  /** Settles on a later turn of the loop, as Bun's (which hashes off the thread) does. */
  digest(algorithm, data) {
    return settleAsIo(() => digestNow(algorithm, data));
  }
  get [Symbol.toStringTag]() {
    return "SubtleCrypto";
  }
}

// Keys, ciphers and signatures: the virtual machine has none, and says so.
for (const name of ["encrypt", "decrypt", "sign", "verify", "generateKey", "deriveKey", "deriveBits", "importKey", "exportKey", "wrapKey", "unwrapKey"]) {
  Object.defineProperty(SubtleCrypto.prototype, name, {
    value: async function () {
      throw new TypeError(`crypto.subtle.${name} is not available: modlearn's virtual machine only digests`);
    },
    writable: true,
    configurable: true,
  });
}

export const subtle = new SubtleCrypto();

export const webCrypto = Object.freeze({ randomUUID, getRandomValues, subtle });
