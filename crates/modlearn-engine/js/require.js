// `require` and `__filename`/`__dirname` in a mod's ES module, as Bun gives
// them: mods written for Bun mix `require("node:fs")` into ES modules, and
// Letta loads them. Only Node built-ins resolve (a candidate is one file, so
// `require("./x")` fails as it does in Letta's run directory); each is the
// same virtual module `import` gives, its default export being what
// `require` returns in Bun. The table (require-table.js) is imported once the
// sandbox is installed: the built-ins must be evaluated inside it.

/** Where the candidate is, as the mod sees it (set by the load operation). */
export const modFile = { path: "/home/user/.letta/mods/mod.js" };

let builtins = null;
/** Why the table did not load, when its import failed. */
let failure = null;

/** Called once with require-table.js's BUILTINS. */
export function setBuiltins(table) {
  builtins = table;
}

/** Called when require-table.js failed to evaluate: the seal reports why. */
export function builtinsFailed(error) {
  failure = String(error?.stack ?? error);
}

/** The Node built-ins `require` gives, by name (empty until the table is in). */
export function builtinModules() {
  return builtins ?? {};
}

/** Throws unless the table is in (the host refuses to seal without it). */
export function assertRequireReady() {
  if (builtins !== null) return;
  throw new Error(`the Node built-ins for require did not load before the seal: ${failure ?? "their import never finished"}`);
}

function notFound(id) {
  const error = new Error(`Cannot find module '${id}' from '${modFile.path}'`);
  error.code = "MODULE_NOT_FOUND";
  return error;
}

/**
 * Installs `require`, `__filename` and `__dirname` on `global`. `refuse(what)`
 * throws for a Node built-in the sandbox lacks (as its import does).
 */
export function installRequire(global, refuse) {
  const require = function require(id) {
    const text = String(id);
    const name = text.startsWith("node:") ? text.slice(5) : text;
    const found = builtins?.[name];
    if (found !== undefined) return found;
    if (text.startsWith("node:")) return refuse(`require(${JSON.stringify(text)})`);
    throw notFound(text);
  };
  require.resolve = function resolve(id) {
    const text = String(id);
    const name = text.startsWith("node:") ? text.slice(5) : text;
    if (builtins?.[name] !== undefined) return text;
    throw notFound(text);
  };
  const define = (name, descriptor) => Object.defineProperty(global, name, { configurable: false, enumerable: false, ...descriptor });
  define("require", { value: Object.freeze(require), writable: false });
  define("__filename", { get: () => modFile.path });
  define("__dirname", { get: () => modFile.path.slice(0, modFile.path.lastIndexOf("/")) || "/" });
}
