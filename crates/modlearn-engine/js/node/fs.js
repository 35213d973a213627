// node:fs over the candidate's real machine (machine.js): each sync call is one system call (or
// a few) made there, as the kernel resolves it; the callback and promise forms wrap them. Errors
// carry Node's code, errno, syscall and path. Reads are logged for the reports; what a mod
// changed the judge reads from the machine itself.

import { Buffer } from "../web/buffer.js";
import { fileStreams } from "./fs-streams.js";
import { fileDescriptors, openFlags } from "./fs-descriptors.js";
import { callMod, queueHostTask, randomUint32, settleAsIo } from "../platform.js";
import { machineCall } from "../machine.js";
import { holdHandle, kernelPath, recordEffect, world } from "../world.js";

/** errno values and their texts, as Node (libuv) words them. */
const ERRORS = {
  EPERM: [-1, "operation not permitted"],
  ENOENT: [-2, "no such file or directory"],
  EIO: [-5, "i/o error"],
  E2BIG: [-7, "argument list too long"],
  ENOEXEC: [-8, "exec format error"],
  EBADF: [-9, "bad file descriptor"],
  EAGAIN: [-11, "resource temporarily unavailable"],
  ENOMEM: [-12, "not enough memory"],
  EACCES: [-13, "permission denied"],
  EBUSY: [-16, "resource busy or locked"],
  EEXIST: [-17, "file already exists"],
  EXDEV: [-18, "cross-device link not permitted"],
  ENOTDIR: [-20, "not a directory"],
  EISDIR: [-21, "illegal operation on a directory"],
  EINVAL: [-22, "invalid argument"],
  ENFILE: [-23, "file table overflow"],
  EMFILE: [-24, "too many open files"],
  ETXTBSY: [-26, "text file is busy"],
  EFBIG: [-27, "file too large"],
  ENOSPC: [-28, "no space left on device"],
  ESPIPE: [-29, "invalid seek"],
  EROFS: [-30, "read-only file system"],
  EMLINK: [-31, "too many links"],
  EPIPE: [-32, "broken pipe"],
  ENAMETOOLONG: [-36, "name too long"],
  ENOTEMPTY: [-39, "directory not empty"],
  ELOOP: [-40, "too many symbolic links encountered"],
  EDQUOT: [-122, "disk quota exceeded"],
  ENOTSUP: [-95, "operation not supported on socket"],
};

// Linux's PATH_MAX and NAME_MAX, checked before a call goes out.
const PATH_MAX = 4096;
const NAME_MAX = 255;

export function fsError(code, syscall, path, dest) {
  if (code === "ERR_FS_FILE_TOO_LARGE") {
    const error = new RangeError(`File size is greater than 2 GiB`);
    return Object.assign(error, { code });
  }
  const [errno, text] = ERRORS[code] ?? [-5, code.toLowerCase()];
  const where = path === undefined ? "" : dest === undefined ? ` '${path}'` : ` '${path}' -> '${dest}'`;
  const error = new Error(`${code}: ${text}, ${syscall}${where}`);
  Object.assign(error, { errno, code, syscall });
  if (path !== undefined) error.path = path;
  if (dest !== undefined) error.dest = dest;
  return error;
}

/** A machine the sandbox could not give: the mod's call fails, saying why. */
function unavailable(reason) {
  return Object.assign(new Error(`the machine is unavailable: ${reason}`), { code: "ERR_MODLEARN_NO_MACHINE" });
}

/**
 * One call on the machine: its reply, or the error it failed with thrown as Node throws it
 * (`shown` and `dest` are the paths as the mod gave them).
 */
export function machineFs(request, shown, dest, payload) {
  const answer = machineCall(request, payload);
  const { reply } = answer;
  if (reply.reply === "failed") throw fsError(reply.code, reply.syscall, shown, dest);
  if (reply.reply === "unavailable") throw unavailable(reply.reason);
  return answer;
}

export function pathArg(path, name = "path") {
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

/** The path as the mod gave it (`shown`) and as the kernel gets it (`absolute`). */
export function locate(path, name) {
  const shown = pathArg(path, name);
  if (shown.includes("\0")) {
    const error = new TypeError(`The argument '${name ?? "path"}' must be a string, Uint8Array, or URL without null bytes. Received ${JSON.stringify(shown)}`);
    error.code = "ERR_INVALID_ARG_VALUE";
    throw error;
  }
  if (shown.length >= PATH_MAX || shown.split("/").some((part) => part.length > NAME_MAX)) {
    throw fsError("ENAMETOOLONG", "open", shown);
  }
  const absolute = kernelPath(shown);
  if (absolute.length >= PATH_MAX) throw fsError("ENAMETOOLONG", "open", shown);
  return { shown, absolute };
}

function encodingOf(options) {
  if (typeof options === "string") return options;
  return options?.encoding ?? null;
}

function toData(data, encoding) {
  if (typeof data === "string") return new Uint8Array(Buffer.from(data, encoding ?? "utf8"));
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const error = new TypeError(`The "data" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${data === null ? "null" : typeof data}`);
  error.code = "ERR_INVALID_ARG_TYPE";
  throw error;
}

/** Runs `fn` and logs it (a read, a listing, a stat) for the reports. */
function logged(kind, path, fn) {
  try {
    const result = fn();
    recordEffect({ kind, path, ok: true });
    return result;
  } catch (error) {
    recordEffect({ kind, path, ok: false, error: String(error?.code ?? "error") });
    throw error;
  }
}

/** A mode argument: a number, or an octal string (`"755"`). */
function modeArg(mode, fallback) {
  if (mode === undefined || mode === null) return fallback;
  return typeof mode === "string" ? Number.parseInt(mode, 8) : Number(mode);
}

function writeData(path, data, options, defaultFlag) {
  const { shown, absolute } = locate(path);
  const flag = (typeof options === "object" && options !== null ? options.flag : undefined) ?? defaultFlag;
  const mode = modeArg(typeof options === "object" && options !== null ? options.mode : undefined, 0o666);
  const bytes = toData(data, encodingOf(options));
  machineFs({ op: "writeFile", path: absolute, flags: openFlags(flag), mode }, shown, undefined, bytes);
}

export function readFileSync(path, options) {
  if (typeof path === "number") return descriptors.readFileFromDescriptor(path, encodingOf(options));
  const { shown, absolute } = locate(path);
  const encoding = encodingOf(options);
  return logged("file_read", absolute, () => {
    const { payload } = machineFs({ op: "readFile", path: absolute }, shown);
    const buffer = Buffer.from(payload);
    return encoding && encoding !== "buffer" ? buffer.toString(encoding) : buffer;
  });
}

export function writeFileSync(path, data, options) {
  if (typeof path === "number") return descriptors.writeAll(path, toData(data, encodingOf(options)));
  writeData(path, data, options, "w");
}

export function appendFileSync(path, data, options) {
  if (typeof path === "number") return descriptors.writeAll(path, toData(data, encodingOf(options)));
  writeData(path, data, options, "a");
}

function statOf(absolute, follow) {
  return machineCall({ op: "stat", path: absolute, follow }).reply;
}

export function mkdirSync(path, options) {
  const { shown, absolute } = locate(path);
  const recursive = typeof options === "object" && options !== null && Boolean(options.recursive);
  const mode = modeArg(typeof options === "object" && options !== null ? options.mode : typeof options === "number" ? options : undefined, 0o777);
  if (!recursive) {
    machineFs({ op: "mkdir", path: absolute, mode }, shown);
    return undefined;
  }
  // Node's recursive mkdir: make what is missing from the top down; an existing directory is fine.
  const made = [];
  const make = (dir) => {
    const { reply } = machineCall({ op: "mkdir", path: dir, mode });
    if (reply.reply === "done") {
      made.push(dir);
      return;
    }
    if (reply.reply === "unavailable") throw unavailable(reply.reason);
    if (reply.code === "EEXIST") {
      const stat = statOf(dir, true);
      if (stat.reply === "stat" && (stat.mode & 0o170000) === 0o40000) return;
      throw fsError(stat.reply === "stat" ? "EEXIST" : "ENOTDIR", "mkdir", shown);
    }
    const parent = dir.slice(0, dir.lastIndexOf("/"));
    if (reply.code === "ENOENT" && parent !== "" && parent !== dir) {
      make(parent);
      const again = machineCall({ op: "mkdir", path: dir, mode }).reply;
      if (again.reply === "done") {
        made.push(dir);
        return;
      }
      if (again.reply === "failed" && again.code === "EEXIST") return;
      throw fsError(again.code ?? "EIO", "mkdir", shown);
    }
    throw fsError(reply.code, "mkdir", shown);
  };
  make(absolute.replace(/\/+$/, "") || "/");
  return made.length > 0 ? made[0] : undefined;
}

export function mkdtempSync(prefix, _options) {
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  const start = pathArg(prefix, "prefix");
  for (let attempt = 0; ; attempt++) {
    let suffix = "";
    for (let i = 0; i < 6; i++) suffix += chars[randomUint32() % chars.length];
    const path = `${start}${suffix}`;
    const { absolute } = locate(path, "prefix");
    const { reply } = machineCall({ op: "mkdir", path: absolute, mode: 0o700 });
    if (reply.reply === "done") return path;
    if (reply.reply === "unavailable") throw unavailable(reply.reason);
    if (reply.code !== "EEXIST" || attempt >= 100) throw fsError(reply.code, "mkdtemp", `${start}XXXXXX`);
  }
}

/** What `readdir` and `stat` call an entry's kind, by its mode bits. */
const KIND_OF_MODE = { 0o100000: "file", 0o40000: "dir", 0o120000: "symlink", 0o10000: "fifo", 0o140000: "socket", 0o20000: "char", 0o60000: "block" };

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
    return this.#kind === "symlink";
  }
  isFIFO() {
    return this.#kind === "fifo";
  }
  isSocket() {
    return this.#kind === "socket";
  }
  isBlockDevice() {
    return this.#kind === "block";
  }
  isCharacterDevice() {
    return this.#kind === "char";
  }
}

export function readdirSync(path, options) {
  const { shown, absolute } = locate(path);
  const withFileTypes = typeof options === "object" && options !== null && Boolean(options.withFileTypes);
  const recursive = typeof options === "object" && options !== null && Boolean(options.recursive);
  return logged("readdir", absolute, () => {
    const out = [];
    const walk = (dir, relative) => {
      const { reply } = machineFs({ op: "readdir", path: dir }, relative ? `${shown}/${relative}` : shown);
      for (const { name, kind } of reply.entries) {
        const rel = relative ? `${relative}/${name}` : name;
        out.push(withFileTypes ? new Dirent(name, relative ? `${shown}/${relative}` : shown, kind) : rel);
        if (recursive && kind === "dir") walk(`${dir === "/" ? "" : dir}/${name}`, rel);
      }
    };
    walk(absolute, "");
    return out;
  });
}

export class Stats {
  constructor(stat) {
    Object.assign(this, {
      dev: stat.dev, mode: stat.mode, nlink: stat.nlink, uid: stat.uid, gid: stat.gid, rdev: stat.rdev, blksize: stat.blksize,
      ino: stat.ino, size: stat.size, blocks: stat.blocks, atimeMs: stat.atimeMs, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs,
      birthtimeMs: stat.birthtimeMs, atime: new Date(stat.atimeMs), mtime: new Date(stat.mtimeMs), ctime: new Date(stat.ctimeMs),
      birthtime: new Date(stat.birthtimeMs),
    });
  }
  #kind() {
    return KIND_OF_MODE[this.mode & 0o170000];
  }
  isFile() {
    return this.#kind() === "file";
  }
  isDirectory() {
    return this.#kind() === "dir";
  }
  isSymbolicLink() {
    return this.#kind() === "symlink";
  }
  isFIFO() {
    return this.#kind() === "fifo";
  }
  isSocket() {
    return this.#kind() === "socket";
  }
  isBlockDevice() {
    return this.#kind() === "block";
  }
  isCharacterDevice() {
    return this.#kind() === "char";
  }
}

function statPath(path, options, follow) {
  const { shown, absolute } = locate(path);
  try {
    return logged("stat", absolute, () => new Stats(machineFs({ op: "stat", path: absolute, follow }, shown).reply));
  } catch (error) {
    if (options?.throwIfNoEntry === false && (error.code === "ENOENT" || error.code === "ENOTDIR")) return undefined;
    throw error;
  }
}

export function statSync(path, options) {
  return statPath(path, options, true);
}

export function lstatSync(path, options) {
  return statPath(path, options, false);
}

export function existsSync(path) {
  let absolute;
  try {
    absolute = locate(path).absolute;
  } catch {
    return false;
  }
  const exists = statOf(absolute, true).reply === "stat";
  recordEffect({ kind: "stat", path: absolute, ok: exists });
  return exists;
}

export function accessSync(path, mode = 0) {
  const { shown, absolute } = locate(path);
  logged("access", absolute, () => machineFs({ op: "access", path: absolute, mode: Number(mode) & 7 }, shown));
}

export function rmSync(path, options = {}) {
  const { shown, absolute } = locate(path);
  const found = statOf(absolute, false);
  if (found.reply === "unavailable") throw unavailable(found.reason);
  if (found.reply !== "stat") {
    if (options?.force && found.code === "ENOENT") return;
    throw fsError(found.code, "rm", shown);
  }
  if ((found.mode & 0o170000) === 0o40000 && !options?.recursive) {
    const error = new Error(`Path is a directory: rm returned EISDIR (is a directory) ${shown}`);
    Object.assign(error, { code: "ERR_FS_EISDIR", errno: 21, syscall: "rm", path: shown });
    throw error;
  }
  machineFs({ op: "removeTree", path: absolute }, shown);
}

export function unlinkSync(path) {
  const { shown, absolute } = locate(path);
  machineFs({ op: "unlink", path: absolute }, shown);
}

export function rmdirSync(path, options = {}) {
  const { shown, absolute } = locate(path);
  machineFs({ op: options?.recursive ? "removeTree" : "rmdir", path: absolute }, shown);
}

export function renameSync(from, to) {
  const source = locate(from, "oldPath");
  const target = locate(to, "newPath");
  machineFs({ op: "rename", from: source.absolute, to: target.absolute }, source.shown, target.shown);
}

export function copyFileSync(from, to, mode = 0) {
  const source = locate(from, "src");
  const target = locate(to, "dest");
  logged("file_read", source.absolute, () =>
    machineFs({ op: "copyFile", from: source.absolute, to: target.absolute, exclusive: (Number(mode) & 1) !== 0 }, source.shown, target.shown));
}

export function realpathSync(path) {
  const { shown, absolute } = locate(path);
  return machineFs({ op: "realpath", path: absolute }, shown).reply.path;
}
realpathSync.native = realpathSync;

export function symlinkSync(target, path, _type) {
  const { shown, absolute } = locate(path);
  const linkTarget = pathArg(target, "target");
  machineFs({ op: "symlink", target: linkTarget, path: absolute }, linkTarget, shown);
}

export function readlinkSync(path, options) {
  const { shown, absolute } = locate(path);
  const target = machineFs({ op: "readlink", path: absolute }, shown).reply.path;
  return encodingOf(options) === "buffer" ? Buffer.from(target) : target;
}

export function linkSync(existing, path) {
  const source = locate(existing, "existingPath");
  const target = locate(path, "newPath");
  machineFs({ op: "link", existing: source.absolute, path: target.absolute }, source.shown, target.shown);
}

export function chmodSync(path, mode) {
  const { shown, absolute } = locate(path);
  machineFs({ op: "chmod", path: absolute, mode: modeArg(mode, 0) & 0o7777 }, shown);
}

/** A time argument in ms: a Date, seconds as a number, or seconds as a numeric string. */
function timeArg(time) {
  if (time instanceof Date) return time.getTime();
  return Number(time) * 1000;
}

function setTimes(path, atime, mtime, follow) {
  const { shown, absolute } = locate(path);
  machineFs({ op: "utimes", path: absolute, atimeMs: timeArg(atime), mtimeMs: timeArg(mtime), follow }, shown);
}

export function utimesSync(path, atime, mtime) {
  setTimes(path, atime, mtime, true);
}

export function lutimesSync(path, atime, mtime) {
  setTimes(path, atime, mtime, false);
}

export function truncateSync(path, length = 0) {
  if (typeof path === "number") return descriptors.ftruncateSync(path, length);
  const { shown, absolute } = locate(path);
  machineFs({ op: "truncate", path: absolute, length: Math.max(0, Number(length) || 0) }, shown);
}

/**
 * A watcher of `filename`. The machine reports no changes to it, but the watcher is code ready
 * to run when one comes, held until `close()`: a mod that leaves it open has not cleaned up.
 */
export function watch(filename) {
  world.watched++;
  const release = holdHandle("fs.watch", filename);
  const watcher = {
    close() {
      release();
    },
    ref: () => watcher,
    unref: () => watcher,
  };
  for (const method of ["on", "once", "addListener", "prependListener", "off", "removeListener", "removeAllListeners"]) {
    watcher[method] = () => watcher;
  }
  return watcher;
}

/** `fs.watchFile` pollers by file name: each listener held until `unwatchFile` lets it go. */
const pollers = new Map();

export function watchFile(filename, options, listener) {
  const key = String(filename);
  const callback = typeof options === "function" ? options : listener;
  world.watched++;
  const list = pollers.get(key) ?? [];
  list.push({ callback, release: holdHandle("fs.watchFile", key) });
  pollers.set(key, list);
  return { ref() { return this; }, unref() { return this; } };
}

export function unwatchFile(filename, listener) {
  const key = String(filename);
  const list = pollers.get(key) ?? [];
  for (const entry of list.filter((entry) => listener === undefined || entry.callback === listener)) {
    entry.release();
    list.splice(list.indexOf(entry), 1);
  }
  if (list.length === 0) pollers.delete(key);
}

export const constants = Object.freeze({
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1, COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
  O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_NOCTTY: 256, O_TRUNC: 512, O_APPEND: 1024,
  O_DIRECTORY: 65536, O_NOFOLLOW: 131072, O_SYNC: 1052672, O_DSYNC: 4096, O_NONBLOCK: 2048,
  S_IFMT: 0o170000, S_IFREG: 0o100000, S_IFDIR: 0o40000, S_IFLNK: 0o120000, S_IFIFO: 0o10000, S_IFSOCK: 0o140000,
  S_IFCHR: 0o20000, S_IFBLK: 0o60000,
});
export const { F_OK, R_OK, W_OK, X_OK } = constants;

const descriptors = fileDescriptors({ Stats, locate, machineFs, fsError });

const SYNC = {
  readFile: readFileSync, writeFile: writeFileSync, appendFile: appendFileSync, mkdir: mkdirSync, mkdtemp: mkdtempSync,
  readdir: readdirSync, stat: statSync, lstat: lstatSync, access: accessSync, rm: rmSync, unlink: unlinkSync,
  rmdir: rmdirSync, rename: renameSync, copyFile: copyFileSync, realpath: realpathSync, chmod: chmodSync,
  utimes: utimesSync, lutimes: lutimesSync, truncate: truncateSync, symlink: symlinkSync, readlink: readlinkSync,
  link: linkSync,
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
      // The work is done now; the callback runs when the loop turns, as a real file
      // operation's does.
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
export const lutimes = callbackForm("lutimes", lutimesSync);
export const truncate = callbackForm("truncate", truncateSync);
export const symlink = callbackForm("symlink", symlinkSync);
export const readlink = callbackForm("readlink", readlinkSync);
export const link = callbackForm("link", linkSync);

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
  copyFile, realpath, chmod, utimes, lutimes, truncate, symlink, readlink, link, exists, existsSync, watch, watchFile,
  unwatchFile, promises, constants, F_OK, R_OK, W_OK, X_OK, Stats, Dirent, createReadStream, createWriteStream,
  cpSync, cp, openSync, closeSync, writeSync, readSync, fstatSync, ftruncateSync, fsyncSync, fdatasyncSync,
  open, close, write, read, fstat, ftruncate, fsync, fdatasync,
};
export { Dirent };
export default fs;
