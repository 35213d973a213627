// node:fs over the engine's virtual filesystem (world.js): the sync calls
// do the work; the callback and promise forms wrap them. Errors carry Node's
// code, errno, syscall and path. Every read and change is an effect.

import { Buffer } from "../web/buffer.js";
import { fileStreams } from "./fs-streams.js";
import { fileDescriptors } from "./fs-descriptors.js";
import { callMod, clock, queueHostTask, randomUint32, settleAsIo } from "../platform.js";
import { isWritable, parentOf, recordEffect, resolvePath, world } from "../world.js";

const ERRORS = {
  ENOENT: [-2, "no such file or directory"],
  EEXIST: [-17, "file already exists"],
  ENOTDIR: [-20, "not a directory"],
  EISDIR: [-21, "illegal operation on a directory"],
  ENOTEMPTY: [-39, "directory not empty"],
  EACCES: [-13, "permission denied"],
  EINVAL: [-22, "invalid argument"],
  EBADF: [-9, "bad file descriptor"],
  ENAMETOOLONG: [-36, "name too long"],
};

// Linux's PATH_MAX and NAME_MAX: also what keeps a hostile mod's paths (in effects, in the snapshot) small.
const PATH_MAX = 4096;
const NAME_MAX = 255;

function fsError(code, syscall, path, dest) {
  const [errno, text] = ERRORS[code];
  const where = dest === undefined ? `'${path}'` : `'${path}' -> '${dest}'`;
  const error = new Error(`${code}: ${text}, ${syscall} ${where}`);
  Object.assign(error, { errno, code, syscall, path });
  if (dest !== undefined) error.dest = dest;
  return error;
}

function pathArg(path, name = "path") {
  if (typeof path === "string") return path;
  if (path instanceof URL) {
    if (path.protocol !== "file:") throw Object.assign(new TypeError("The URL must be of scheme file"), { code: "ERR_INVALID_URL_SCHEME" });
    // Bun's (and Node's) fileURLToPath on Linux: no host but localhost, no encoded slash.
    const invalid = (code) => Object.assign(new TypeError('URL must be a non-empty "file:" path'), { code });
    if (path.hostname !== "" && path.hostname !== "localhost") throw invalid("ERR_INVALID_FILE_URL_HOST");
    if (/%2f/i.test(path.pathname)) throw invalid("ERR_INVALID_FILE_URL_PATH");
    return decodeURIComponent(path.pathname);
  }
  if (ArrayBuffer.isView(path)) return Buffer.from(path.buffer, path.byteOffset, path.byteLength).toString();
  const error = new TypeError(`The "${name}" argument must be of type string or an instance of Buffer or URL. Received ${path === null ? "null" : typeof path}`);
  error.code = "ERR_INVALID_ARG_TYPE";
  throw error;
}

function locate(path, name) {
  const shown = pathArg(path, name);
  if (shown.length >= PATH_MAX || shown.split("/").some((part) => part.length > NAME_MAX)) {
    throw fsError("ENAMETOOLONG", "open", shown);
  }
  const absolute = resolvePath(shown);
  if (absolute.length >= PATH_MAX) throw fsError("ENAMETOOLONG", "open", shown);
  return { shown, absolute };
}

function encodingOf(options) {
  if (typeof options === "string") return options;
  return options?.encoding ?? null;
}

/** Checks that every ancestor of `absolute` is a directory. */
function checkParents(absolute, syscall, shown) {
  let current = parentOf(absolute);
  const chain = [];
  while (true) {
    chain.unshift(current);
    if (current === "/") break;
    current = parentOf(current);
  }
  for (const dir of chain) {
    const node = world.nodes.get(dir);
    if (!node) throw fsError("ENOENT", syscall, shown);
    if (node.kind !== "dir") throw fsError("ENOTDIR", syscall, shown);
  }
}

function nodeAt(absolute, syscall, shown) {
  checkParents(absolute, syscall, shown);
  const node = world.nodes.get(absolute);
  if (!node) throw fsError("ENOENT", syscall, shown);
  return node;
}

function touchParent(absolute) {
  const parent = world.nodes.get(parentOf(absolute));
  if (parent) parent.mtimeMs = clock.now;
}

function toData(data, encoding) {
  if (typeof data === "string") return new Uint8Array(Buffer.from(data, encoding ?? "utf8"));
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
  const error = new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${data === null ? "null" : typeof data}`);
  error.code = "ERR_INVALID_ARG_TYPE";
  throw error;
}

/** Runs `fn` and records its effect; `facts` (which `fn` may fill, e.g. `bytes`) go into the record. */
function guarded(kind, path, fn, facts = Object.create(null)) {
  try {
    const result = fn();
    recordEffect({ kind, path, ok: true, ...facts });
    return result;
  } catch (error) {
    recordEffect({ kind, path, ok: false, error: error.code ?? String(error) });
    throw error;
  }
}

function writeData(path, data, options, append) {
  const { shown, absolute } = locate(path);
  const encoding = encodingOf(options);
  const flag = typeof options === "object" && options !== null ? options.flag : undefined;
  const facts = Object.create(null);
  return guarded(append ? "file_append" : "file_write", absolute, () => {
    checkParents(absolute, "open", shown);
    const existing = world.nodes.get(absolute);
    if (existing?.kind === "dir") throw fsError("EISDIR", "open", shown);
    if (!isWritable(absolute)) throw fsError("EACCES", "open", shown);
    if (existing && (flag === "wx" || flag === "ax")) throw fsError("EEXIST", "open", shown);
    const bytes = toData(data, encoding);
    facts.bytes = bytes.length;
    const appending = append || flag === "a" || flag === "a+";
    const joined = appending && existing ? concat(existing.data, bytes) : bytes;
    if (existing) {
      existing.data = joined;
      existing.mtimeMs = clock.now;
    } else {
      world.nodes.set(absolute, { kind: "file", data: joined, mtimeMs: clock.now, birthtimeMs: clock.now, mode: 0o100644 });
      touchParent(absolute);
    }
    world.written.add(absolute);
  }, facts);
}

function concat(a, b) {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function readFileSync(path, options) {
  if (typeof path === "number") throw fsError("EBADF", "read", String(path));
  const { shown, absolute } = locate(path);
  const encoding = encodingOf(options);
  return guarded("file_read", absolute, () => {
    const node = nodeAt(absolute, "open", shown);
    if (node.kind === "dir") throw fsError("EISDIR", "read", shown);
    const buffer = Buffer.from(node.data);
    return encoding ? buffer.toString(encoding) : buffer;
  });
}

export function writeFileSync(path, data, options) {
  writeData(path, data, options, false);
}

export function appendFileSync(path, data, options) {
  writeData(path, data, options, true);
}

export function mkdirSync(path, options) {
  const { shown, absolute } = locate(path);
  const recursive = typeof options === "object" && options !== null && Boolean(options.recursive);
  return guarded("mkdir", absolute, () => {
    if (recursive) {
      let first;
      const missing = [];
      for (let dir = absolute; !world.nodes.has(dir); dir = parentOf(dir)) missing.unshift(dir);
      const blocker = world.nodes.get(missing.length ? parentOf(missing[0]) : absolute);
      if (blocker && blocker.kind !== "dir") throw fsError(missing.length ? "ENOTDIR" : "EEXIST", "mkdir", shown);
      for (const dir of missing) {
        if (!isWritable(dir)) throw fsError("EACCES", "mkdir", shown);
        world.nodes.set(dir, { kind: "dir", mtimeMs: clock.now, birthtimeMs: clock.now, mode: 0o40755 });
        touchParent(dir);
        first ??= dir;
      }
      return first;
    }
    checkParents(absolute, "mkdir", shown);
    if (world.nodes.has(absolute)) throw fsError("EEXIST", "mkdir", shown);
    if (!isWritable(absolute)) throw fsError("EACCES", "mkdir", shown);
    world.nodes.set(absolute, { kind: "dir", mtimeMs: clock.now, birthtimeMs: clock.now, mode: 0o40755 });
    touchParent(absolute);
    return undefined;
  });
}

export function mkdtempSync(prefix, _options) {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  let suffix = "";
  for (let i = 0; i < 6; i++) suffix += chars[randomUint32() % chars.length];
  const path = `${pathArg(prefix, "prefix")}${suffix}`;
  mkdirSync(path);
  return path;
}

class Dirent {
  #kind;
  constructor(name, parentPath, kind) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    this.#kind = kind;
  }
  isFile() {
    return this.#kind === "file";
  }
  isDirectory() {
    return this.#kind === "dir";
  }
  isSymbolicLink() {
    return false;
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
}

function childrenOf(absolute) {
  const prefix = absolute === "/" ? "/" : `${absolute}/`;
  const names = [];
  for (const [path, node] of world.nodes) {
    if (path !== absolute && path.startsWith(prefix) && !path.slice(prefix.length).includes("/")) names.push([path.slice(prefix.length), node]);
  }
  return names.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function readdirSync(path, options) {
  const { shown, absolute } = locate(path);
  const withFileTypes = typeof options === "object" && options !== null && Boolean(options.withFileTypes);
  const recursive = typeof options === "object" && options !== null && Boolean(options.recursive);
  return guarded("readdir", absolute, () => {
    const node = nodeAt(absolute, "scandir", shown);
    if (node.kind !== "dir") throw fsError("ENOTDIR", "scandir", shown);
    const out = [];
    const walk = (dir, relative) => {
      for (const [name, child] of childrenOf(dir)) {
        const rel = relative ? `${relative}/${name}` : name;
        out.push(withFileTypes ? new Dirent(name, relative ? `${shown}/${relative}` : shown, child.kind) : rel);
        if (recursive && child.kind === "dir") walk(`${dir === "/" ? "" : dir}/${name}`, rel);
      }
    };
    walk(absolute, "");
    return out;
  });
}

export class Stats {
  constructor(node) {
    const size = node.kind === "file" ? node.data.length : 4096;
    Object.assign(this, {
      dev: 2049, mode: node.mode, nlink: 1, uid: 1000, gid: 1000, rdev: 0, blksize: 4096, ino: 0, size,
      blocks: Math.ceil(size / 512), atimeMs: node.mtimeMs, mtimeMs: node.mtimeMs, ctimeMs: node.mtimeMs,
      birthtimeMs: node.birthtimeMs, atime: new Date(node.mtimeMs), mtime: new Date(node.mtimeMs),
      ctime: new Date(node.mtimeMs), birthtime: new Date(node.birthtimeMs),
    });
  }
  isFile() {
    return (this.mode & 0o170000) === 0o100000;
  }
  isDirectory() {
    return (this.mode & 0o170000) === 0o40000;
  }
  isSymbolicLink() {
    return false;
  }
  isFIFO() {
    return false;
  }
  isSocket() {
    return false;
  }
  isBlockDevice() {
    return false;
  }
  isCharacterDevice() {
    return false;
  }
}

export function statSync(path, options) {
  const { shown, absolute } = locate(path);
  try {
    return guarded("stat", absolute, () => new Stats(nodeAt(absolute, "stat", shown)));
  } catch (error) {
    if (options?.throwIfNoEntry === false && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
    throw error;
  }
}

export function lstatSync(path, options) {
  return statSync(path, options);
}

export function existsSync(path) {
  let absolute;
  try {
    absolute = locate(path).absolute;
  } catch {
    return false;
  }
  const exists = world.nodes.has(absolute);
  recordEffect({ kind: "stat", path: absolute, ok: exists });
  return exists;
}

export function accessSync(path, mode = 0) {
  const { shown, absolute } = locate(path);
  guarded("access", absolute, () => {
    nodeAt(absolute, "access", shown);
    if ((mode & 2) !== 0 && !isWritable(absolute)) throw fsError("EACCES", "access", shown);
  });
}

function removeTree(absolute) {
  const prefix = `${absolute}/`;
  for (const path of [...world.nodes.keys()]) {
    if (path === absolute || path.startsWith(prefix)) {
      world.nodes.delete(path);
      world.written.delete(path);
    }
  }
  touchParent(absolute);
}

export function rmSync(path, options = {}) {
  const { shown, absolute } = locate(path);
  guarded("file_delete", absolute, () => {
    if (!world.nodes.has(absolute)) {
      if (options?.force) return;
      nodeAt(absolute, "rm", shown);
    }
    const node = world.nodes.get(absolute);
    if (!isWritable(parentOf(absolute)) || absolute === "/") throw fsError("EACCES", "rm", shown);
    if (node.kind === "dir" && !options?.recursive) {
      const error = new Error(`Path is a directory: rm returned EISDIR (is a directory) ${shown}`);
      Object.assign(error, { code: "ERR_FS_EISDIR", errno: 21, syscall: "rm", path: shown });
      throw error;
    }
    removeTree(absolute);
  });
}

export function unlinkSync(path) {
  const { shown, absolute } = locate(path);
  guarded("file_delete", absolute, () => {
    const node = nodeAt(absolute, "unlink", shown);
    if (node.kind === "dir") throw fsError("EISDIR", "unlink", shown);
    if (!isWritable(absolute)) throw fsError("EACCES", "unlink", shown);
    removeTree(absolute);
  });
}

export function rmdirSync(path, options = {}) {
  const { shown, absolute } = locate(path);
  guarded("file_delete", absolute, () => {
    const node = nodeAt(absolute, "rmdir", shown);
    if (node.kind !== "dir") throw fsError("ENOTDIR", "rmdir", shown);
    if (!isWritable(absolute) || absolute === "/") throw fsError("EACCES", "rmdir", shown);
    if (!options?.recursive && childrenOf(absolute).length) throw fsError("ENOTEMPTY", "rmdir", shown);
    removeTree(absolute);
  });
}

/**
 * Why rename(2) refuses to move `node` from `from` onto `to`, or null: a directory is replaced
 * only by a directory and only when empty, a file only by a file, nothing moves into itself.
 */
function renameRefusal(node, from, to) {
  if (to.startsWith(`${from}/`)) return "EINVAL";
  const replaced = world.nodes.get(to);
  if (replaced === undefined || to === from) return null;
  if (replaced.kind === "dir") {
    if (node.kind !== "dir") return "EISDIR";
    return childrenOf(to).length > 0 ? "ENOTEMPTY" : null;
  }
  return node.kind === "dir" ? "ENOTDIR" : null;
}

export function renameSync(from, to) {
  const source = locate(from, "oldPath");
  const target = locate(to, "newPath");
  // A rename over a file is that file's end: `replaced` says so to keeps_files.
  const facts = Object.create(null);
  guarded("rename", `${source.absolute} -> ${target.absolute}`, () => {
    const node = world.nodes.get(source.absolute);
    if (!node) throw fsError("ENOENT", "rename", source.shown, target.shown);
    if (!world.nodes.has(parentOf(target.absolute))) throw fsError("ENOENT", "rename", source.shown, target.shown);
    if (!isWritable(source.absolute) || !isWritable(target.absolute)) throw fsError("EACCES", "rename", source.shown, target.shown);
    const prefix = `${source.absolute}/`;
    const refusal = renameRefusal(node, source.absolute, target.absolute);
    if (refusal !== null) throw fsError(refusal, "rename", source.shown, target.shown);
    if (target.absolute === source.absolute) return;
    if (world.nodes.has(target.absolute)) facts.replaced = true;
    const moved = [...world.nodes].filter(([path]) => path === source.absolute || path.startsWith(prefix));
    removeTree(target.absolute);
    for (const [path] of moved) world.nodes.delete(path);
    for (const [path, entry] of moved) {
      const next = target.absolute + path.slice(source.absolute.length);
      world.nodes.set(next, entry);
      if (world.written.delete(path) || entry.kind === "file") world.written.add(next);
    }
    touchParent(source.absolute);
    touchParent(target.absolute);
  }, facts);
}

export function copyFileSync(from, to, mode = 0) {
  const source = locate(from, "src");
  const target = locate(to, "dest");
  const facts = Object.create(null);
  guarded("file_write", target.absolute, () => {
    const node = world.nodes.get(source.absolute);
    if (!node) throw fsError("ENOENT", "copyfile", source.shown, target.shown);
    if (node.kind === "dir") throw fsError("EISDIR", "copyfile", source.shown, target.shown);
    if ((mode & 1) !== 0 && world.nodes.has(target.absolute)) throw fsError("EEXIST", "copyfile", source.shown, target.shown);
    if (!world.nodes.has(parentOf(target.absolute))) throw fsError("ENOENT", "copyfile", source.shown, target.shown);
    if (!isWritable(target.absolute)) throw fsError("EACCES", "copyfile", source.shown, target.shown);
    // Copying over a directory is refused, as the copy_file_range behind Node's is.
    if (world.nodes.get(target.absolute)?.kind === "dir") throw fsError("EISDIR", "copyfile", source.shown, target.shown);
    world.nodes.set(target.absolute, { kind: "file", data: node.data.slice(), mtimeMs: clock.now, birthtimeMs: clock.now, mode: node.mode });
    world.written.add(target.absolute);
    facts.bytes = node.data.length;
    recordEffect({ kind: "file_read", path: source.absolute, ok: true });
  }, facts);
}

export function realpathSync(path) {
  const { shown, absolute } = locate(path);
  nodeAt(absolute, "realpath", shown);
  return absolute;
}
realpathSync.native = realpathSync;

export function chmodSync(path, mode) {
  const { shown, absolute } = locate(path);
  const node = nodeAt(absolute, "chmod", shown);
  node.mode = (node.mode & 0o170000) | (Number(mode) & 0o7777);
}

export function utimesSync(path, _atime, mtime) {
  const { shown, absolute } = locate(path);
  const node = nodeAt(absolute, "utime", shown);
  node.mtimeMs = mtime instanceof Date ? mtime.getTime() : Number(mtime) * 1000;
}

export function truncateSync(path, length = 0) {
  const { shown, absolute } = locate(path);
  const node = nodeAt(absolute, "open", shown);
  writeFileSync(path, Buffer.from(node.data).subarray(0, length).toString("latin1"), "latin1");
  void shown;
}

export function watch() {
  return { close() {}, on() { return this; }, ref() { return this; }, unref() { return this; } };
}

export function watchFile() {}
export function unwatchFile() {}

export const constants = Object.freeze({
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024,
  S_IFMT: 0o170000, S_IFREG: 0o100000, S_IFDIR: 0o40000,
});
export const { F_OK, R_OK, W_OK, X_OK } = constants;

const SYNC = {
  readFile: readFileSync, writeFile: writeFileSync, appendFile: appendFileSync, mkdir: mkdirSync, mkdtemp: mkdtempSync,
  readdir: readdirSync, stat: statSync, lstat: lstatSync, access: accessSync, rm: rmSync, unlink: unlinkSync,
  rmdir: rmdirSync, rename: renameSync, copyFile: copyFileSync, realpath: realpathSync, chmod: chmodSync,
  utimes: utimesSync, truncate: truncateSync,
};

/**
 * The callback form of a sync call: the callback runs after the caller's code, as in Node.
 * With `spread`, the call answers the callback's arguments after the error, as a list.
 */
function callbackForm(name, sync, spread = false) {
  const wrapped = {
    [name](...args) {
      const callback = args.pop();
      if (typeof callback !== "function") {
        const error = new TypeError(`The "cb" argument must be of type function. Received ${typeof callback}`);
        error.code = "ERR_INVALID_ARG_TYPE";
        throw error;
      }
      let result;
      let failure = null;
      try {
        result = sync(...args);
      } catch (error) {
        failure = error;
      }
      // The work is done now (its effects recorded in order); the callback runs when the
      // loop turns, as a real file operation's does.
      const results = failure ? [failure] : spread ? [null, ...result] : [null, result];
      queueHostTask(() => callMod(callback, undefined, results), "io");
    },
  }[name];
  return wrapped;
}

/** The promise form of a sync call: done now, settled when the loop turns, as Bun's are. */
export function promiseForm(sync) {
  return (...args) => settleAsIo(() => sync(...args));
}

export const readFile = callbackForm("readFile", readFileSync);
export const writeFile = callbackForm("writeFile", writeFileSync);
export const appendFile = callbackForm("appendFile", appendFileSync);
export const mkdir = callbackForm("mkdir", mkdirSync);
export const mkdtemp = callbackForm("mkdtemp", mkdtempSync);
export const readdir = callbackForm("readdir", readdirSync);
export const stat = callbackForm("stat", statSync);
export const lstat = callbackForm("lstat", lstatSync);
export const access = callbackForm("access", accessSync);
export const rm = callbackForm("rm", rmSync);
export const unlink = callbackForm("unlink", unlinkSync);
export const rmdir = callbackForm("rmdir", rmdirSync);
export const rename = callbackForm("rename", renameSync);
export const copyFile = callbackForm("copyFile", copyFileSync);
export const realpath = callbackForm("realpath", realpathSync);
export const chmod = callbackForm("chmod", chmodSync);
export const utimes = callbackForm("utimes", utimesSync);
export const truncate = callbackForm("truncate", truncateSync);

/** `fs.exists` (deprecated in Node, still used): a callback with one boolean. */
export function exists(path, callback) {
  const found = existsSync(path);
  queueHostTask(() => callMod(callback, undefined, [found]), "io");
}

/** `fs.cpSync`: a file, or with `recursive` a directory and all it holds. */
export function cpSync(from, to, options = {}) {
  const source = statSync(from);
  if (source.isDirectory()) {
    if (!options?.recursive) {
      const error = new Error(`Recursive option is required to copy a directory: ${from}`);
      Object.assign(error, { code: "ERR_FS_EISDIR", syscall: "cp", path: String(from) });
      throw error;
    }
    mkdirSync(to, { recursive: true });
    for (const name of readdirSync(from)) cpSync(`${from}/${name}`, `${to}/${name}`, options);
    return;
  }
  if (options?.errorOnExist && options?.force === false && existsSync(to)) throw fsError("EEXIST", "cp", String(to));
  if (options?.force === false && existsSync(to)) return;
  copyFileSync(from, to);
}

const descriptors = fileDescriptors({ readFileSync, writeFileSync, statSync, existsSync });
export const { openSync, closeSync, writeSync, readSync, fstatSync, ftruncateSync, fsyncSync, fdatasyncSync } = descriptors;

/** A descriptor call's callback form: Node's read and write callbacks get the buffer too. */
function descriptorCallback(name, sync, withBuffer) {
  return callbackForm(name, (...args) => {
    const result = sync(...args);
    return withBuffer ? [result, args[1]] : result;
  }, withBuffer);
}

export const open = descriptorCallback("open", openSync, false);
export const close = descriptorCallback("close", closeSync, false);
export const write = descriptorCallback("write", writeSync, true);
export const read = descriptorCallback("read", readSync, true);
export const fstat = descriptorCallback("fstat", fstatSync, false);
export const ftruncate = descriptorCallback("ftruncate", ftruncateSync, false);
export const fsync = descriptorCallback("fsync", fsyncSync, false);
export const fdatasync = descriptorCallback("fdatasync", fdatasyncSync, false);
export const cp = callbackForm("cp", cpSync);

export const promises = Object.fromEntries(Object.entries(SYNC).map(([name, sync]) => [name, promiseForm(sync)]));
promises.constants = constants;
promises.open = descriptors.openHandle;
promises.cp = promiseForm(cpSync);

export const { createReadStream, createWriteStream } = fileStreams({ appendFileSync, readFileSync, writeFileSync });

const fs = {
  ...Object.fromEntries(Object.entries(SYNC).map(([name, sync]) => [`${name}Sync`, sync])),
  readFile, writeFile, appendFile, mkdir, mkdtemp, readdir, stat, lstat, access, rm, unlink, rmdir, rename,
  copyFile, realpath, chmod, utimes, truncate, exists, existsSync, watch, watchFile, unwatchFile,
  promises, constants, F_OK, R_OK, W_OK, X_OK, Stats, Dirent, createReadStream, createWriteStream,
  cpSync, cp, openSync, closeSync, writeSync, readSync, fstatSync, ftruncateSync, fsyncSync, fdatasyncSync,
  open, close, write, read, fstat, ftruncate, fsync, fdatasync,
};
export { Dirent };
export default fs;
