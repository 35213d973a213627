// Bun.CryptoHasher on node:crypto's hashes: Letta Code runs on Bun, so a mod may hash with it
// where a Node mod uses createHash.

import { bunCrypto } from "../platform.js";
import { blake2b } from "../vendor/hashes.js";
import { Hash, createHash, createHmac } from "./crypto.js";

/** Bun's list (`Bun.CryptoHasher.algorithms`) less md4, which node:crypto here lacks too. */
const ALGORITHMS = Object.freeze([
  "blake2b256", "blake2b512", "blake2s256", "md5", "ripemd160", "sha1", "sha224", "sha256", "sha384", "sha512",
  "sha512-224", "sha512-256", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "shake128", "shake256",
]);


class CryptoHasher {
  #algorithm;
  #key;
  #hash;
  constructor(algorithm, hmacKey) {
    const name = String(algorithm).toLowerCase();
    if (!ALGORITHMS.includes(name)) throw new TypeError(`Unsupported algorithm ${algorithm}`);
    this.#algorithm = name;
    this.#key = hmacKey;
    this.#hash = this.#fresh();
  }
  #fresh() {
    // BLAKE2b with a 32-byte output, which is not the 64-byte one cut short.
    if (this.#algorithm === "blake2b256" && this.#key === undefined) return new Hash(blake2b.create({ dkLen: 32 }));
    const name = this.#algorithm === "blake2b256" ? "blake2b512" : this.#algorithm;
    return this.#key === undefined ? createHash(name) : createHmac(name, this.#key);
  }
  get algorithm() {
    return this.#algorithm;
  }
  get byteLength() {
    return this.#fresh().digest().length;
  }
  update(data, inputEncoding) {
    this.#hash.update(data, inputEncoding);
    return this;
  }
  /** The digest (a Buffer, or text in `encoding`); the hasher starts over, as Bun's does. */
  digest(encoding) {
    const digest = this.#hash.digest(encoding);
    this.#hash = this.#fresh();
    return digest;
  }
  copy() {
    if (this.#key !== undefined) throw new TypeError("CryptoHasher.copy is not supported for HMAC");
    const copy = new CryptoHasher(this.#algorithm);
    copy.#hash = this.#hash.copy();
    return copy;
  }
  static hash(algorithm, input, encoding) {
    return new CryptoHasher(algorithm).update(input).digest(encoding);
  }
  static get algorithms() {
    return [...ALGORITHMS];
  }
}

bunCrypto.CryptoHasher = CryptoHasher;
