// node:timers: the sandbox's timers (on the virtual clock), as a module.
import promises from "./timers-promises.js";

// The sandbox's own functions, taken when the module loads (inside the sandbox, before any mod
// runs): as in Node, replacing globalThis.setTimeout later does not change node:timers.
export const setTimeout = globalThis.setTimeout;
export const clearTimeout = globalThis.clearTimeout;
export const setInterval = globalThis.setInterval;
export const clearInterval = globalThis.clearInterval;
export const setImmediate = globalThis.setImmediate;
export const clearImmediate = globalThis.clearImmediate;
export { promises };
export default { setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, clearImmediate, promises };
