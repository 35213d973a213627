// node:readline over the sandbox's streams: an Interface reads lines from its input (a Readable,
// or any EventEmitter with "data"/"end"), answers questions, prompts to its output, and closes
// when the input ends. Node's non-terminal behaviour (the virtual machine has no terminal):
// lines end at \n, \r\n or \r; no line editing, history or completion. `process.stdin` is empty
// in the virtual machine: an Interface on it closes as soon as it has started.

import { EventEmitter } from "./events.js";
import { StringDecoder } from "./string_decoder.js";
import { process } from "./process.js";
import { callMod, queueHostTask } from "../platform.js";
import { holdHandle } from "../world.js";

const LINE_ENDING = /\r?\n|\r(?!\n)/g;

function closedError() {
  const error = new Error("readline was closed");
  error.code = "ERR_USE_AFTER_CLOSE";
  return error;
}

function abortError(signal) {
  const error = new Error("The operation was aborted");
  error.name = "AbortError";
  error.code = "ABORT_ERR";
  if (signal?.reason !== undefined) error.cause = signal.reason;
  return error;
}

function writeTo(stream, data, callback) {
  if (stream === null || stream === undefined || typeof stream.write !== "function") {
    if (typeof callback === "function") queueHostTask(() => callMod(callback, undefined, [null]), "tick");
    return true;
  }
  return callback === undefined ? callMod(stream.write, stream, [data]) : callMod(stream.write, stream, [data, callback]);
}

export class Interface extends EventEmitter {
  #decoder = new StringDecoder("utf8");
  #buffer = null;
  #sawReturnAt = 0;
  #paused = false;
  #prompt = "> ";
  #oldPrompt = null;
  #questionCallback = null;
  #lineQueue = null;
  #listeners = null;
  #holdsStdin = null;
  #endedByMachine = false;

  constructor(input, output, completer, terminal) {
    super();
    // Node's test: a first argument with an `input` is the options object.
    const options = input?.input ? input : { input, output, completer, terminal };
    this.input = options.input;
    this.output = options.output;
    this.completer = options.completer;
    // The virtual machine has no terminal: every Interface reads as Node's non-terminal one.
    this.terminal = false;
    this.crlfDelay = options.crlfDelay ? Math.max(100, Number(options.crlfDelay)) : 100;
    this.historySize = options.historySize ?? 30;
    this.removeHistoryDuplicates = Boolean(options.removeHistoryDuplicates);
    this.tabSize = options.tabSize ?? 8;
    this.history = options.history ? [...options.history] : [];
    this.escapeCodeTimeout = options.escapeCodeTimeout ?? 500;
    this.line = "";
    if (options.prompt !== undefined) this.#prompt = String(options.prompt);
    const signal = options.signal;
    if (signal?.aborted) {
      queueHostTask(() => this.close(), "tick");
    } else if (signal) {
      signal.addEventListener("abort", () => this.close(), { once: true });
    }
    const source = this.input;
    if (source === process.stdin) {
      // The virtual machine's stdin holds nothing: it ends at once. The host's does not, so the
      // interface is held open (reading the host's stdin) until the mod closes it.
      this.#holdsStdin = holdHandle("readline", "process.stdin");
      queueHostTask(() => {
        this.#endedByMachine = true;
        this.#onEnd();
        this.#endedByMachine = false;
      }, "io");
      return;
    }
    if (source && typeof source.on === "function") {
      const onData = (chunk) => this.#normalWrite(chunk);
      const onEnd = () => this.#onEnd();
      this.#listeners = { onData, onEnd };
      source.on("data", onData);
      source.on("end", onEnd);
      if (typeof source.resume === "function") callMod(source.resume, source, []);
    }
  }

  get closed() {
    return this._closed;
  }

  getPrompt() {
    return this.#prompt;
  }

  setPrompt(prompt) {
    this.#prompt = String(prompt);
  }

  prompt(_preserveCursor) {
    if (this.#paused) this.resume();
    if (this._closed) throw closedError();
    writeTo(this.output, this.#prompt);
  }

  question(query, options, callback) {
    if (typeof options === "function") {
      callback = options;
      options = {};
    }
    if (this._closed) throw closedError();
    if (typeof callback !== "function") return;
    const signal = options?.signal;
    if (signal?.aborted) return;
    if (this.#questionCallback) {
      this.prompt();
      return;
    }
    this.#oldPrompt = this.#prompt;
    this.setPrompt(query);
    this.#questionCallback = callback;
    signal?.addEventListener?.("abort", () => this.#cancelQuestion(callback), { once: true });
    this.prompt();
  }

  #cancelQuestion(callback) {
    if (this.#questionCallback !== callback) return;
    this.#questionCallback = null;
    this.setPrompt(this.#oldPrompt);
    // Node's clearLine(): the cursor goes to a fresh line.
    this.line = "";
    writeTo(this.output, "\r\n");
  }

  write(data, _key) {
    if (this._closed) throw closedError();
    if (this.#paused) this.resume();
    if (data !== undefined && data !== null) this.#normalWrite(data);
  }

  pause() {
    if (this.#paused) return this;
    if (typeof this.input?.pause === "function" && this.input !== process.stdin) callMod(this.input.pause, this.input, []);
    this.#paused = true;
    this.emit("pause");
    return this;
  }

  resume() {
    if (!this.#paused) return this;
    if (typeof this.input?.resume === "function" && this.input !== process.stdin) callMod(this.input.resume, this.input, []);
    this.#paused = false;
    this.emit("resume");
    return this;
  }

  close() {
    if (!this.#endedByMachine) {
      this.#holdsStdin?.();
      this.#holdsStdin = null;
    }
    if (this._closed) return;
    this.pause();
    this._closed = true;
    if (this.#listeners && typeof this.input?.removeListener === "function") {
      this.input.removeListener("data", this.#listeners.onData);
      this.input.removeListener("end", this.#listeners.onEnd);
    }
    this.emit("close");
  }

  [Symbol.dispose]() {
    this.close();
  }

  getCursorPos() {
    return { rows: 0, cols: this.#prompt.length + this.line.length };
  }

  #onLine(line) {
    const callback = this.#questionCallback;
    if (callback) {
      this.#questionCallback = null;
      this.setPrompt(this.#oldPrompt);
      callMod(callback, undefined, [line]);
    } else {
      this.emit("line", line);
    }
  }

  #normalWrite(chunk) {
    if (this._closed) return;
    let text = typeof chunk === "string" ? chunk : this.#decoder.write(chunk);
    if (this.#sawReturnAt && Date.now() - this.#sawReturnAt <= this.crlfDelay) {
      if (text.codePointAt(0) === 10) text = text.slice(1);
      this.#sawReturnAt = 0;
    }
    LINE_ENDING.lastIndex = 0;
    const hasEnding = LINE_ENDING.test(text);
    LINE_ENDING.lastIndex = 0;
    if (this.#buffer) {
      text = this.#buffer + text;
      this.#buffer = null;
    }
    if (!hasEnding) {
      if (text) this.#buffer = text;
      return;
    }
    this.#sawReturnAt = text.endsWith("\r") ? Date.now() : 0;
    const lines = text.split(LINE_ENDING);
    const rest = lines.pop();
    for (const line of lines) {
      if (this._closed) return;
      this.#onLine(line);
    }
    if (rest) this.#buffer = rest;
  }

  #onEnd() {
    if (typeof this.#buffer === "string" && this.#buffer.length > 0) this.emit("line", this.#buffer);
    this.#buffer = null;
    this.close();
  }

  [Symbol.asyncIterator]() {
    if (this.#lineQueue === null) {
      const queue = [];
      const waiting = [];
      let done = this._closed === true;
      const onLine = (line) => {
        if (waiting.length) waiting.shift()({ value: line, done: false });
        else queue.push(line);
      };
      const onClose = () => {
        done = true;
        this.removeListener("line", onLine);
        for (const resolve of waiting.splice(0)) resolve({ value: undefined, done: true });
      };
      this.on("line", onLine);
      this.once("close", onClose);
      const self = this;
      this.#lineQueue = {
        next() {
          if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
          if (done) return Promise.resolve({ value: undefined, done: true });
          return new Promise((resolve) => waiting.push(resolve));
        },
        return() {
          self.close();
          return Promise.resolve({ value: undefined, done: true });
        },
        [Symbol.asyncIterator]() {
          return this;
        },
      };
    }
    return this.#lineQueue;
  }
}

export function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}

const CSI = "\u001b[";

export function clearLine(stream, dir, callback) {
  if (stream === null || stream === undefined) {
    if (typeof callback === "function") queueHostTask(() => callMod(callback, undefined, [null]), "tick");
    return true;
  }
  const code = dir < 0 ? `${CSI}1K` : dir > 0 ? `${CSI}0K` : `${CSI}2K`;
  return writeTo(stream, code, callback);
}

export function clearScreenDown(stream, callback) {
  if (stream === null || stream === undefined) return true;
  return writeTo(stream, `${CSI}0J`, callback);
}

function cursorToCode(x, y) {
  if (typeof y !== "number" || Number.isNaN(y)) return `${CSI}${x + 1}G`;
  return `${CSI}${y + 1};${x + 1}H`;
}

export function cursorTo(stream, x, y, callback) {
  if (typeof y === "function") {
    callback = y;
    y = undefined;
  }
  if (stream === null || stream === undefined || (typeof x !== "number" && typeof y !== "number")) {
    if (typeof callback === "function") queueHostTask(() => callMod(callback, undefined, [null]), "tick");
    return true;
  }
  if (Number.isNaN(x)) {
    const error = new TypeError("The argument 'x' is invalid. Received NaN");
    error.code = "ERR_INVALID_ARG_VALUE";
    throw error;
  }
  return writeTo(stream, cursorToCode(x, y), callback);
}

function moveCursorCode(dx, dy) {
  let data = "";
  if (dx < 0) data += `${CSI}${-dx}D`;
  else if (dx > 0) data += `${CSI}${dx}C`;
  if (dy < 0) data += `${CSI}${-dy}A`;
  else if (dy > 0) data += `${CSI}${dy}B`;
  return data;
}

export function moveCursor(stream, dx, dy, callback) {
  if (stream === null || stream === undefined || !(dx || dy)) {
    if (typeof callback === "function") queueHostTask(() => callMod(callback, undefined, [null]), "tick");
    return true;
  }
  return writeTo(stream, moveCursorCode(dx, dy), callback);
}

/** Node's keypress decoding needs a terminal; the virtual machine has none. */
export function emitKeypressEvents(_stream, _interface) {}

/** readline/promises' Readline: terminal actions kept until commit (or written at once with autoCommit). */
export class Readline {
  #stream;
  #todo = [];
  #autoCommit;
  constructor(stream, options = {}) {
    if (stream === null || typeof stream !== "object" || typeof stream.write !== "function") {
      const error = new TypeError('The "stream" argument must be an instance of Writable.');
      error.code = "ERR_INVALID_ARG_TYPE";
      throw error;
    }
    this.#stream = stream;
    this.#autoCommit = Boolean(options?.autoCommit);
  }
  #add(data) {
    if (this.#autoCommit) queueHostTask(() => writeTo(this.#stream, data), "tick");
    else this.#todo.push(data);
    return this;
  }
  clearLine(dir) {
    return this.#add(dir < 0 ? `${CSI}1K` : dir > 0 ? `${CSI}0K` : `${CSI}2K`);
  }
  clearScreenDown() {
    return this.#add(`${CSI}0J`);
  }
  cursorTo(x, y) {
    return this.#add(cursorToCode(x, y));
  }
  moveCursor(dx, dy) {
    if (dx || dy) this.#add(moveCursorCode(dx, dy));
    return this;
  }
  commit() {
    const data = this.#todo.join("");
    this.#todo = [];
    return new Promise((resolve) => writeTo(this.#stream, data, () => resolve()));
  }
  rollback() {
    this.#todo = [];
    return this;
  }
}

/** readline/promises' Interface: question answers with a promise. */
export class PromisesInterface extends Interface {
  question(query, options = {}) {
    const signal = options?.signal;
    if (this.closed) return Promise.reject(closedError());
    if (signal?.aborted) return Promise.reject(abortError(signal));
    return new Promise((resolve, reject) => {
      const callback = (answer) => resolve(answer);
      if (signal) {
        signal.addEventListener("abort", () => reject(abortError(signal)), { once: true });
      }
      super.question(query, signal ? { signal } : {}, callback);
    });
  }
}
Object.defineProperty(PromisesInterface, "name", { value: "Interface" });

export const promises = {
  Interface: PromisesInterface,
  Readline,
  createInterface: (input, output, completer, terminal) => new PromisesInterface(input, output, completer, terminal),
};

export default { Interface, clearLine, clearScreenDown, createInterface, cursorTo, emitKeypressEvents, moveCursor, promises };
