// node:child_process: every command goes to the world's command simulator
// (world.js), which answers from the scenario's scripted commands; nothing
// runs on the host. Each command is an effect.

import { Buffer } from "../web/buffer.js";
import { EventEmitter } from "./events.js";
import { simulateCommand } from "../world.js";

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

function run(command, options, callback, via) {
  const encoding = options?.encoding ?? "utf8";
  const answer = simulateCommand(command, via, undefined, options?.env);
  const stdout = encodeOutput(answer.stdout, encoding);
  const stderr = encodeOutput(answer.stderr, encoding);
  const child = makeChild(answer);
  if (typeof callback === "function") {
    queueMicrotask(() => callback(answer.exitCode === 0 ? null : exitError(command, answer, stdout, stderr), stdout, stderr));
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
  return run(commandLine(file, split.args), split.options, split.callback, "execFile");
}
execFile[kCustomPromisify] = (file, args, options) =>
  new Promise((resolve, reject) => {
    execFile(file, args ?? [], options ?? {}, (error, stdout, stderr) => (error ? reject(error) : resolve({ stdout, stderr })));
  });

function syncResult(command, options, via) {
  const answer = simulateCommand(command, via, options?.input, options?.env);
  const encoding = options?.encoding ?? "buffer";
  const stdout = encodeOutput(answer.stdout, encoding);
  const stderr = encodeOutput(answer.stderr, encoding);
  return { answer, stdout, stderr };
}

export function execSync(command, options = {}) {
  const text = String(command);
  const { answer, stdout, stderr } = syncResult(text, options, "execSync");
  if (answer.exitCode !== 0) {
    const error = exitError(text, answer, stdout, stderr);
    Object.assign(error, { status: answer.exitCode, output: [null, stdout, stderr], pid: 4243 });
    throw error;
  }
  return stdout;
}

export function execFileSync(file, args, options) {
  const split = splitArgs(args, options);
  return execSync(commandLine(file, split.args), split.options);
}

export function spawnSync(command, args, options) {
  const split = splitArgs(args, options);
  const line = split.options.shell ? [command, ...split.args].join(" ") : commandLine(command, split.args);
  const { answer, stdout, stderr } = syncResult(line, split.options, "spawnSync");
  return { pid: 4243, output: [null, stdout, stderr], stdout, stderr, status: answer.exitCode, signal: null };
}

function makeChild(answer) {
  const child = new EventEmitter();
  child.pid = 4243;
  child.stdin = Object.assign(new EventEmitter(), { write: () => true, end() {} });
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
  // Output, then exit and close, after the caller has attached its listeners.
  Promise.resolve().then(() => {
    for (const [stream, text] of [[child.stdout, answer.stdout], [child.stderr, answer.stderr]]) {
      if (text) stream.emit("data", stream.encoding ? text : Buffer.from(text));
      stream.emit("end");
    }
    child.exitCode = answer.exitCode;
    child.emit("exit", answer.exitCode, null);
    child.emit("close", answer.exitCode, null);
  });
  return child;
}

export function spawn(command, args, options) {
  const split = splitArgs(args, options);
  const line = split.options.shell ? [command, ...split.args].join(" ") : commandLine(command, split.args);
  const child = makeChild(simulateCommand(line, "spawn"));
  // What is written to its stdin is what a shell there would run: each write is recorded.
  child.stdin.write = (chunk) => {
    simulateCommand(line, "spawn.stdin", typeof chunk === "string" ? chunk : String(chunk));
    return true;
  };
  return child;
}

export function fork(modulePath) {
  return spawn("bun", [String(modulePath)]);
}

export default { exec, execFile, execSync, execFileSync, spawn, spawnSync, fork };
