// node:timers/promises on the virtual clock: a sleep resolves when virtual
// time reaches it, so a mod that waits five minutes costs nothing.
import { apiAbortError } from "../abort.js";

function wait(schedule, clear, delay, value, options = {}) {
  const signal = options?.signal;
  if (signal?.aborted) return Promise.reject(apiAbortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clear(id);
      reject(apiAbortError(signal));
    };
    const id = schedule(() => {
      signal?.removeEventListener?.("abort", onAbort);
      resolve(value);
    }, delay);
    signal?.addEventListener?.("abort", onAbort, { once: true });
  });
}

// Taken when the module loads, as node:timers does (see there).
const timers = {
  setTimeout: globalThis.setTimeout,
  clearTimeout: globalThis.clearTimeout,
  setImmediate: globalThis.setImmediate,
  clearImmediate: globalThis.clearImmediate,
};

export function setTimeout(delay, value, options) {
  return wait((fn, ms) => timers.setTimeout(fn, ms), (id) => timers.clearTimeout(id), delay, value, options);
}

export function setImmediate(value, options) {
  return wait((fn) => timers.setImmediate(fn), (id) => timers.clearImmediate(id), 0, value, options);
}

// util.promisify(setTimeout) and (setImmediate) are these, as in Node and Bun.
const promisifyCustom = Symbol.for("nodejs.util.promisify.custom");
timers.setTimeout[promisifyCustom] = setTimeout;
timers.setImmediate[promisifyCustom] = setImmediate;

export async function* setInterval(delay, value, options = {}) {
  const signal = options?.signal;
  while (true) {
    if (signal?.aborted) throw apiAbortError(signal);
    await setTimeout(delay, undefined, options);
    yield value;
  }
}

export const scheduler = {
  wait: (delay, options) => setTimeout(delay, undefined, options),
  yield: () => setImmediate(),
};

export default { setTimeout, setImmediate, setInterval, scheduler };
