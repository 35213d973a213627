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

/**
 * The built-ins a mod can import here: require-table.js fills this with its table's names once
 * it has them (it imports this module, so this one cannot read them as it loads).
 */
export const builtinModules = [];

export default { createRequire, isBuiltin, builtinModules };
