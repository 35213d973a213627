// Blob and File: bytes held in memory, as Bun's are for text and buffers a mod assembles.

import { ReadableStream } from "../vendor/streams.js";
import { utf8Decode, utf8Encode } from "./encoding.js";

function partBytes(part, blobBytes) {
  const held = blobBytes(part);
  if (held !== undefined) return held;
  if (part instanceof ArrayBuffer) return new Uint8Array(part.slice(0));
  if (ArrayBuffer.isView(part)) return new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
  // Bun writes nothing for null and undefined, and any other value as its string.
  return utf8Encode(part === null || part === undefined ? "" : String(part));
}

function joined(chunks) {
  const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/** A MIME type as Blob keeps it: lower case, or empty if it has a character outside printable ASCII. */
function blobType(type) {
  const text = type === undefined ? "" : String(type);
  return /^[\x20-\x7e]*$/.test(text) ? text.toLowerCase() : "";
}

export class Blob {
  #bytes;
  #type;
  constructor(parts = [], options = {}) {
    if (parts !== undefined && (typeof parts !== "object" || parts === null || typeof parts[Symbol.iterator] !== "function")) {
      throw new TypeError("new Blob() expects an Array");
    }
    this.#bytes = joined([...(parts ?? [])].map((part) => partBytes(part, Blob.#bytesOf)));
    this.#type = blobType(options?.type);
  }
  get size() {
    return this.#bytes.length;
  }
  get type() {
    return this.#type;
  }
  /** A Blob's bytes (another Blob built from it copies them), or undefined for anything else. */
  static #bytesOf(value) {
    return value !== null && typeof value === "object" && #bytes in value ? value.#bytes : undefined;
  }
  async text() {
    return utf8Decode(this.#bytes);
  }
  async arrayBuffer() {
    return this.#bytes.slice().buffer;
  }
  async bytes() {
    return this.#bytes.slice();
  }
  slice(start = 0, end = this.#bytes.length, type = "") {
    const sliced = new Blob([], { type });
    sliced.#bytes = this.#bytes.slice(start, end);
    return sliced;
  }
  /** The bytes as one chunk, as Bun gives a blob this small. */
  stream() {
    const bytes = this.#bytes.slice();
    return new ReadableStream({
      type: "bytes",
      start(controller) {
        if (bytes.length > 0) controller.enqueue(bytes);
        controller.close();
      },
    });
  }
  get [Symbol.toStringTag]() {
    return "Blob";
  }
}

export class File extends Blob {
  #name;
  #lastModified;
  constructor(parts, name, options = {}) {
    super(parts, options);
    if (name === undefined) throw new TypeError("File constructor requires name argument");
    this.#name = String(name);
    this.#lastModified = options?.lastModified === undefined ? Date.now() : Number(options.lastModified);
  }
  get name() {
    return this.#name;
  }
  get lastModified() {
    return this.#lastModified;
  }
  get [Symbol.toStringTag]() {
    return "File";
  }
}
