// node:console: the global console (the sandbox's, whose lines modlearn captures) and Node's
// `Console` class, which writes formatted lines to the streams it is given. As in Bun, the global
// console holds `Console` too (added here, when the built-ins load, before any mod runs).

import { formatWithOptions, inspect } from "./util.js";
import { performance } from "../web/install.js";
import { callMod } from "../platform.js";

const globalConsole = globalThis.console;

function writableError(name) {
  const error = new TypeError(`${name} is not a writable stream`);
  error.code = "ERR_CONSOLE_WRITABLE_STREAM";
  return error;
}

const isWritable = (stream) => stream !== null && typeof stream === "object" && typeof stream.write === "function";

/** Node's console.table drawing (lib/internal/cli_table.js): cells centred, an "(index)" column. */
function renderTable(head, columns) {
  const rows = columns.length ? columns[0].length : 0;
  const widths = head.map((name, i) => Math.max(name.length, ...columns[i].map((cell) => cell.length)) + 2);
  const line = (left, mid, right) => left + widths.map((w) => "─".repeat(w)).join(mid) + right;
  const row = (cells) => {
    let out = "│";
    cells.forEach((cell, i) => {
      const needed = (widths[i] - cell.length) / 2;
      out += `${" ".repeat(Math.floor(needed))}${cell}${" ".repeat(Math.ceil(needed))}│`;
    });
    return out;
  };
  const body = [];
  for (let r = 0; r < rows; r++) body.push(row(columns.map((column) => column[r])));
  return [line("┌", "┬", "┐"), row(head), line("├", "┼", "┤"), ...body, line("└", "┴", "┘")].join("\n");
}

export function Console(stdoutOrOptions, stderrArg, ignoreErrorsArg) {
  if (!new.target) return new Console(stdoutOrOptions, stderrArg, ignoreErrorsArg);
  const options = isWritable(stdoutOrOptions) || stdoutOrOptions == null || typeof stdoutOrOptions !== "object" || !("stdout" in stdoutOrOptions)
    ? { stdout: stdoutOrOptions, stderr: stderrArg, ignoreErrors: ignoreErrorsArg }
    : stdoutOrOptions;
  const { stdout, stderr = stdout, ignoreErrors = true, inspectOptions = {}, groupIndentation = 2 } = options;
  if (!isWritable(stdout)) throw writableError("stdout");
  if (!isWritable(stderr)) throw writableError("stderr");
  const state = { indent: "", counts: new Map(), timers: new Map() };
  const write = (stream, text) => {
    const indented = state.indent ? text.split("\n").map((line) => state.indent + line).join("\n") : text;
    try {
      callMod(stream.write, stream, [`${indented}\n`]);
    } catch (error) {
      if (!ignoreErrors) throw error;
    }
  };
  const format = (args) => formatWithOptions(inspectOptions, ...args);
  const out = (...args) => write(stdout, format(args));
  const err = (...args) => write(stderr, format(args));
  const elapsed = (label) => {
    const ms = performance.now() - state.timers.get(label);
    return ms < 1000 ? `${Number(ms.toFixed(3))}ms` : `${Number((ms / 1000).toFixed(3))}s`;
  };
  const methods = {
    log: out,
    info: out,
    debug: out,
    dirxml: out,
    warn: err,
    error: err,
    trace: (...args) => write(stderr, `Trace${args.length ? `: ${format(args)}` : ""}`),
    dir: (value, opts) => write(stdout, inspect(value, { customInspect: false, ...inspectOptions, ...opts })),
    assert: (condition, ...data) => {
      if (condition) return;
      // Bun's Console puts any first argument into the message as a string.
      if (data.length) data[0] = `Assertion failed: ${typeof data[0] === "symbol" ? data[0].toString() : data[0]}`;
      else data.unshift("Assertion failed");
      err(...data);
    },
    count: (label = "default") => {
      const key = `${label}`;
      const count = (state.counts.get(key) ?? 0) + 1;
      state.counts.set(key, count);
      out(`${key}: ${count}`);
    },
    countReset: (label = "default") => {
      if (!state.counts.delete(`${label}`)) err(`Count for '${label}' does not exist`);
    },
    group: (...label) => {
      if (label.length) out(...label);
      state.indent += " ".repeat(groupIndentation);
    },
    groupEnd: () => {
      state.indent = state.indent.slice(0, Math.max(0, state.indent.length - groupIndentation));
    },
    time: (label = "default") => {
      const key = `${label}`;
      if (state.timers.has(key)) return err(`Warning: Label '${key}' already exists for console.time()`);
      state.timers.set(key, performance.now());
    },
    timeLog: (label = "default", ...data) => {
      const key = `${label}`;
      if (!state.timers.has(key)) return err(`Warning: No such label '${key}' for console.timeLog()`);
      out(`${key}: ${elapsed(key)}`, ...data);
    },
    timeEnd: (label = "default") => {
      const key = `${label}`;
      if (!state.timers.has(key)) return err(`Warning: No such label '${key}' for console.timeEnd()`);
      out(`${key}: ${elapsed(key)}`);
      state.timers.delete(key);
    },
    table: (data, properties) => {
      if (data === null || typeof data !== "object") return out(data);
      const cell = (v) => inspect(v, { depth: v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 2 ? -1 : 0, maxArrayLength: 3, breakLength: Infinity, ...inspectOptions });
      const entries = data instanceof Map ? [...data.entries()] : data instanceof Set ? [...data.values()].map((v, i) => [i, v]) : Object.entries(data);
      const keys = [];
      let hasValues = false;
      for (const [, value] of entries) {
        if (value !== null && typeof value === "object") {
          for (const key of properties ?? Object.keys(value)) if (!keys.includes(key)) keys.push(key);
        } else hasValues = true;
      }
      const head = ["(index)", ...keys.map(String), ...(hasValues ? ["Values"] : [])];
      const columns = head.map(() => []);
      for (const [index, value] of entries) {
        const isObject = value !== null && typeof value === "object";
        columns[0].push(String(index));
        keys.forEach((key, i) => columns[i + 1].push(isObject && Object.hasOwn(value, key) ? cell(value[key]) : ""));
        if (hasValues) columns[keys.length + 1].push(isObject ? "" : cell(value));
      }
      write(stdout, renderTable(head, columns));
    },
    clear: () => {},
    profile: () => {},
    profileEnd: () => {},
    timeStamp: () => {},
  };
  methods.groupCollapsed = methods.group;
  for (const [name, fn] of Object.entries(methods)) Object.defineProperty(this, name, { value: fn, writable: true, enumerable: true, configurable: true });
}
for (const name of ["log", "warn", "dir", "time", "timeEnd", "timeLog", "trace", "assert", "clear", "count", "countReset", "group", "groupEnd", "table", "debug", "info", "dirxml", "error", "groupCollapsed"]) {
  Console.prototype[name] = function (...args) {
    return globalConsole[name]?.(...args);
  };
}
// As in Bun, Console.prototype has no `constructor` of its own, and the global console is a Console.
delete Console.prototype.constructor;
Object.defineProperty(Console, Symbol.hasInstance, {
  value: (value) => value === globalConsole || (value !== null && typeof value === "object" && Object.prototype.isPrototypeOf.call(Console.prototype, value)),
});

if (globalConsole && Object.isExtensible(globalConsole) && !Object.hasOwn(globalConsole, "Console")) {
  Object.defineProperty(globalConsole, "Console", { value: Console, writable: true, enumerable: true, configurable: true });
}

const forward = (name) => (...args) => globalConsole[name](...args);
export const log = forward("log");
export const info = forward("info");
export const debug = forward("debug");
export const warn = forward("warn");
export const error = forward("error");
export const trace = forward("trace");
export const dir = forward("dir");
export const dirxml = forward("dirxml");
export const table = forward("table");
export const group = forward("group");
export const groupCollapsed = forward("groupCollapsed");
export const groupEnd = forward("groupEnd");
export const clear = forward("clear");
export const assert = forward("assert");
export const count = forward("count");
export const countReset = forward("countReset");
export const time = forward("time");
export const timeLog = forward("timeLog");
export const timeEnd = forward("timeEnd");
export const timeStamp = () => {};
export const profile = () => {};
export const profileEnd = () => {};

export default globalConsole;
