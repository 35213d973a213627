// The web `crypto` global: randomUUID and getRandomValues drawn from the
// engine's seeded generator (the one behind Math.random), so ids are the
// same on every run with the same seed. No `subtle`: nothing asked for it yet.

import { randomUint32 } from "../platform.js";

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

export const webCrypto = Object.freeze({ randomUUID, getRandomValues });
