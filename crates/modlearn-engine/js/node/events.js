// node:events: Node's EventEmitter (vendored `events`), with `on` as an
// async iterator added (the package predates it).

import events from "../vendor/events.js";
import { callMod } from "../platform.js";

const EventEmitter = events.EventEmitter ?? events;

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

if (typeof events.on !== "function") events.on = on;
events.errorMonitor ??= Symbol("events.errorMonitor");
events.setMaxListeners ??= (n, ...targets) => {
  for (const target of targets) target.setMaxListeners?.(n);
};
events.getEventListeners ??= (emitter, name) => (typeof emitter.listeners === "function" ? emitter.listeners(name) : []);

export default events;
export { EventEmitter, on };
export const { once, errorMonitor, setMaxListeners, getEventListeners } = events;
export const defaultMaxListeners = 10;
