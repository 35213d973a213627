// node:child_process, and Bun.spawn / Bun.spawnSync / Bun.which: every command goes to the
// world's command simulator (world.js), which answers from the scenario's scripted commands
// and the virtual shell (shell.js); nothing runs on the host. Each command is an effect.
// A command line runs as `/bin/sh -c` would (or the `shell` option's shell); an argv
// (execFile, spawn, Bun.spawn) runs its program directly. A program the virtual machine does
// not have exits 127 (as through a shell), never with a spawn error: the real machine has many
// programs this one does not model.

import { Buffer } from "../web/buffer.js";
import { ReadableStream } from "../web/streams.js";
import { EventEmitter } from "./events.js";
import { recordEffect, simulateCommand } from "../world.js";
import { whichProgram } from "../shell.js";
import * as platform from "../platform.js";

const kCustomPromisify = Symbol.for("nodejs.util.promisify.custom");

// Taken before any mod runs: String.prototype is a mod's to change, and the
// command line recorded here is what runs_command judges.
const replace = String.prototype.replace;

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${Reflect.apply(replace, String(arg), [/'/g, "'\\''"])}'`;
}

function commandLine(file, args) {
  return [String(file), ...(args ?? [])].map(quote).join(" ");
}

function encodeOutput(text, encoding) {
  return encoding && encoding !== "buffer" ? text : Buffer.from(text);
}

function exitError(command, answer, stdout, stderr) {
  const error = new Error(`Command failed: ${command}\n${answer.stderr}`);
  Object.assign(error, { code: answer.exitCode, killed: false, signal: null, cmd: command, stdout, stderr });
  return error;
}

/**
 * The arguments as plain strings, read once by index as Node copies them: an
 * array's own iterator (or a Proxy's) must not make the recorded command line
 * differ from the one that would run.
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

/** How a command runs: a shell line, or (`argv`) a program with its arguments. */
function how(options, argv) {
  const shell = options?.shell;
  const spec = { cwd: options?.cwd };
  if (argv && !shell) spec.argv = argv;
  else if (typeof shell === "string") spec.shell = shell;
  return spec;
}

function run(command, options, callback, via, argv) {
  const encoding = options?.encoding ?? "utf8";
  const answer = simulateCommand(command, via, undefined, options?.env, how(options, argv));
  const stdout = encodeOutput(answer.stdout, encoding);
  const stderr = encodeOutput(answer.stderr, encoding);
  const child = makeChild(answer, (text) => simulateCommand(command, `${via}.stdin`, text, options?.env, how(options, argv)));
  if (typeof callback === "function") {
    // A program ends in a later turn of the loop, as a real one does.
    const results = [answer.exitCode === 0 ? null : exitError(command, answer, stdout, stderr), stdout, stderr];
    platform.queueHostTask(() => platform.callMod(callback, undefined, results), "io");
  }
  return child;
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
    exec(command, options, (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })));
  });

export function execFile(file, args, options, callback) {
  const split = splitArgs(args, options, callback);
  return run(commandLine(file, split.args), split.options, split.callback, "execFile", [String(file), ...split.args]);
}
execFile[kCustomPromisify] = (file, args, options) =>
  new Promise((resolve, reject) => {
    execFile(file, args ?? [], options ?? {}, (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })));
  });

function syncResult(command, options, via, argv) {
  const answer = simulateCommand(command, via, nodeInput(options), options?.env, how(options, argv));
  const encoding = options?.encoding ?? "buffer";
  const stdout = encodeOutput(answer.stdout, encoding);
  const stderr = encodeOutput(answer.stderr, encoding);
  return { answer, stdout, stderr };
}

export function execSync(command, options = {}) {
  return runSync(String(command), options ?? {}, undefined, "execSync");
}

function runSync(text, options, argv, via) {
  const { answer, stdout, stderr } = syncResult(text, options, via, argv);
  if (answer.exitCode !== 0) {
    const error = exitError(text, answer, stdout, stderr);
    Object.assign(error, { status: answer.exitCode, output: [null, stdout, stderr], pid: 4243 });
    throw error;
  }
  return stdout;
}

export function execFileSync(file, args, options) {
  const split = splitArgs(args, options);
  return runSync(commandLine(file, split.args), split.options, [String(file), ...split.args], "execSync");
}

export function spawnSync(command, args, options) {
  const split = splitArgs(args, options);
  const line = split.options.shell ? [command, ...split.args].join(" ") : commandLine(command, split.args);
  const { answer, stdout, stderr } = syncResult(line, split.options, "spawnSync", [String(command), ...split.args]);
  return { pid: 4243, output: [null, stdout, stderr], stdout, stderr, status: answer.exitCode, signal: null };
}

/** What a chunk written to a child's stdin says (a string, or bytes read as UTF-8). */
function chunkText(chunk) {
  return typeof chunk === "string" ? chunk : ArrayBuffer.isView(chunk) ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString() : String(chunk);
}

/**
 * A child process after the fact. What is written to its stdin (`write`, or `end` with a
 * chunk) is what the program there would read: a shell would run it, so `runStdin` records it.
 */
function makeChild(answer, runStdin) {
  const child = new EventEmitter();
  child.pid = 4243;
  const written = (chunk) => runStdin(chunkText(chunk));
  child.stdin = Object.assign(new EventEmitter(), {
    write(chunk) {
      written(chunk);
      return true;
    },
    end(chunk) {
      if (chunk !== undefined && chunk !== null && typeof chunk !== "function") written(chunk);
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
  child.kill = () => {
    child.killed = true;
    return true;
  };
  child.ref = () => child;
  child.unref = () => child;
  // Output, then exit and close, in a later turn of the loop (after the caller attached its listeners).
  platform.queueHostTask(() => {
    for (const [stream, text] of [[child.stdout, answer.stdout], [child.stderr, answer.stderr]]) {
      if (text) stream.emit("data", stream.encoding ? text : Buffer.from(text));
      stream.emit("end");
    }
    child.exitCode = answer.exitCode;
    child.emit("exit", answer.exitCode, null);
    child.emit("close", answer.exitCode, null);
  }, "io");
  return child;
}

export function spawn(command, args, options) {
  const split = splitArgs(args, options);
  const line = split.options.shell ? [command, ...split.args].join(" ") : commandLine(command, split.args);
  const argv = [String(command), ...split.args];
  const spec = how(split.options, argv);
  return makeChild(simulateCommand(line, "spawn", undefined, split.options.env, spec), (text) => simulateCommand(line, "spawn.stdin", text, split.options.env, spec));
}

export function fork(modulePath) {
  return spawn("bun", [String(modulePath)]);
}

// ───────────────────────── Bun.spawn, Bun.spawnSync, Bun.which ─────────────────────────

/** Bun's two call forms: `(argv, options)` and `({ cmd, ...options })`. */
function bunArguments(first, second, name) {
  const options = Array.isArray(first) ? second ?? {} : first ?? {};
  const cmd = Array.isArray(first) ? first : options.cmd;
  if (!Array.isArray(cmd) || cmd.length === 0) {
    const error = new TypeError(`cmd must be an array`);
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  const argv = argList(cmd);
  return { argv, options, line: commandLine(argv[0], argv.slice(1)), name };
}

/**
 * What Bun takes as a child's input: text and bytes as they are; anything else it would read
 * (a Blob, a Response, a stream, a file, a descriptor) goes to the world as it is, which logs it
 * as input it cannot read.
 */
function bunInput(stdin) {
  if (stdin === undefined || stdin === null || ["pipe", "inherit", "ignore"].includes(stdin)) return undefined;
  return stdin;
}

/** node's input: the `input` option, else a descriptor or stream given as stdio[0]. */
function nodeInput(options) {
  if (options?.input !== undefined) return options.input;
  const first = Array.isArray(options?.stdio) ? options.stdio[0] : undefined;
  // 0 is the mod's own stdin, which is empty on the virtual machine.
  return typeof first === "string" || first === undefined || first === null || first === 0 ? undefined : first;
}

/** A byte stream of `text`, with Bun's text()/json()/bytes() readers on it. */
function byteStream(text) {
  const bytes = new Uint8Array(Buffer.from(text));
  const stream = new ReadableStream({
    start(controller) {
      if (bytes.length > 0) controller.enqueue(bytes);
      controller.close();
    },
  });
  const read = async () => {
    const reader = stream.getReader();
    const chunks = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    reader.releaseLock();
    return Buffer.concat(chunks.map((chunk) => Buffer.from(chunk)));
  };
  Object.defineProperties(stream, {
    text: { value: async () => (await read()).toString(), configurable: true },
    json: { value: async () => JSON.parse((await read()).toString()), configurable: true },
    bytes: { value: async () => new Uint8Array(await read()), configurable: true },
    arrayBuffer: { value: async () => new Uint8Array(await read()).buffer, configurable: true },
  });
  return stream;
}

/** Output Bun's child would write to the mod's own stdout/stderr ("inherit"). */
function inherit(stream, text) {
  if (!text) return;
  try {
    globalThis.process?.[stream]?.write?.(text);
  } catch {
    // A mod that replaced process.stdout keeps what it did.
  }
}

const RESOURCE_USAGE = Object.freeze({
  contextSwitches: Object.freeze({ voluntary: 0, involuntary: 0 }),
  cpuTime: Object.freeze({ user: 0, system: 0, total: 0 }),
  maxRSS: 0, messages: Object.freeze({ sent: 0, received: 0 }), ops: Object.freeze({ in: 0, out: 0 }), shmSize: 0, signalCount: 0, swapCount: 0,
});

/** `Bun.spawn(argv, options)`: a subprocess whose output is there once the caller awaits it. */
export function bunSpawn(first, second) {
  const { argv, options, line } = bunArguments(first, second);
  const answer = simulateCommand(line, "Bun.spawn", bunInput(options.stdin), options.env, { argv, cwd: options.cwd });
  const stdoutMode = options.stdout ?? "pipe";
  const stderrMode = options.stderr ?? "inherit";
  const stream = (mode, text, name) => {
    if (mode === "pipe") return byteStream(text);
    if (mode === "inherit") inherit(name, text);
    return mode === "ignore" || mode === null ? null : undefined;
  };
  let exitCode = null;
  const proc = {
    pid: 4243,
    stdin: options.stdin === "pipe"
      ? {
        write(chunk) {
          const text = chunkText(chunk);
          simulateCommand(line, "Bun.spawn.stdin", text, options.env, { argv, cwd: options.cwd });
          return Buffer.byteLength(text);
        },
        flush: () => 0,
        end: () => 0,
        ref() {},
        unref() {},
      }
      : undefined,
    stdout: stream(stdoutMode, answer.stdout, "stdout"),
    stderr: stream(stderrMode, answer.stderr, "stderr"),
    get exitCode() {
      return exitCode;
    },
    signalCode: null,
    killed: false,
    kill() {
      this.killed = this.killed || exitCode === null;
    },
    ref() {},
    unref() {},
    resourceUsage: () => (exitCode === null ? undefined : RESOURCE_USAGE),
  };
  proc.readable = proc.stdout;
  proc.exited = Promise.resolve().then(() => {
    exitCode = answer.exitCode;
    if (typeof options.onExit === "function") options.onExit(proc, exitCode, null, undefined);
    return exitCode;
  });
  return proc;
}

/** `Bun.spawnSync(argv, options)`: exit code, output as Buffers, success. */
export function bunSpawnSync(first, second) {
  const { argv, options, line } = bunArguments(first, second);
  const answer = simulateCommand(line, "Bun.spawnSync", bunInput(options.stdin), options.env, { argv, cwd: options.cwd });
  const output = (mode, text, name) => {
    if ((mode ?? "pipe") === "pipe") return Buffer.from(text);
    if (mode === "inherit") inherit(name, text);
    return undefined;
  };
  return {
    exitCode: answer.exitCode,
    stdout: output(options.stdout, answer.stdout, "stdout"),
    stderr: output(options.stderr, answer.stderr, "stderr"),
    success: answer.exitCode === 0,
    resourceUsage: RESOURCE_USAGE,
    pid: 4243,
  };
}

/** `Bun.which(name)`: where the virtual machine has the program, or null. */
export function bunWhich(name) {
  return whichProgram(String(name));
}

// platform.js's Bun object takes these when it offers a place for them (`bunProcess`).
if (platform.bunProcess && typeof platform.bunProcess === "object") {
  Object.assign(platform.bunProcess, { spawn: bunSpawn, spawnSync: bunSpawnSync, which: bunWhich, refusedShell });
}

export default { exec, execFile, execSync, execFileSync, spawn, spawnSync, fork };

const primitiveWord = (value) => (value === null || (typeof value !== "object" && typeof value !== "function") ? String(value) : "[object]");

/**
 * A word of a refused Bun.$ line as Bun would put it there (an array's items joined by spaces),
 * read from data properties only, so no code of the mod's runs here.
 */
function shellWord(value) {
  if (!Array.isArray(value)) return primitiveWord(value);
  const words = [];
  for (let i = 0; i < 64; i++) {
    const item = Reflect.getOwnPropertyDescriptor(value, i);
    if (item === undefined) break;
    words.push("value" in item ? primitiveWord(item.value) : "[object]");
  }
  return words.join(" ");
}

/** Records a Bun.$ line the sandbox refuses (it runs nothing), for runs_command. */
function refusedShell(args) {
  const [strings, ...values] = args;
  const raw = Array.isArray(strings) ? strings : [strings];
  let line = "";
  for (let i = 0; i < raw.length && line.length < 4096; i++) line += shellWord(raw[i]) + (i < values.length ? shellWord(values[i]) : "");
  recordEffect({ kind: "command", command: line, via: "Bun.$", exitCode: 1, partial: "Bun.$ is refused here, where Bun runs it" });
}
