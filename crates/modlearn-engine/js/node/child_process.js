// node:child_process, and Bun.spawn / Bun.spawnSync / Bun.which: every command runs on the
// candidate's real machine (machine.js), in a real /bin/sh with the machine's own programs,
// inside its sandbox; the machine records every program that ran for the judge. A command line
// runs as `/bin/sh -c` (or the `shell` option's shell) runs it; an argv (execFile, spawn,
// Bun.spawn) runs its program directly, found on the child's PATH as execvp finds it. The sync
// calls run at once; the others when the loop turns, with what the mod wrote to their input by
// then, and report as a real child does.

import { Buffer } from "../web/buffer.js";
import { ReadableStream } from "../web/streams.js";
import { EventEmitter } from "./events.js";
import { machineCall } from "../machine.js";
import { kernelPath, world } from "../world.js";
import * as platform from "../platform.js";

const kCustomPromisify = Symbol.for("nodejs.util.promisify.custom");

// Taken before any mod runs: String.prototype is a mod's to change.
const replace = String.prototype.replace;
const { entries } = Object;

/** The process id a child shows (the machine's own ids are its business). */
const CHILD_PID = 4243;

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${Reflect.apply(replace, String(arg), [/'/g, "'\\''"])}'`;
}

function commandLine(file, args) {
  return [String(file), ...(args ?? [])].map(quote).join(" ");
}

function encodeOutput(bytes, encoding) {
  const buffer = Buffer.from(bytes);
  return encoding && encoding !== "buffer" ? buffer.toString(encoding) : buffer;
}

/**
 * The arguments as plain strings, read once by index as Node copies them: an array's own
 * iterator (or a Proxy's) must not make the program run differ from the one recorded.
 */
function argList(args) {
  const list = [];
  const length = args.length;
  for (let index = 0; index < length; index++) list.push(String(args[index]));
  return list;
}

function splitArgs(args, options, callback) {
  if (typeof args === "function") return { args: [], options: {}, callback: args };
  if (!Array.isArray(args)) {
    if (typeof options === "function") return { args: [], options: args ?? {}, callback: options };
    return { args: [], options: args ?? {}, callback };
  }
  if (typeof options === "function") return { args: argList(args), options: {}, callback: options };
  return { args: argList(args), options: options ?? {}, callback };
}

/** The child's environment: the `env` option's own values (Node drops undefined ones), else the process's. */
function environment(env) {
  const source = env !== null && typeof env === "object" ? env : world.env;
  const list = [];
  for (const [name, value] of entries(source)) {
    if (value !== undefined) list.push([String(name), String(value)]);
  }
  return list;
}

/** A child's input as bytes: text, any view, an ArrayBuffer; nothing for what it cannot read here. */
function inputBytes(input) {
  if (typeof input === "string") return new Uint8Array(Buffer.from(input));
  if (ArrayBuffer.isView(input)) return new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (input instanceof ArrayBuffer) return new Uint8Array(input);
  return new Uint8Array(0);
}

/**
 * Runs one command on the machine: `argv` (a program and its arguments), in `cwd`, with `env`,
 * fed `input`. Answers `{ stdout, stderr, exitCode, signal, spawnError, unavailable }`.
 */
export function runOnMachine({ argv, cwd, env, input, via, line }) {
  const request = {
    op: "run",
    argv,
    cwd: kernelPath(cwd === undefined || cwd === null ? world.cwd : String(cwd instanceof URL ? cwd.pathname : cwd)),
    env: environment(env),
    deadlineMs: 0,
    via,
    line,
  };
  const { reply, payload } = machineCall(request, inputBytes(input));
  if (reply.reply === "unavailable") {
    return { stdout: new Uint8Array(0), stderr: new Uint8Array(0), exitCode: null, signal: null, spawnError: "ENOSYS", unavailable: reply.reason };
  }
  if (reply.reply !== "ran") return { stdout: new Uint8Array(0), stderr: new Uint8Array(0), exitCode: null, signal: null, spawnError: reply.code ?? "EIO" };
  return {
    stdout: payload.subarray(0, reply.stdoutBytes),
    stderr: payload.subarray(reply.stdoutBytes),
    exitCode: reply.exitCode ?? null,
    signal: reply.signal ?? null,
    spawnError: reply.spawnError ?? null,
  };
}

/** How a command runs: a shell line, or a program with its arguments. */
function argvOf(line, options, argv) {
  const shell = options?.shell;
  if (argv && !shell) return argv;
  return [typeof shell === "string" ? shell : "/bin/sh", "-c", line];
}

/** The error a program that could not start gives (`spawn git ENOENT`). */
function spawnFailure(result, file, args, syscall) {
  if (result.unavailable !== undefined) {
    return Object.assign(new Error(`the machine is unavailable: ${result.unavailable}`), { code: "ERR_MODLEARN_NO_MACHINE" });
  }
  const code = result.spawnError;
  const errno = code === "EACCES" ? -13 : code === "ENOENT" ? -2 : -1;
  const error = new Error(`${syscall} ${file} ${code}`);
  return Object.assign(error, { errno, code, syscall: `${syscall} ${file}`, path: file, spawnargs: args });
}

function exitError(command, result, stdout, stderr) {
  const error = new Error(`Command failed: ${command}\n${Buffer.from(result.stderr).toString()}`);
  Object.assign(error, { code: result.exitCode, killed: result.signal !== null, signal: result.signal, cmd: command, stdout, stderr });
  return error;
}

// ───────────────────────── the sync calls ─────────────────────────

function syncRun(line, options, via, argv) {
  const result = runOnMachine({ argv: argvOf(line, options, argv), cwd: options?.cwd, env: options?.env, input: nodeInput(options), via, line });
  const encoding = options?.encoding ?? "buffer";
  return { result, stdout: encodeOutput(result.stdout, encoding), stderr: encodeOutput(result.stderr, encoding) };
}

function runSync(line, options, argv, via) {
  const { result, stdout, stderr } = syncRun(line, options, via, argv);
  if (result.spawnError !== null) throw spawnFailure(result, argv?.[0] ?? line, argv?.slice(1) ?? [], "spawnSync");
  if (result.exitCode !== 0) {
    const error = exitError(line, result, stdout, stderr);
    Object.assign(error, { status: result.exitCode, output: [null, stdout, stderr], pid: CHILD_PID });
    throw error;
  }
  return stdout;
}

export function execSync(command, options = {}) {
  return runSync(String(command), options ?? {}, undefined, "execSync");
}

export function execFileSync(file, args, options) {
  const split = splitArgs(args, options);
  return runSync(commandLine(file, split.args), split.options, [String(file), ...split.args], "execFileSync");
}

export function spawnSync(command, args, options) {
  const split = splitArgs(args, options);
  const line = split.options.shell ? [command, ...split.args].join(" ") : commandLine(command, split.args);
  const argv = [String(command), ...split.args];
  const { result, stdout, stderr } = syncRun(line, split.options, "spawnSync", argv);
  if (result.spawnError !== null) {
    const error = spawnFailure(result, String(command), split.args, "spawnSync");
    return { pid: 0, output: [null, null, null], stdout: null, stderr: null, status: null, signal: null, error };
  }
  return { pid: CHILD_PID, output: [null, stdout, stderr], stdout, stderr, status: result.exitCode, signal: result.signal };
}

/** node's input: the `input` option, else a string or view given as stdio[0]. */
function nodeInput(options) {
  if (options?.input !== undefined) return options.input;
  const first = Array.isArray(options?.stdio) ? options.stdio[0] : undefined;
  return typeof first === "string" || typeof first === "number" ? undefined : first;
}

// ───────────────────────── the asynchronous calls ─────────────────────────

/** What a chunk written to a child's stdin says, as bytes. */
function chunkBytes(chunk, encoding) {
  if (typeof chunk === "string") return Buffer.from(chunk, typeof encoding === "string" ? encoding : "utf8");
  if (ArrayBuffer.isView(chunk)) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk));
}

/**
 * A child process: it runs when the loop turns, fed what the mod wrote to its stdin by then,
 * then reports its output, `exit` and `close` (or `error` when it could not start).
 */
function makeChild({ line, argv, options, via, onDone }) {
  const child = new EventEmitter();
  child.pid = CHILD_PID;
  const input = [];
  let started = false;
  child.stdin = Object.assign(new EventEmitter(), {
    write(chunk, encoding, callback) {
      if (!started) input.push(chunkBytes(chunk, encoding));
      if (typeof callback === "function") platform.queueHostTask(() => platform.callMod(callback, undefined, []), "io");
      else if (typeof encoding === "function") platform.queueHostTask(() => platform.callMod(encoding, undefined, []), "io");
      return true;
    },
    end(chunk, encoding) {
      if (chunk !== undefined && chunk !== null && typeof chunk !== "function" && !started) input.push(chunkBytes(chunk, encoding));
      return this;
    },
  });
  child.stdout = new EventEmitter();
  child.stderr = new EventEmitter();
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding = function setEncoding(encoding) {
      this.encoding = encoding;
      return this;
    };
    stream.pipe = (target) => target;
  }
  child.exitCode = null;
  child.signalCode = null;
  child.killed = false;
  child.spawnargs = argv;
  child.spawnfile = argv[0];
  child.kill = (signal = "SIGTERM") => {
    if (started) return false;
    child.killed = true;
    child.signalCode = String(signal);
    return true;
  };
  child.ref = () => child;
  child.unref = () => child;
  platform.queueHostTask(() => {
    started = true;
    if (child.killed) {
      child.emit("exit", null, child.signalCode);
      child.emit("close", null, child.signalCode);
      onDone?.({ stdout: new Uint8Array(0), stderr: new Uint8Array(0), exitCode: null, signal: child.signalCode, spawnError: null });
      return;
    }
    const result = runOnMachine({ argv, cwd: options?.cwd, env: options?.env, input: Buffer.concat(input), via, line });
    if (result.spawnError !== null) {
      child.pid = undefined;
      child.emit("error", spawnFailure(result, argv[0], argv.slice(1), "spawn"));
      child.emit("close", -2, null);
      onDone?.(result);
      return;
    }
    for (const [stream, bytes] of [[child.stdout, result.stdout], [child.stderr, result.stderr]]) {
      if (bytes.length > 0) stream.emit("data", stream.encoding ? Buffer.from(bytes).toString(stream.encoding) : Buffer.from(bytes));
      stream.emit("end");
    }
    child.exitCode = result.exitCode;
    child.signalCode = result.signal;
    child.emit("exit", result.exitCode, result.signal);
    child.emit("close", result.exitCode, result.signal);
    onDone?.(result);
  }, "io");
  return child;
}

function run(line, options, callback, via, argv) {
  const encoding = options?.encoding ?? "utf8";
  const onDone = typeof callback === "function"
    ? (result) => {
      const stdout = encodeOutput(result.stdout, encoding);
      const stderr = encodeOutput(result.stderr, encoding);
      const error = result.spawnError !== null ? spawnFailure(result, argv?.[0] ?? line, argv?.slice(1) ?? [], "spawn")
        : result.exitCode === 0 ? null
        : exitError(line, result, stdout, stderr);
      platform.callMod(callback, undefined, [error, stdout, stderr]);
    }
    : undefined;
  return makeChild({ line, argv: argvOf(line, options, argv), options, via, onDone });
}

export function exec(command, options, callback) {
  if (typeof options === "function") {
    callback = options;
    options = {};
  }
  return run(String(command), options, callback, "exec");
}
exec[kCustomPromisify] = (command, options) =>
  new Promise((resolve, reject) => {
    exec(command, options, (error, stdout, stderr) => (error ? reject(Object.assign(error, { stdout, stderr })) : resolve({ stdout, stderr })));
  });

export function execFile(file, args, options, callback) {
  const split = splitArgs(args, options, callback);
  return run(commandLine(file, split.args), split.options, split.callback, "execFile", [String(file), ...split.args]);
}
execFile[kCustomPromisify] = (file, args, options) =>
  new Promise((resolve, reject) => {
    execFile(file, args ?? [], options ?? {}, (error, stdout, stderr) => (error ? reject(Object.assign(error, { stdout, stderr })) : resolve({ stdout, stderr })));
  });

export function spawn(command, args, options) {
  const split = splitArgs(args, options);
  const line = split.options.shell ? [command, ...split.args].join(" ") : commandLine(command, split.args);
  return makeChild({ line, argv: argvOf(line, split.options, [String(command), ...split.args]), options: split.options, via: "spawn" });
}

export function fork(modulePath, args, options) {
  return spawn("bun", [String(modulePath), ...(Array.isArray(args) ? argList(args) : [])], options);
}

// ───────────────────────── Bun.spawn, Bun.spawnSync, Bun.which ─────────────────────────

/** Bun's two call forms: `(argv, options)` and `({ cmd, ...options })`. */
function bunArguments(first, second) {
  const options = Array.isArray(first) ? second ?? {} : first ?? {};
  const cmd = Array.isArray(first) ? first : options.cmd;
  if (!Array.isArray(cmd) || cmd.length === 0) {
    const error = new TypeError(`cmd must be an array`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  const argv = argList(cmd);
  return { argv, options, line: commandLine(argv[0], argv.slice(1)) };
}

/** What Bun takes as a child's input given at once (text, bytes); "pipe" means written later. */
function bunInput(stdin) {
  if (stdin === undefined || stdin === null || ["pipe", "inherit", "ignore"].includes(stdin)) return undefined;
  return stdin;
}

/** Bun's error for a program it cannot start. */
function bunSpawnFailure(result, file) {
  if (result.unavailable !== undefined) return spawnFailure(result, file, [], "posix_spawn");
  const error = new Error(`${result.spawnError}: ${result.spawnError === "EACCES" ? "permission denied" : "no such file or directory"}, posix_spawn '${file}'`);
  return Object.assign(error, { code: result.spawnError, errno: result.spawnError === "EACCES" ? -13 : -2, syscall: "posix_spawn", path: file });
}

/** Bun's text()/json()/bytes() readers on a byte stream that `bytesOf()` fills once it is ready. */
function readers(stream) {
  const read = async () => {
    const reader = stream.getReader();
    const chunks = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
    }
    reader.releaseLock();
    return Buffer.concat(chunks);
  };
  Object.defineProperties(stream, {
    text: { value: async () => (await read()).toString(), configurable: true },
    json: { value: async () => JSON.parse((await read()).toString()), configurable: true },
    bytes: { value: async () => new Uint8Array(await read()), configurable: true },
    arrayBuffer: { value: async () => new Uint8Array(await read()).buffer, configurable: true },
  });
  return stream;
}

/** A byte stream its producer fills later: `{ stream, fill(bytes) }`. */
function laterStream() {
  let controller;
  const stream = new ReadableStream({
    start(given) {
      controller = given;
    },
  });
  const fill = (bytes) => {
    if (bytes.length > 0) controller.enqueue(new Uint8Array(bytes));
    controller.close();
  };
  return { stream: readers(stream), fill };
}

/** Output Bun's child would write to the mod's own stdout/stderr ("inherit"). */
function inherit(stream, bytes) {
  if (bytes.length === 0) return;
  try {
    globalThis.process?.[stream]?.write?.(Buffer.from(bytes).toString());
  } catch {
    // A mod that replaced process.stdout keeps what it did.
  }
}

const RESOURCE_USAGE = Object.freeze({
  contextSwitches: Object.freeze({ voluntary: 0, involuntary: 0 }),
  cpuTime: Object.freeze({ user: 0, system: 0, total: 0 }),
  maxRSS: 0, messages: Object.freeze({ sent: 0, received: 0 }), ops: Object.freeze({ in: 0, out: 0 }), shmSize: 0, signalCount: 0, swapCount: 0,
});

/** `Bun.spawn(argv, options)`: a subprocess that runs when the loop turns. */
export function bunSpawn(first, second) {
  const { argv, options, line } = bunArguments(first, second);
  const stdoutMode = options.stdout ?? "pipe";
  const stderrMode = options.stderr ?? "inherit";
  const out = stdoutMode === "pipe" ? laterStream() : null;
  const err = stderrMode === "pipe" ? laterStream() : null;
  const given = bunInput(options.stdin);
  const written = [];
  let exitCode = null;
  let signalCode = null;
  let started = false;
  let killed = false;
  let settle;
  const exited = new Promise((resolve) => {
    settle = resolve;
  });
  const proc = {
    pid: CHILD_PID,
    stdin: options.stdin === "pipe"
      ? {
        write(chunk) {
          const bytes = chunkBytes(chunk);
          if (!started) written.push(bytes);
          return bytes.length;
        },
        flush: () => 0,
        end: () => 0,
        ref() {},
        unref() {},
      }
      : undefined,
    stdout: out?.stream ?? (stdoutMode === "ignore" || stdoutMode === null ? null : undefined),
    stderr: err?.stream ?? (stderrMode === "ignore" || stderrMode === null ? null : undefined),
    get exitCode() {
      return exitCode;
    },
    get signalCode() {
      return signalCode;
    },
    get killed() {
      return killed;
    },
    kill(signal = "SIGTERM") {
      if (!started) {
        killed = true;
        signalCode = typeof signal === "number" ? "SIGTERM" : String(signal);
      }
    },
    ref() {},
    unref() {},
    resourceUsage: () => (exitCode === null ? undefined : RESOURCE_USAGE),
    exited,
  };
  proc.readable = proc.stdout;
  platform.queueHostTask(() => {
    started = true;
    const input = given !== undefined ? given : Buffer.concat(written);
    const result = killed
      ? { stdout: new Uint8Array(0), stderr: new Uint8Array(0), exitCode: null, signal: signalCode, spawnError: null }
      : runOnMachine({ argv, cwd: options.cwd, env: options.env, input, via: "Bun.spawn", line });
    if (result.spawnError !== null) {
      // Bun throws at the call; here the run is already past it, so the process ends at once.
      result.exitCode = 1;
      result.stderr = Buffer.from(`${bunSpawnFailure(result, argv[0]).message}\n`);
    }
    out?.fill(result.stdout);
    err?.fill(result.stderr);
    if (stdoutMode === "inherit") inherit("stdout", result.stdout);
    if (stderrMode === "inherit") inherit("stderr", result.stderr);
    exitCode = result.exitCode;
    signalCode = result.signal ?? signalCode;
    if (typeof options.onExit === "function") platform.callMod(options.onExit, undefined, [proc, exitCode, signalCode, undefined]);
    settle(exitCode);
  }, "io");
  return proc;
}

/** `Bun.spawnSync(argv, options)`: exit code, output as Buffers, success. */
export function bunSpawnSync(first, second) {
  const { argv, options, line } = bunArguments(first, second);
  const result = runOnMachine({ argv, cwd: options.cwd, env: options.env, input: bunInput(options.stdin), via: "Bun.spawnSync", line });
  if (result.spawnError !== null) throw bunSpawnFailure(result, argv[0]);
  const output = (mode, bytes, name) => {
    if ((mode ?? "pipe") === "pipe") return Buffer.from(bytes);
    if (mode === "inherit") inherit(name, bytes);
    return undefined;
  };
  return {
    exitCode: result.exitCode,
    signalCode: result.signal ?? undefined,
    stdout: output(options.stdout, result.stdout, "stdout"),
    stderr: output(options.stderr, result.stderr, "stderr"),
    success: result.exitCode === 0,
    resourceUsage: RESOURCE_USAGE,
    pid: CHILD_PID,
  };
}

/** `Bun.which(name, { PATH, cwd })`: where the machine has the program, or null. */
export function bunWhich(name, options) {
  const program = String(name);
  const search = program.includes("/") ? [""] : String(options?.PATH ?? world.env.PATH ?? "").split(":");
  for (const dir of search) {
    const path = program.includes("/") ? kernelPath(program) : `${dir === "" ? world.cwd : dir}/${program}`;
    const found = machineCall({ op: "stat", path, follow: true }).reply;
    if (found.reply !== "stat" || (found.mode & 0o170000) !== 0o100000) continue;
    if (machineCall({ op: "access", path, mode: 1 }).reply.reply === "done") return path;
  }
  return null;
}

// platform.js's Bun object takes these when it offers a place for them (`bunProcess`).
if (platform.bunProcess && typeof platform.bunProcess === "object") {
  Object.assign(platform.bunProcess, { spawn: bunSpawn, spawnSync: bunSpawnSync, which: bunWhich });
}

export default { exec, execFile, execSync, execFileSync, spawn, spawnSync, fork };
