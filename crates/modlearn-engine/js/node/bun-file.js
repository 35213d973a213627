// Bun.file and Bun.write on the machine's file system: Letta Code runs on Bun, so a mod may read
// and write files with them where a Node mod uses node:fs. Reads and writes are node:fs's, with
// its effects, permissions and errors.

import { Buffer } from "../web/buffer.js";
import { bunFileSystem, settleAsIo } from "../platform.js";
import { existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from "./fs.js";

/** The MIME types Bun gives the common text files (by extension); anything else is bytes. */
const TYPES = {
  txt: "text/plain;charset=utf-8",
  md: "text/markdown;charset=utf-8",
  json: "application/json;charset=utf-8",
  js: "text/javascript;charset=utf-8",
  ts: "text/javascript;charset=utf-8",
  html: "text/html;charset=utf-8",
  css: "text/css;charset=utf-8",
};

const pathOf = (file) => String(file instanceof BunFile ? file.name : file);

/** A lazy reference to a file, as `Bun.file(path)` returns. */
class BunFile {
  #path;
  constructor(path) {
    this.#path = String(path);
  }
  get name() {
    return this.#path;
  }
  get type() {
    const extension = /\.([a-z0-9]+)$/i.exec(this.#path)?.[1]?.toLowerCase();
    return TYPES[extension] ?? "application/octet-stream";
  }
  get size() {
    return existsSync(this.#path) ? statSync(this.#path).size : 0;
  }
  get lastModified() {
    return existsSync(this.#path) ? statSync(this.#path).mtimeMs : 0;
  }
  exists() {
    return Promise.resolve(existsSync(this.#path));
  }
  // Reads settle on a later turn of the loop, as Bun's (off the thread) do; `exists` at once.
  text() {
    return settleAsIo(() => readFileSync(this.#path, "utf8"));
  }
  async json() {
    return JSON.parse(await this.text());
  }
  bytes() {
    return settleAsIo(() => new Uint8Array(readFileSync(this.#path)));
  }
  /** Removes the file, as node:fs's unlink does (with its effect). */
  delete() {
    return settleAsIo(() => unlinkSync(this.#path));
  }
  unlink() {
    return this.delete();
  }
  async arrayBuffer() {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }
}

/** `Bun.write(destination, data)`: the bytes written, once written. */
function write(destination, data) {
  return new Promise((resolve) => {
    const bytes =
      data instanceof BunFile ? readFileSync(data.name)
      : typeof data === "string" ? Buffer.from(data)
      : ArrayBuffer.isView(data) ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : data instanceof ArrayBuffer ? Buffer.from(data)
      : Buffer.from(String(data));
    writeFileSync(pathOf(destination), bytes);
    resolve(bytes.length);
  });
}

bunFileSystem.file = (path) => new BunFile(path);
bunFileSystem.write = write;
