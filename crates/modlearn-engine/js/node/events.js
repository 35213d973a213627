// node:events: Node's EventEmitter (vendored `events`), with `on` as an
// async iterator added (the package predates it).

import events from "../vendor/events.js";
import { apiAbortError } from "../abort.js";
import { callMod, watchSetting } from "../platform.js";
import { makeAddAbortListener } from "./util-extras.js";

const EventEmitter = events.EventEmitter ?? events;

const readDefaultMaxListeners = Object.getOwnPropertyDescriptor(EventEmitter, "defaultMaxListeners").get;
watchSetting("EventEmitter.defaultMaxListeners (node:events)", () => Reflect.apply(readDefaultMaxListeners, EventEmitter, []));

// Listeners run through callMod, as every call of the host's into mod code does: the vendored
// emit and once-wrapper call them from a frame of the host's, where a bound native or `eval`
// handed in as a listener would run (and name the code it compiles) as the host.
const vendorEmit = EventEmitter.prototype.emit;
EventEmitter.prototype.emit = function emit(type, ...args) {
  const registered = this._events;
  const handler = registered === undefined ? undefined : registered[type];
  // An unhandled "error" throws as the vendored emit does.
  if (handler === undefined) return type === "error" ? Reflect.apply(vendorEmit, this, [type, ...args]) : false;
  if (typeof handler === "function") callMod(handler, this, args);
  else for (const listener of [...handler]) callMod(listener, this, args);
  return true;
};

function onceListener(emitter, type, listener) {
  if (typeof listener !== "function") throw new TypeError(`The "listener" argument must be of type Function. Received type ${typeof listener}`);
  let fired = false;
  function wrapped(...args) {
    if (fired) return undefined;
    fired = true;
    emitter.removeListener(type, wrapped);
    return callMod(listener, emitter, args);
  }
  wrapped.listener = listener;
  return wrapped;
}
EventEmitter.prototype.once = function once(type, listener) {
  return this.on(type, onceListener(this, type, listener));
};
EventEmitter.prototype.prependOnceListener = function prependOnceListener(type, listener) {
  return this.prependListener(type, onceListener(this, type, listener));
};

function on(emitter, event, options = {}) {
  const queue = [];
  const waiting = [];
  let error = null;
  let done = false;
  const push = (...args) => {
    if (waiting.length) waiting.shift().resolve({ value: args, done: false });
    else queue.push(args);
  };
  const fail = (reason) => {
    done = true;
    if (waiting.length) waiting.shift().reject(reason);
    else error = reason;
  };
  emitter.on(event, push);
  if (event !== "error") emitter.on("error", fail);
  const close = () => {
    emitter.removeListener(event, push);
    emitter.removeListener("error", fail);
    done = true;
    for (const waiter of waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
  };
  options.signal?.addEventListener("abort", close, { once: true });
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
      if (error) {
        const reason = error;
        error = null;
        return Promise.reject(reason);
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      close();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(reason) {
      close();
      return Promise.reject(reason);
    },
  };
}

/**
 * `events.once(emitter, name, { signal })` as Node has it: the vendored one ignores `signal`,
 * so a mod that waits for an event until it is disposed would wait (and leak) for ever.
 */
function once(emitter, name, options = {}) {
  const signal = options?.signal;
  if (signal?.aborted) return Promise.reject(apiAbortError(signal));
  return new Promise((resolve, reject) => {
    const listen = (event, listener) =>
      typeof emitter.on === "function" ? emitter.on(event, listener) : emitter.addEventListener(event, listener);
    const unlisten = (event, listener) =>
      typeof emitter.removeListener === "function" ? emitter.removeListener(event, listener) : emitter.removeEventListener?.(event, listener);
    if (typeof emitter.on !== "function" && typeof emitter.addEventListener !== "function") {
      throw new TypeError(`The "emitter" argument must be an instance of EventEmitter or EventTarget. Received type ${typeof emitter}`);
    }
    const withErrors = name !== "error" && typeof emitter.on === "function";
    const settle = () => {
      unlisten(name, resolver);
      if (withErrors) unlisten("error", errorListener);
      signal?.removeEventListener?.("abort", abort);
    };
    const resolver = (...args) => {
      settle();
      resolve(args);
    };
    const errorListener = (error) => {
      settle();
      reject(error);
    };
    const abort = () => {
      settle();
      reject(apiAbortError(signal));
    };
    listen(name, resolver);
    if (withErrors) listen("error", errorListener);
    signal?.addEventListener?.("abort", abort, { once: true });
  });
}

events.once = once;
if (typeof events.on !== "function") events.on = on;
events.errorMonitor ??= Symbol("events.errorMonitor");
events.setMaxListeners ??= (n, ...targets) => {
  for (const target of targets) target.setMaxListeners?.(n);
};
events.addAbortListener = makeAddAbortListener(callMod);
events.getEventListeners ??= (emitter, name) => (typeof emitter.listeners === "function" ? emitter.listeners(name) : []);

export default events;
export { EventEmitter, on, once };
export const { errorMonitor, setMaxListeners, getEventListeners, addAbortListener } = events;
export const defaultMaxListeners = 10;
