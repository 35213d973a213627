// The `process` global and node:process: the virtual machine's process,
// never the host's. `env` holds only what the scenario seeded; reads are
// logged as effects; `exit` is refused with a diagnostic (it would end Letta).

import { BUN_VERSION, callMod, clock, VIRTUAL_EPOCH_MS, hostAccessDenied, queueHostTask, watchSetting } from "../platform.js";
import { deferred, kernelPath, recordEffect, world } from "../world.js";
import { machineCall } from "../machine.js";

const NODE_VERSION = "v24.3.0";

/**
 * Listeners on `process` and on its streams, by target (`process`, `process.stdin`, ...) and
 * event, each with the mod that added it: code the host process runs when the event comes (a
 * signal, stdin data, an uncaught error, exit), after anything a scenario shows.
 */
const listeners = new Map();
/** `process.setMaxListeners`' setting, which outlives a reload (a setting platform.js watches). */
let maxListeners = 10;
watchSetting("process.getMaxListeners()", () => maxListeners);

deferred.processListeners = () =>
  [...listeners].flatMap(([key, list]) => {
    const [target, event] = JSON.parse(key);
    return list.filter((entry) => entry.owner).map((entry) => ({ target, event, mod: entry.owner.id, generation: entry.owner.generation }));
  });
// Listeners outlive a reload, as the process does: their number is watched as a setting is.
watchSetting("process listeners", () => [...listeners.values()].reduce((total, list) => total + list.length, 0));

const keyOf = (target, event) => JSON.stringify([target, String(event)]);

/** `on`, `off` and the rest of an emitter's listener methods, over [`listeners`] for `target`. */
function emitterOf(target, self) {
  const listOf = (event) => listeners.get(keyOf(target, event)) ?? [];
  const add = (prepend, once) =>
    function (event, listener) {
      const list = listOf(event);
      const entry = { listener, once, owner: clock.currentOwner() };
      if (prepend) list.unshift(entry);
      else list.push(entry);
      listeners.set(keyOf(target, event), list);
      return self();
    };
  function off(event, listener) {
    const list = listOf(event);
    const index = list.findLastIndex((entry) => entry.listener === listener);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) listeners.delete(keyOf(target, event));
    return self();
  }
  return {
    on: add(false, false),
    addListener: add(false, false),
    once: add(false, true),
    prependListener: add(true, false),
    prependOnceListener: add(true, true),
    off,
    removeListener: off,
    removeAllListeners(event) {
      for (const key of [...listeners.keys()]) {
        const [owner, named] = JSON.parse(key);
        if (owner === target && (event === undefined || named === String(event))) listeners.delete(key);
      }
      return self();
    },
    emit(event, ...args) {
      const list = [...listOf(event)];
      for (const entry of list) {
        if (entry.once) off(event, entry.listener);
        callMod(entry.listener, self(), args);
      }
      return list.length > 0;
    },
    listeners: (event) => listOf(event).map((entry) => entry.listener),
    listenerCount: (event) => listOf(event).length,
    eventNames: () => [...listeners.keys()].map((key) => JSON.parse(key)).filter(([owner]) => owner === target).map(([, event]) => event),
  };
}

// Reads of `process.env.X` are effects; enumerating is too (once per call). The variables live
// in `world.env`, which each seed replaces: the proxy's own target stays empty and fixed, so
// nothing a mod defines or hangs on it outlives the machine unweighed.
const env = new Proxy({}, {
  get(target, name) {
    // JSON.stringify asks for toJSON first: not a variable read.
    if (typeof name !== "string" || name === "toJSON") return undefined;
    const value = Object.hasOwn(world.env, name) ? world.env[name] : undefined;
    recordEffect({ kind: "env_read", name, found: value !== undefined });
    return value;
  },
  set(_target, name, value) {
    if (typeof name === "string") world.env[name] = String(value);
    return true;
  },
  deleteProperty(_target, name) {
    delete world.env[name];
    return true;
  },
  // `"X" in process.env` asks for the variable too.
  has(_target, name) {
    const found = Object.hasOwn(world.env, name);
    if (typeof name === "string") recordEffect({ kind: "env_read", name, found });
    return found;
  },
  ownKeys() {
    recordEffect({ kind: "env_read", name: "*", found: true });
    return Reflect.ownKeys(world.env);
  },
  getOwnPropertyDescriptor(_target, name) {
    if (!Object.hasOwn(world.env, name)) return undefined;
    return { value: world.env[name], writable: true, enumerable: true, configurable: true };
  },
  defineProperty(_target, name, descriptor) {
    if ("get" in descriptor || "set" in descriptor) throw new TypeError("'process.env' does not accept an accessor(getter/setter) descriptor");
    if (typeof name === "string") world.env[name] = String(descriptor.value);
    return true;
  },
  setPrototypeOf: () => false,
  preventExtensions: () => false,
});

function hrtime(previous) {
  const ns = BigInt(clock.now - VIRTUAL_EPOCH_MS) * 1000000n;
  let seconds = Number(ns / 1000000000n);
  let nanos = Number(ns % 1000000000n);
  if (Array.isArray(previous)) {
    seconds -= previous[0];
    nanos -= previous[1];
    if (nanos < 0) {
      seconds--;
      nanos += 1e9;
    }
  }
  return [seconds, nanos];
}
hrtime.bigint = () => BigInt(clock.now - VIRTUAL_EPOCH_MS) * 1000000n;

function stream(fd, level, name) {
  const self = {
    // A pipe, as the harness's stdout is: no isTTY, no columns or rows (Bun leaves them unset).
    fd,
    write(chunk, encoding, callback) {
      const text = typeof chunk === "string" ? chunk : new TextDecoder().decode(chunk);
      for (const line of text.replace(/\n$/, "").split("\n")) console[level](line);
      const done = typeof encoding === "function" ? encoding : callback;
      if (typeof done === "function") queueMicrotask(done);
      return true;
    },
    end() {},
  };
  return Object.assign(self, emitterOf(name, () => self));
}

export const process = {
  title: "bun",
  version: NODE_VERSION,
  versions: { node: NODE_VERSION.slice(1), bun: BUN_VERSION },
  arch: "x64",
  platform: "linux",
  release: { name: "node" },
  argv: ["/usr/local/bin/bun", "/usr/local/lib/letta/letta.js"],
  argv0: "bun",
  execArgv: [],
  execPath: "/usr/local/bin/bun",
  pid: 4242,
  ppid: 4241,
  exitCode: undefined,
  env,
  cwd: () => world.cwd,
  chdir(directory) {
    // The kernel's chdir, and getcwd's answer after it: the directory's real path.
    const fail = (code, text) =>
      Object.assign(new Error(`${code}: ${text}, chdir ${world.cwd} -> '${directory}'`), { code, syscall: "chdir", path: world.cwd, dest: String(directory) });
    const { reply } = machineCall({ op: "realpath", path: kernelPath(String(directory)) });
    if (reply.reply === "failed") throw fail(reply.code, reply.code === "ENOTDIR" ? "not a directory" : "no such file or directory");
    if (reply.reply !== "path") throw fail("ENOENT", "no such file or directory");
    const found = machineCall({ op: "stat", path: reply.path, follow: true }).reply;
    if (found.reply !== "stat" || (found.mode & 0o170000) !== 0o40000) throw fail("ENOTDIR", "not a directory");
    world.cwd = reply.path;
  },
  uptime: () => (clock.now - VIRTUAL_EPOCH_MS) / 1000,
  hrtime,
  memoryUsage: Object.assign(() => ({ rss: 50331648, heapTotal: 16777216, heapUsed: 8388608, external: 0, arrayBuffers: 0 }), { rss: () => 50331648 }),
  cpuUsage: () => ({ user: 0, system: 0 }),
  getuid: () => 1000,
  getgid: () => 1000,
  geteuid: () => 1000,
  getegid: () => 1000,
  umask: () => 0o22,
  nextTick(callback, ...args) {
    if (typeof callback !== "function") throw new TypeError("The \"callback\" argument must be of type function");
    queueHostTask(() => callMod(callback, undefined, args), "tick");
  },
  emitWarning(warning) {
    console.warn(typeof warning === "string" ? `Warning: ${warning}` : String(warning));
  },
  exit(code) {
    hostAccessDenied(`process.exit(${code === undefined ? "" : JSON.stringify(code)})`, "it would end Letta's own process");
  },
  abort() {
    hostAccessDenied("process.abort()", "it would end Letta's own process");
  },
  kill(pid) {
    recordEffect({ kind: "command", command: `kill ${pid}`, via: "process.kill", exitCode: 1 });
    const error = new Error("kill ESRCH");
    Object.assign(error, { code: "ESRCH", errno: -3, syscall: "kill" });
    throw error;
  },
  ...emitterOf("process", () => process),
  stdout: stream(1, "log", "process.stdout"),
  stderr: stream(2, "error", "process.stderr"),
  stdin: (() => {
    const stdin = { fd: 0, setRawMode() {}, resume() {}, pause() {} };
    return Object.assign(stdin, emitterOf("process.stdin", () => stdin));
  })(),
  features: { inspector: false, typescript: "transform" },
  // Frozen, as Node has it since v19 (DEP0150).
  config: Object.freeze({ variables: Object.freeze({}) }),
  setMaxListeners(n) {
    maxListeners = n;
    return process;
  },
  getMaxListeners: () => maxListeners,
};
Object.defineProperty(process, Symbol.toStringTag, { value: "process" });

export default process;
export const { argv, arch, platform, version, versions, pid, cwd, chdir, nextTick, exit, emitWarning, stdout, stderr, stdin, uptime, memoryUsage, on, off, once, emit } = process;
export { env, hrtime };
