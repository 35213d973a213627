// Bun.$, on the candidate's machine: the template becomes a command line (each value escaped
// into one word, an array into several, `{ raw }` as written) that /bin/sh runs there. As in
// Bun the command runs only once consumed (awaited, `.text()`, `.json()`, ...): a ShellPromise
// nobody awaits runs nothing. Bun runs the line in its own shell, whose builtins (cd, ls, rm,
// ...) are its own; here they are the machine's programs (a difference ARCHITECTURE.md lists).

import { Buffer } from "../web/buffer.js";
import { bunProcess, settleAsIo } from "../platform.js";
import { runOnMachine } from "./child_process.js";
import { world } from "../world.js";

const replace = String.prototype.replace;

/** One interpolated value as sh words. */
function words(value) {
  if (Array.isArray(value)) return value.map(words).join(" ");
  if (value !== null && typeof value === "object" && typeof value.raw === "string") return value.raw;
  const text = String(value);
  return `'${Reflect.apply(replace, text, [/'/g, "'\\''"])}'`;
}

/** The command line of a template call (`strings` its raw parts). */
function commandLine(strings, values) {
  const raw = Array.isArray(strings?.raw) ? strings.raw : Array.isArray(strings) ? strings : [String(strings)];
  let line = "";
  for (let i = 0; i < raw.length; i++) line += String(raw[i]) + (i < values.length ? words(values[i]) : "");
  return line;
}

/** Bun's error for a command that exited non-zero. */
class ShellError extends Error {
  constructor(output) {
    super(`Failed with exit code ${output.exitCode}`);
    this.exitCode = output.exitCode;
    this.stdout = output.stdout;
    this.stderr = output.stderr;
    this.name = "ShellError";
  }
}

/** What a finished command gives: its output as Buffers and its exit code, with Bun's readers. */
function shellOutput(stdout, stderr, exitCode) {
  const output = { stdout: Buffer.from(stdout), stderr: Buffer.from(stderr), exitCode };
  Object.defineProperties(output, {
    text: { value: (encoding) => output.stdout.toString(encoding ?? "utf8") },
    json: { value: () => JSON.parse(output.stdout.toString()) },
    arrayBuffer: { value: () => new Uint8Array(output.stdout).buffer },
    bytes: { value: () => new Uint8Array(output.stdout) },
    blob: { value: () => new Blob([output.stdout]) },
  });
  return output;
}

/** Defaults of `$` (and of a `new $.Shell()`): where, with what environment, and whether to throw. */
function defaults() {
  return { cwd: undefined, env: undefined, throws: true };
}

class ShellPromise {
  #line;
  #settings;
  #quiet = false;
  #run = null;
  constructor(line, settings) {
    this.#line = line;
    this.#settings = { ...settings };
  }
  get [Symbol.toStringTag]() {
    return "Promise";
  }
  /** Runs the command (once) and answers its output, settled when the loop turns as Bun's I/O is. */
  #output() {
    this.#run ??= settleAsIo(() => {
      const argv = ["/bin/sh", "-c", this.#line];
      const result = runOnMachine({ argv, cwd: this.#settings.cwd, env: this.#settings.env ?? world.env, input: undefined, via: "Bun.$", line: this.#line });
      if (result.unavailable !== undefined) {
        throw Object.assign(new Error(`the machine is unavailable: ${result.unavailable}`), { code: "ERR_MODLEARN_NO_MACHINE" });
      }
      if (!this.#quiet) {
        // Bun writes the output through as well as keeping it.
        globalThis.process?.stdout?.write?.(Buffer.from(result.stdout).toString());
        globalThis.process?.stderr?.write?.(Buffer.from(result.stderr).toString());
      }
      const output = shellOutput(result.stdout, result.stderr, result.exitCode ?? 1);
      if (output.exitCode !== 0 && this.#settings.throws) throw new ShellError(output);
      return output;
    });
    return this.#run;
  }
  then(onFulfilled, onRejected) {
    return this.#output().then(onFulfilled, onRejected);
  }
  catch(onRejected) {
    return this.#output().catch(onRejected);
  }
  finally(onFinally) {
    return this.#output().finally(onFinally);
  }
  quiet() {
    this.#quiet = true;
    return this;
  }
  nothrow() {
    this.#settings.throws = false;
    return this;
  }
  throws(shouldThrow) {
    this.#settings.throws = Boolean(shouldThrow);
    return this;
  }
  cwd(directory) {
    this.#settings.cwd = directory === undefined ? undefined : String(directory);
    return this;
  }
  env(variables) {
    this.#settings.env = variables;
    return this;
  }
  async text(encoding) {
    this.#quiet = true;
    return (await this).stdout.toString(encoding ?? "utf8");
  }
  async json() {
    this.#quiet = true;
    return JSON.parse((await this).stdout.toString());
  }
  async arrayBuffer() {
    this.#quiet = true;
    return new Uint8Array((await this).stdout).buffer;
  }
  async bytes() {
    this.#quiet = true;
    return new Uint8Array((await this).stdout);
  }
  async blob() {
    this.#quiet = true;
    return new Blob([(await this).stdout]);
  }
  async *lines() {
    this.#quiet = true;
    yield* (await this).stdout.toString().split("\n");
  }
}

/** `$.escape`: a word as Bun quotes it (double quotes when it needs any). */
function escape(input) {
  const text = String(input);
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `"${Reflect.apply(replace, text, [/[\\"$`]/g, "\\$&"])}"`;
}

/** `$.braces`: bash's brace expansion of one pattern. */
function braces(pattern) {
  const text = String(pattern);
  const open = text.indexOf("{");
  if (open < 0) return [text];
  let depth = 0;
  const parts = [];
  let start = open + 1;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) {
      parts.push(text.slice(start, i));
      const [head, tail] = [text.slice(0, open), text.slice(i + 1)];
      if (parts.length < 2) return [text];
      return parts.flatMap((part) => braces(`${head}${part}${tail}`));
    } else if (text[i] === "," && depth === 1) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  return [text];
}

/** A `$` with its own defaults. */
function makeShell(settings) {
  const $ = (strings, ...values) => new ShellPromise(commandLine(strings, values), settings);
  $.escape = escape;
  $.braces = braces;
  $.nothrow = () => {
    settings.throws = false;
    return $;
  };
  $.throws = (shouldThrow) => {
    settings.throws = Boolean(shouldThrow);
    return $;
  };
  $.cwd = (directory) => {
    settings.cwd = directory === undefined ? undefined : String(directory);
    return $;
  };
  $.env = (variables) => {
    settings.env = variables;
    return $;
  };
  $.Shell = function Shell() {
    return makeShell(defaults());
  };
  $.ShellError = ShellError;
  $.ShellPromise = ShellPromise;
  return $;
}

export const shell = makeShell(defaults());

// platform.js's Bun object calls it as `Bun.$`.
bunProcess.shell = shell;
