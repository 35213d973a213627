// node:events: Node's EventEmitter (vendored `events`), with `on` as an
// async iterator added (the package predates it).

import events from "../vendor/events.js";

const EventEmitter = events.EventEmitter ?? events;

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
