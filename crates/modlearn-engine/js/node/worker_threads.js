// node:worker_threads in a sandbox of one thread: this is the main thread, with no parent; a
// Worker cannot start (constructing one throws, saying why). MessageChannel, MessagePort and
// BroadcastChannel work within the thread: a message is a structured clone of the value posted,
// delivered on a later turn of the loop (as I/O is), to `on("message")` listeners (the value)
// and to `onmessage` / `addEventListener("message")` (a MessageEvent).

import { EventEmitter } from "./events.js";
import { Event, EventTarget, DOMException } from "../web/event-target.js";
import { structuredCloneValue } from "../clone.js";
import { queueHostTask, watchCollection } from "../platform.js";
import { recordEffect } from "../world.js";

export const isMainThread = true;
export const isInternalThread = false;
export const parentPort = null;
export const workerData = null;
export const threadId = 0;
export const threadName = "";
export const resourceLimits = {};
export const SHARE_ENV = Symbol.for("nodejs.worker_threads.SHARE_ENV");

const untransferable = new WeakSet();
const uncloneable = new WeakSet();
export const markAsUntransferable = (object) => {
  if (object !== null && (typeof object === "object" || typeof object === "function")) untransferable.add(object);
};
export const isMarkedAsUntransferable = (object) => object !== null && typeof object === "object" && untransferable.has(object);
export const markAsUncloneable = (object) => {
  if (object !== null && typeof object === "object") uncloneable.add(object);
};

const environmentData = new Map();
// Every load generation shares it: what a load leaves there outlives a reload.
watchCollection("node:worker_threads environment data", environmentData);
export const getEnvironmentData = (key) => environmentData.get(key);
export function setEnvironmentData(key, value) {
  if (value === undefined) environmentData.delete(key);
  else environmentData.set(key, value);
}

function cloneMessage(value) {
  if (value !== null && typeof value === "object" && uncloneable.has(value)) throw new DOMException("The object can not be cloned.", "DataCloneError");
  return structuredCloneValue(value);
}

export class MessageEvent extends Event {
  #data;
  #ports;
  constructor(type, init = {}) {
    super(type, init);
    this.#data = init?.data;
    this.#ports = init?.ports ?? [];
  }
  get data() {
    return this.#data;
  }
  get ports() {
    return this.#ports;
  }
  get origin() {
    return "";
  }
  get lastEventId() {
    return "";
  }
  get source() {
    return null;
  }
}

const later = (fn) => queueHostTask(fn, "io");
const NODE_STYLE = new Set(["message", "messageerror", "close"]);

/** What MessagePort and BroadcastChannel share: Node's `on` beside the DOM's listeners. */
class Endpoint extends EventTarget {
  #emitter = new EventEmitter();
  #onmessage = null;
  #refed = true;
  _startOnListen() {}
  on(type, listener) {
    this.#emitter.on(type, listener);
    if (type === "message") this._startOnListen();
    return this;
  }
  addListener(type, listener) {
    return this.on(type, listener);
  }
  once(type, listener) {
    this.#emitter.once(type, listener);
    if (type === "message") this._startOnListen();
    return this;
  }
  off(type, listener) {
    this.#emitter.off(type, listener);
    return this;
  }
  removeListener(type, listener) {
    return this.off(type, listener);
  }
  removeAllListeners(type) {
    if (type === undefined) this.#emitter.removeAllListeners();
    else this.#emitter.removeAllListeners(type);
    return this;
  }
  listenerCount(type) {
    return this.#emitter.listenerCount(type);
  }
  emit(type, ...args) {
    return this.#emitter.emit(type, ...args);
  }
  addEventListener(type, listener, options) {
    super.addEventListener(type, listener, options);
    if (type === "message") this._startOnListen();
  }
  get onmessage() {
    return this.#onmessage;
  }
  set onmessage(handler) {
    if (this.#onmessage) this.removeEventListener("message", this.#onmessage);
    this.#onmessage = typeof handler === "function" ? handler : null;
    if (this.#onmessage) this.addEventListener("message", this.#onmessage);
  }
  ref() {
    this.#refed = true;
    return this;
  }
  unref() {
    this.#refed = false;
    return this;
  }
  hasRef() {
    return this.#refed;
  }
  _deliver(data) {
    this.dispatchEvent(new MessageEvent("message", { data }));
    if (this.#emitter.listenerCount("message") > 0) this.#emitter.emit("message", data);
  }
  _closed() {
    this.dispatchEvent(new Event("close"));
    this.#emitter.emit("close");
  }
}

const PORT_TOKEN = Symbol("MessagePort");

export class MessagePort extends Endpoint {
  #partner = null;
  #queue = [];
  #started = false;
  #closed = false;
  #flushing = false;
  constructor(token) {
    if (token !== PORT_TOKEN) throw new TypeError("Illegal constructor");
    super();
  }
  static _pair() {
    const a = new MessagePort(PORT_TOKEN);
    const b = new MessagePort(PORT_TOKEN);
    a.#partner = b;
    b.#partner = a;
    return [a, b];
  }
  _startOnListen() {
    this.start();
  }
  postMessage(value, _transfer) {
    const data = cloneMessage(value);
    const partner = this.#partner;
    if (this.#closed || partner === null || partner.#closed) return;
    partner.#queue.push(data);
    partner.#schedule();
  }
  start() {
    if (this.#started) return;
    this.#started = true;
    this.#schedule();
  }
  #schedule() {
    if (!this.#started || this.#flushing || this.#queue.length === 0) return;
    this.#flushing = true;
    later(() => {
      this.#flushing = false;
      while (this.#started && !this.#closed && this.#queue.length) this._deliver(this.#queue.shift());
    });
  }
  /** receiveMessageOnPort's half: the oldest message waiting, if any. */
  _take() {
    return this.#queue.length ? { message: this.#queue.shift() } : undefined;
  }
  close() {
    if (this.#closed) return;
    const partner = this.#partner;
    this.#closed = true;
    this.#queue.length = 0;
    // What was posted before the close still arrives; then both ends hear "close", this one first.
    const pending = partner && !partner.#closed ? partner.#queue.splice(0) : null;
    if (pending) partner.#closed = true;
    later(() => {
      if (pending) for (const data of pending) partner._deliver(data);
      this._closed();
      if (pending) partner._closed();
    });
  }
}

export class MessageChannel {
  constructor() {
    const [port1, port2] = MessagePort._pair();
    Object.defineProperty(this, "port1", { value: port1, enumerable: true });
    Object.defineProperty(this, "port2", { value: port2, enumerable: true });
  }
}

export function receiveMessageOnPort(port) {
  if (!(port instanceof MessagePort)) {
    const error = new TypeError('The "port" argument must be a MessagePort instance');
    error.code = "ERR_INVALID_ARG_TYPE";
    throw error;
  }
  return port._take();
}

export function moveMessagePortToContext(port, _context) {
  return port;
}

const broadcastGroups = new Map();
// An open channel outlives a reload: the old generation's `onmessage` still runs.
watchCollection("BroadcastChannel subscriptions", broadcastGroups);

export class BroadcastChannel extends Endpoint {
  #name;
  #closed = false;
  constructor(name) {
    if (arguments.length === 0) throw new TypeError("BroadcastChannel requires a name");
    super();
    this.#name = String(name);
    const group = broadcastGroups.get(this.#name) ?? new Set();
    group.add(this);
    broadcastGroups.set(this.#name, group);
  }
  get name() {
    return this.#name;
  }
  postMessage(value) {
    if (this.#closed) throw new DOMException("BroadcastChannel is closed.", "InvalidStateError");
    const data = cloneMessage(value);
    for (const other of broadcastGroups.get(this.#name) ?? []) {
      if (other === this) continue;
      const copy = structuredCloneValue(data);
      later(() => {
        if (!other.#closed) other._deliver(copy);
      });
    }
  }
  close() {
    if (this.#closed) return;
    this.#closed = true;
    const group = broadcastGroups.get(this.#name);
    group?.delete(this);
    if (group?.size === 0) broadcastGroups.delete(this.#name);
  }
}

export class Worker extends EventEmitter {
  constructor(filename, _options) {
    super();
    // Its code would run on a real host: runs_command and keeps_files cannot see what it does.
    const shown = typeof filename === "string" ? filename.slice(0, 200) : "[object]";
    recordEffect({ kind: "command", command: `new Worker(${shown})`, via: "worker_threads", exitCode: 1, partial: "a Worker's code does not run here" });
    const error = new Error(`Cannot start a Worker (${String(filename)}): modlearn's sandbox runs mods on one thread, with no worker threads`);
    error.code = "ERR_WORKER_INIT_FAILED";
    throw error;
  }
}

export function postMessageToThread(id, _value, _transferList, _timeout) {
  const error = new Error(id === threadId ? "Cannot send a message to the same thread" : `No thread with id ${id}`);
  error.code = id === threadId ? "ERR_WORKER_MESSAGING_SAME_THREAD" : "ERR_WORKER_MESSAGING_FAILED";
  return Promise.reject(error);
}

export default {
  Worker, workerData, parentPort, resourceLimits, isMainThread, isInternalThread, MessageChannel, BroadcastChannel, MessagePort,
  getEnvironmentData, setEnvironmentData, markAsUntransferable, markAsUncloneable, isMarkedAsUntransferable,
  moveMessagePortToContext, postMessageToThread, receiveMessageOnPort, SHARE_ENV, threadId, threadName,
};
