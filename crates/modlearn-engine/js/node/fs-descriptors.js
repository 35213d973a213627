// File descriptors over the virtual file system: openSync, readSync, writeSync, closeSync and
// their kin, and fs/promises' FileHandle. A descriptor is a path, a mode and a position; each
// read or write goes through node:fs's whole-file calls, with their effects and errors.

import { Buffer } from "../web/buffer.js";
import { watchCollection } from "../platform.js";

/** Descriptors as Node numbers them after stdio; the virtual world has no real ones. */
let nextDescriptor = 3;

/** Open descriptors, shared by every load generation as the process's table is. */
const open = new Map();
watchCollection("node:fs open descriptors", open);

const FLAGS = {
  r: { read: true, write: false, create: false, truncate: false, append: false, exclusive: false },
  rs: { read: true, write: false, create: false, truncate: false, append: false, exclusive: false },
  "r+": { read: true, write: true, create: false, truncate: false, append: false, exclusive: false },
  "rs+": { read: true, write: true, create: false, truncate: false, append: false, exclusive: false },
  w: { read: false, write: true, create: true, truncate: true, append: false, exclusive: false },
  wx: { read: false, write: true, create: true, truncate: true, append: false, exclusive: true },
  "w+": { read: true, write: true, create: true, truncate: true, append: false, exclusive: false },
  "wx+": { read: true, write: true, create: true, truncate: true, append: false, exclusive: true },
  a: { read: false, write: true, create: true, truncate: false, append: true, exclusive: false },
  ax: { read: false, write: true, create: true, truncate: false, append: true, exclusive: true },
  as: { read: false, write: true, create: true, truncate: false, append: true, exclusive: false },
  "a+": { read: true, write: true, create: true, truncate: false, append: true, exclusive: false },
  "ax+": { read: true, write: true, create: true, truncate: false, append: true, exclusive: true },
  "as+": { read: true, write: true, create: true, truncate: false, append: true, exclusive: false },
};

function errorOf(code, errno, text, syscall, path) {
  const where = path === undefined ? "" : ` '${path}'`;
  const error = new Error(`${code}: ${text}, ${syscall}${where}`);
  Object.assign(error, { errno, code, syscall });
  if (path !== undefined) error.path = path;
  return error;
}

const badDescriptor = (syscall) => errorOf("EBADF", -9, "bad file descriptor", syscall);

function invalidArgument(name, expected, value) {
  const error = new TypeError(`The "${name}" argument must be ${expected}. Received ${value === null ? "null" : typeof value}`);
  error.code = "ERR_INVALID_ARG_TYPE";
  return error;
}

/** A mode from Node's flag strings or numbers (O_RDONLY, O_WRONLY | O_CREAT | O_TRUNC, ...). */
function modeOf(flags) {
  if (flags === undefined || flags === null) return FLAGS.r;
  if (typeof flags === "number") {
    const access = flags & 3;
    return {
      read: access === 0 || access === 2,
      write: access === 1 || access === 2,
      create: (flags & 64) !== 0,
      exclusive: (flags & 128) !== 0,
      truncate: (flags & 512) !== 0,
      append: (flags & 1024) !== 0,
    };
  }
  const mode = FLAGS[String(flags).replace("xa", "ax").replace("xw", "wx")];
  if (mode === undefined) {
    const error = new TypeError(`The value "${String(flags)}" is invalid for option "flags"`);
    error.code = "ERR_INVALID_ARG_VALUE";
    throw error;
  }
  return mode;
}

function entryOf(fd, syscall) {
  if (typeof fd !== "number" || !Number.isInteger(fd)) throw invalidArgument("fd", "of type number", fd);
  const entry = open.get(fd);
  if (entry === undefined) throw badDescriptor(syscall);
  return entry;
}

/** The descriptor calls over node:fs's sync calls (handed in: fs.js imports this module). */
export function fileDescriptors({ readFileSync, writeFileSync, statSync, existsSync }) {
  const bytesOf = (entry) => readFileSync(entry.path);

  function openSync(path, flags, _mode) {
    const mode = modeOf(flags);
    const exists = existsSync(path);
    if (exists && mode.exclusive && mode.create) throw errorOf("EEXIST", -17, "file already exists", "open", String(path));
    if (!exists && !mode.create) {
      // Reads the file for its own error (ENOENT, EISDIR, ENOTDIR, EACCES), with Node's wording.
      readFileSync(path);
    }
    if (exists && statSync(path).isDirectory() && mode.write) throw errorOf("EISDIR", -21, "illegal operation on a directory", "open", String(path));
    if (!exists || mode.truncate) writeFileSync(path, "");
    const fd = nextDescriptor++;
    open.set(fd, { path: String(path instanceof URL ? path.pathname : path), mode, position: 0 });
    return fd;
  }

  function closeSync(fd) {
    entryOf(fd, "close");
    open.delete(fd);
  }

  /** writeSync(fd, buffer, offset?, length?, position?) or writeSync(fd, string, position?, encoding?). */
  function writeSync(fd, data, ...rest) {
    const entry = entryOf(fd, "write");
    if (!entry.mode.write) throw badDescriptor("write");
    let bytes;
    let position;
    if (typeof data === "string") {
      position = rest[0];
      bytes = Buffer.from(data, typeof rest[1] === "string" ? rest[1] : "utf8");
    } else if (ArrayBuffer.isView(data)) {
      const options = typeof rest[0] === "object" && rest[0] !== null ? rest[0] : null;
      const offset = (options ? options.offset : rest[0]) ?? 0;
      const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      const length = (options ? options.length : rest[1]) ?? view.length - offset;
      position = options ? options.position : rest[2];
      bytes = view.subarray(offset, offset + length);
    } else {
      throw invalidArgument("buffer", "of type string or an instance of Buffer, TypedArray, or DataView", data);
    }
    const current = bytesOf(entry);
    const at = entry.mode.append ? current.length : typeof position === "number" && position >= 0 ? position : entry.position;
    const size = Math.max(current.length, at + bytes.length);
    const next = Buffer.alloc(size);
    current.copy(next, 0, 0, current.length);
    bytes.copy(next, at);
    writeFileSync(entry.path, next);
    if (!(typeof position === "number" && position >= 0) || entry.mode.append) entry.position = at + bytes.length;
    return bytes.length;
  }

  /** readSync(fd, buffer, offset, length, position) or readSync(fd, buffer, { offset, length, position }). */
  function readSync(fd, buffer, ...rest) {
    const entry = entryOf(fd, "read");
    if (!entry.mode.read) throw badDescriptor("read");
    if (!ArrayBuffer.isView(buffer)) throw invalidArgument("buffer", "an instance of Buffer, TypedArray, or DataView", buffer);
    const options = typeof rest[0] === "object" && rest[0] !== null ? rest[0] : null;
    const offset = (options ? options.offset : rest[0]) ?? 0;
    const target = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    const length = (options ? options.length : rest[1]) ?? target.length - offset;
    const position = options ? options.position : rest[2];
    const current = bytesOf(entry);
    const from = typeof position === "number" && position >= 0 ? position : typeof position === "bigint" ? Number(position) : entry.position;
    const count = Math.max(0, Math.min(length, current.length - from, target.length - offset));
    current.copy(target, offset, from, from + count);
    if (!(typeof position === "number" && position >= 0) && typeof position !== "bigint") entry.position = from + count;
    return count;
  }

  const fstatSync = (fd) => statSync(entryOf(fd, "fstat").path);
  function ftruncateSync(fd, length = 0) {
    const entry = entryOf(fd, "ftruncate");
    const current = bytesOf(entry);
    const next = Buffer.alloc(length);
    current.copy(next, 0, 0, Math.min(length, current.length));
    writeFileSync(entry.path, next);
  }
  const fsyncSync = (fd) => void entryOf(fd, "fsync");
  const fdatasyncSync = (fd) => void entryOf(fd, "fdatasync");

  /** fs/promises' FileHandle: the same descriptor calls, answered as promises. */
  class FileHandle {
    #fd;
    constructor(fd) {
      this.#fd = fd;
    }
    get fd() {
      return this.#fd;
    }
    async readFile(options) {
      return readFileSync(entryOf(this.#fd, "read").path, options);
    }
    async writeFile(data, options) {
      const entry = entryOf(this.#fd, "write");
      if (entry.mode.append) writeSync(this.#fd, typeof data === "string" ? Buffer.from(data, typeof options === "string" ? options : options?.encoding ?? "utf8") : data);
      else {
        writeFileSync(entry.path, data, options);
        entry.position = bytesOf(entry).length;
      }
    }
    async appendFile(data, options) {
      writeSync(this.#fd, typeof data === "string" ? Buffer.from(data, typeof options === "string" ? options : options?.encoding ?? "utf8") : data, null);
    }
    async read(buffer = Buffer.alloc(16384), offset = 0, length, position = null) {
      if (!ArrayBuffer.isView(buffer) && typeof buffer === "object" && buffer !== null) {
        ({ buffer = Buffer.alloc(16384), offset = 0, length, position = null } = buffer);
      }
      const bytesRead = readSync(this.#fd, buffer, offset, length ?? buffer.byteLength - offset, position);
      return { bytesRead, buffer };
    }
    async write(data, ...rest) {
      const bytesWritten = writeSync(this.#fd, data, ...rest);
      return { bytesWritten, buffer: data };
    }
    async stat() {
      return fstatSync(this.#fd);
    }
    async truncate(length = 0) {
      ftruncateSync(this.#fd, length);
    }
    async sync() {
      fsyncSync(this.#fd);
    }
    async datasync() {
      fdatasyncSync(this.#fd);
    }
    async close() {
      if (open.has(this.#fd)) closeSync(this.#fd);
    }
    async [Symbol.asyncDispose]() {
      await this.close();
    }
  }

  const openHandle = async (path, flags, mode) => new FileHandle(openSync(path, flags, mode));

  return { openSync, closeSync, writeSync, readSync, fstatSync, ftruncateSync, fsyncSync, fdatasyncSync, openHandle, FileHandle };
}
