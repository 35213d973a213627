// node:module: `createRequire` gives the mod's own `require` (a candidate is one file, so only
// Node built-ins resolve, wherever the require is said to be), and the built-ins' names.

export function createRequire(filename) {
  if (typeof filename !== "string" && !(filename instanceof URL)) {
    throw new TypeError(`The argument 'filename' must be a file URL object, file URL string, or absolute path string. Received ${String(filename)}`);
  }
  return globalThis.require;
}

export function isBuiltin(name) {
  const text = String(name);
  return builtinModules.includes(text.startsWith("node:") ? text.slice(5) : text);
}

/** What `node:module` lists: the built-ins a mod can import here (as `require-table.js`). */
export const builtinModules = [
  "assert", "assert/strict", "buffer", "child_process", "crypto", "events", "fs", "fs/promises", "http", "https", "module",
  "net", "os", "path", "path/posix", "perf_hooks", "process", "querystring", "string_decoder", "timers", "timers/promises",
  "tty", "url", "util", "util/types",
];

export default { createRequire, isBuiltin, builtinModules };
