// node:timers: the sandbox's timers (on the virtual clock), as a module.
import promises from "./timers-promises.js";

export const setTimeout = (...args) => globalThis.setTimeout(...args);
export const clearTimeout = (id) => globalThis.clearTimeout(id);
export const setInterval = (...args) => globalThis.setInterval(...args);
export const clearInterval = (id) => globalThis.clearInterval(id);
export const setImmediate = (...args) => globalThis.setImmediate(...args);
export const clearImmediate = (id) => globalThis.clearImmediate(id);
export { promises };
export default { setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, clearImmediate, promises };
