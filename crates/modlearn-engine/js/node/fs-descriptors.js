// File descriptors on the candidate's machine: openSync, readSync, writeSync, closeSync and
// their kin, and fs/promises' FileHandle. Each descriptor is an open file of the machine's
// (positions and O_APPEND are the kernel's); a mod sees Node's numbers from 3 up.

import { Buffer } from "../web/buffer.js";
import { watchCollection } from "../platform.js";
import { O } from "../machine.js";

/** Descriptors as Node numbers them after stdio. */
let nextDescriptor = 3;

/** Open descriptors (the machine's handle and how it was opened), shared by every load generation as a process's table is. */
const open = new Map();
watchCollection("node:fs open descriptors", open);

/** Node's flag strings as open(2) flags. */
const FLAGS = {
  r: O.RDONLY,
  rs: O.RDONLY | O.SYNC,
  sr: O.RDONLY | O.SYNC,
  "r+": O.RDWR,
  "rs+": O.RDWR | O.SYNC,
  "sr+": O.RDWR | O.SYNC,
  w: O.TRUNC | O.CREAT | O.WRONLY,
  wx: O.TRUNC | O.CREAT | O.WRONLY | O.EXCL,
  xw: O.TRUNC | O.CREAT | O.WRONLY | O.EXCL,
  "w+": O.TRUNC | O.CREAT | O.RDWR,
  "wx+": O.TRUNC | O.CREAT | O.RDWR | O.EXCL,
  "xw+": O.TRUNC | O.CREAT | O.RDWR | O.EXCL,
  a: O.APPEND | O.CREAT | O.WRONLY,
  ax: O.APPEND | O.CREAT | O.WRONLY | O.EXCL,
  xa: O.APPEND | O.CREAT | O.WRONLY | O.EXCL,
  as: O.APPEND | O.CREAT | O.WRONLY | O.SYNC,
  sa: O.APPEND | O.CREAT | O.WRONLY | O.SYNC,
  "a+": O.APPEND | O.CREAT | O.RDWR,
  "ax+": O.APPEND | O.CREAT | O.RDWR | O.EXCL,
  "xa+": O.APPEND | O.CREAT | O.RDWR | O.EXCL,
  "as+": O.APPEND | O.CREAT | O.RDWR | O.SYNC,
  "sa+": O.APPEND | O.CREAT | O.RDWR | O.SYNC,
};

/** open(2) flags from Node's flag strings or numbers (`"wx"`, `O_WRONLY | O_CREAT`). */
export function openFlags(flags) {
  if (flags === undefined || flags === null) return FLAGS.r;
  if (typeof flags === "number") return flags;
  const bits = FLAGS[String(flags)];
  if (bits === undefined) {
    const error = new TypeError(`The value "${String(flags)}" is invalid for option "flags"`);
    error.code = "ERR_INVALID_ARG_VALUE";
    throw error;
  }
  return bits;
}

function invalidArgument(name, expected, value) {
  const error = new TypeError(`The "${name}" argument must be ${expected}. Received ${value === null ? "null" : typeof value}`);
  error.code = "ERR_INVALID_ARG_TYPE";
  return error;
}

/** A position argument: a non-negative number or bigint, else "where the file stands" (null). */
function positionOf(position) {
  if (typeof position === "bigint") return position >= 0n ? Number(position) : null;
  return typeof position === "number" && position >= 0 ? position : null;
}

/** The descriptor calls over node:fs's machine calls (handed in: fs.js imports this module). */
export function fileDescriptors({ Stats, locate, machineFs, fsError }) {
  const badDescriptor = (syscall) => fsError("EBADF", syscall);

  function entryOf(fd, syscall) {
    if (typeof fd !== "number" || !Number.isInteger(fd)) throw invalidArgument("fd", "of type number", fd);
    const entry = open.get(fd);
    if (entry === undefined) throw badDescriptor(syscall);
    return entry;
  }

  function openSync(path, flags, mode) {
    const { shown, absolute } = locate(path);
    const bits = openFlags(flags);
    const { reply } = machineFs({ op: "open", path: absolute, flags: bits, mode: mode === undefined || mode === null ? 0o666 : Number(mode) }, shown);
    const fd = nextDescriptor++;
    open.set(fd, { handle: reply.handle, path: shown });
    return fd;
  }

  function closeSync(fd) {
    const entry = entryOf(fd, "close");
    open.delete(fd);
    machineFs({ op: "close", handle: entry.handle });
  }

  /** Writes all of `bytes` where the descriptor stands. */
  function writeAll(fd, bytes) {
    const entry = entryOf(fd, "write");
    for (let offset = 0; offset < bytes.length;) {
      const { reply } = machineFs({ op: "write", handle: entry.handle, position: null }, undefined, undefined, bytes.subarray(offset));
      if (reply.count === 0) break;
      offset += reply.count;
    }
  }

  /** writeSync(fd, buffer, offset?, length?, position?) or writeSync(fd, string, position?, encoding?). */
  function writeSync(fd, data, ...rest) {
    const entry = entryOf(fd, "write");
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
    const { reply } = machineFs({ op: "write", handle: entry.handle, position: positionOf(position) }, undefined, undefined, new Uint8Array(bytes));
    return reply.count;
  }

  /** readSync(fd, buffer, offset, length, position) or readSync(fd, buffer, { offset, length, position }). */
  function readSync(fd, buffer, ...rest) {
    const entry = entryOf(fd, "read");
    if (!ArrayBuffer.isView(buffer)) throw invalidArgument("buffer", "an instance of Buffer, TypedArray, or DataView", buffer);
    const options = typeof rest[0] === "object" && rest[0] !== null ? rest[0] : null;
    const offset = (options ? options.offset : rest[0]) ?? 0;
    const target = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
    const length = Math.max(0, Math.min((options ? options.length : rest[1]) ?? target.length - offset, target.length - offset));
    const position = options ? options.position : rest[2];
    const { payload } = machineFs({ op: "read", handle: entry.handle, length, position: positionOf(position) });
    Buffer.from(payload).copy(target, offset);
    return payload.length;
  }

  /** `readFileSync(fd)`: the rest of the file from where the descriptor stands. */
  function readFileFromDescriptor(fd, encoding) {
    const entry = entryOf(fd, "read");
    const chunks = [];
    for (;;) {
      const { payload } = machineFs({ op: "read", handle: entry.handle, length: 1 << 20, position: null });
      if (payload.length === 0) break;
      chunks.push(Buffer.from(payload));
    }
    const all = Buffer.concat(chunks);
    return encoding && encoding !== "buffer" ? all.toString(encoding) : all;
  }

  const fstatSync = (fd) => new Stats(machineFs({ op: "fstat", handle: entryOf(fd, "fstat").handle }).reply);
  const ftruncateSync = (fd, length = 0) => void machineFs({ op: "ftruncate", handle: entryOf(fd, "ftruncate").handle, length: Math.max(0, Number(length) || 0) });
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
      return readFileFromDescriptor(this.#fd, typeof options === "string" ? options : options?.encoding);
    }
    async writeFile(data, options) {
      const encoding = typeof options === "string" ? options : options?.encoding ?? "utf8";
      writeAll(this.#fd, typeof data === "string" ? new Uint8Array(Buffer.from(data, encoding)) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    }
    async appendFile(data, options) {
      return this.writeFile(data, options);
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

  return {
    openSync, closeSync, writeSync, readSync, fstatSync, ftruncateSync, fsyncSync, fdatasyncSync, openHandle, FileHandle, writeAll,
    readFileFromDescriptor,
  };
}
