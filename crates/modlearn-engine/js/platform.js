// The sandbox a candidate runs in: a virtual clock with timers, a seeded
// Math.random, captured console output, the few web globals mods expect
// (structuredClone, AbortController), and traps for every route to the host.
//
// Everything here is deterministic: two engines given the same seed and the
// same calls produce the same values, so scoring is reproducible.

import { structuredCloneValue } from "./clone.js";
import { installAbort } from "./abort.js";
import { boundText } from "./diagnostics.js";

/** Fixed start of virtual time: 2026-01-01T00:00:00Z. */
export const VIRTUAL_EPOCH_MS = 1767225600000;

const RealDate = globalThis.Date;
/** The engine's own Promise, for the host's waits (the sandbox's tracks mod code's). */
const RealPromise = globalThis.Promise;

/** The engine's virtual clock and its timer queue. */
export const clock = {
  now: VIRTUAL_EPOCH_MS,
  nextId: 1,
  seq: 0,
  /** @type {Map<number, {id:number, due:number, seq:number, fn:Function, args:unknown[], interval:number|null, owner:unknown}>} */
  timers: new Map(),
  /** Called when a timer callback throws; set by the host. */
  onTimerError: (_error, _owner) => {},
  /** Returns the owner whose code is running; set by the host. */
  currentOwner: () => null,
  /** AsyncLocalStorage's context, carried into timers and queued tasks (node/async_hooks.js; set by the host). */
  contextInUse: () => false,
  captureContext: () => undefined,
  runInContext: (_context, fn) => fn(),
};

/**
 * Where an entry due at the same virtual time runs in a turn of the event loop, as measured in
 * Bun under Letta's harness: `process.nextTick` callbacks first, then `setImmediate`, then
 * finished I/O (an `fs` callback, an `fs/promises` promise), then timers. Ticks and I/O wait
 * for a turn as in Bun, where the loop turns only when the code running waits on something:
 * Letta's harness awaits a mod's `activate` and its handlers without one, so what they leave
 * queued runs later. A dispose drains everything before timers (`drainHostTasks`).
 */
export const PHASE = Object.freeze({ tick: 0, immediate: 1, io: 2, drain: 3, timer: 4 });

function addTimer(fn, delay, args, interval, phase = PHASE.timer) {
  if (typeof fn !== "function") {
    throw new TypeError("The callback passed to setTimeout/setInterval must be a function");
  }
  const ms = timerDelay(delay);
  const id = clock.nextId++;
  const timer = {
    id,
    due: clock.now + ms,
    seq: clock.seq++,
    fn,
    args,
    interval: interval ? Math.max(1, ms) : null,
    owner: clock.currentOwner(),
    phase,
    context: clock.contextInUse() ? clock.captureContext() : undefined,
  };
  clock.timers.set(id, timer);
  timer.handle = new Timeout(timer, ms);
  return timer.handle;
}

/** The largest delay Node and Bun keep; a longer one (or Infinity) is taken as 1 ms. */
const TIMEOUT_MAX = 2 ** 31 - 1;

/** A timer's delay as Bun takes it: whole milliseconds, none below 0, none past TIMEOUT_MAX. */
function timerDelay(delay) {
  const ms = Math.max(0, Math.trunc(Number(delay)) || 0);
  return ms > TIMEOUT_MAX ? 1 : ms;
}

/**
 * What Bun's `setTimeout`, `setInterval` and `setImmediate` return: an object that converts to
 * the timer's id (`+timer`), with Node's `ref`/`unref`/`hasRef`/`refresh`. Keeping a timer
 * referenced or not changes nothing here: the virtual clock never waits.
 */
class Timeout {
  #timer;
  #ms;
  #referenced = true;
  #cleared = false;
  constructor(timer, ms) {
    // Only the host's timers make these: one a mod builds through `.constructor` is inert.
    this.#timer = typeof timer === "object" && timer !== null && clock.timers.get(timer.id) === timer ? timer : null;
    this.#ms = timerDelay(ms);
  }
  static idOf(handle) {
    if (handle !== null && typeof handle === "object" && #timer in handle) return handle.#timer?.id;
    return typeof handle === "number" || typeof handle === "string" ? Number(handle) : undefined;
  }
  static cleared(handle) {
    if (handle !== null && typeof handle === "object" && #cleared in handle) handle.#cleared = true;
  }
  ref() {
    this.#referenced = true;
    return this;
  }
  unref() {
    this.#referenced = false;
    return this;
  }
  hasRef() {
    return this.#referenced;
  }
  /**
   * Starts the timer's delay over from now, as Node does; one that already fired is armed
   * again (`setTimeout(() => timer.refresh(), ms)` beats forever), one cleared is not.
   */
  refresh() {
    const timer = this.#timer;
    if (timer === null || this.#cleared) return this;
    timer.due = clock.now + this.#ms;
    timer.seq = clock.seq++;
    clock.timers.set(timer.id, timer);
    return this;
  }
  close() {
    clearModTimer(this);
    return this;
  }
  [Symbol.toPrimitive]() {
    return this.#timer?.id ?? NaN;
  }
}

/**
 * A timer the host starts, on the same virtual clock as the mod's: with no
 * owner, Letta's own time limits race mod code with these; with one, it is a
 * timer a mod asked for through a built-in (`AbortSignal.timeout`), and the
 * lifecycle checks count it as that mod's.
 */
export function setHostTimeout(fn, delay, owner = null, signal = null) {
  const id = clock.nextId++;
  clock.timers.set(id, { id, due: clock.now + delay, seq: clock.seq++, fn, args: [], interval: null, owner, host: true, signal, phase: PHASE.timer });
  return id;
}

/**
 * A mod's clearTimeout, clearInterval and clearImmediate: its own timers only. The host's (a
 * command's time limit, `AbortSignal.timeout`) are no timer a mod can name in Bun either, and
 * their ids are easy to guess.
 */
function clearModTimer(handle) {
  const id = Timeout.idOf(handle);
  const timer = clock.timers.get(id);
  if (timer !== undefined && !timer.host) {
    clock.timers.delete(id);
    Timeout.cleared(timer.handle);
  }
}

/** Cancels a timer made by `setHostTimeout`. */
export function clearHostTimeout(id) {
  clock.timers.delete(id);
}

/** Timer ids still scheduled, with their owners (for lifecycle checks); queued tasks are no timers. */
export function pendingTimers() {
  return [...clock.timers.values()].filter((timer) => timer.task === undefined);
}

/**
 * Queues `fn` (host code, which calls into the mod itself) for the loop's next turn in the
 * phase of `task` ("tick" or "io"): no timer a mod can clear, nor a leftover once its mod is
 * disposed, since the process runs it at once the next time its loop turns.
 */
export function queueHostTask(fn, task) {
  const id = clock.nextId++;
  const context = clock.contextInUse() ? clock.captureContext() : undefined;
  clock.timers.set(id, { id, due: clock.now, seq: clock.seq++, fn, args: [], interval: null, owner: clock.currentOwner(), host: true, phase: PHASE[task], task, context });
}

/**
 * A promise of what `run` returns (or throws), settled by finished I/O: Bun does the work off
 * the thread, so the promise settles on a later turn of the loop, never within promise jobs.
 */
export function settleAsIo(run) {
  return new RealPromise((resolve, reject) => {
    let result;
    try {
      result = run();
    } catch (error) {
      queueHostTask(() => reject(error), "io");
      return;
    }
    queueHostTask(() => resolve(result), "io");
  });
}

/** How many turns a drain waits at most: ticks that queue ticks forever starve a loop in Bun too. */
const DRAIN_TURNS = 100_000;

/**
 * A promise that settles once no tick, immediate or finished I/O waits for the loop, each
 * having run (a step awaiting it has the loop turn until then; timers stay where they are).
 */
export function drainHostTasks() {
  return new RealPromise((resolve) => {
    let turns = 0;
    const check = () => {
      if (hostTasksQueued() && turns++ < DRAIN_TURNS) queueHostTask(check, "drain");
      else resolve();
    };
    check();
  });
}

/** Whether ticks, immediates or finished I/O wait for the loop's next turn. */
export function hostTasksQueued() {
  for (const timer of clock.timers.values()) if (timer.phase < PHASE.drain && timer.due <= clock.now) return true;
  return false;
}

/** Drops every timer that belongs to `owner` (used when a load fails). */
export function clearTimersOf(owner) {
  for (const [id, timer] of clock.timers) {
    if (timer.owner !== owner) continue;
    clock.timers.delete(id);
    Timeout.cleared(timer.handle);
  }
}

/**
 * Moves virtual time to the earliest due timer and runs it.
 * Returns false when no timer is scheduled.
 */
export function advanceClock() {
  let next = null;
  for (const timer of clock.timers.values()) {
    if (next === null || timer.due < next.due || (timer.due === next.due && (timer.phase < next.phase || (timer.phase === next.phase && timer.seq < next.seq)))) {
      next = timer;
    }
  }
  if (next === null) return false;
  clock.now = Math.max(clock.now, next.due);
  if (next.interval === null) {
    clock.timers.delete(next.id);
  } else {
    next.due = clock.now + next.interval;
    next.seq = clock.seq++;
  }
  try {
    // As in Node and Bun, a timer's callback gets its Timeout as `this`; it runs in the
    // AsyncLocalStorage context it was scheduled in.
    const run = () => (next.host ? next.fn(...next.args) : callMod(next.fn, next.handle, next.args));
    if (next.context === undefined) run();
    else clock.runInContext(next.context, run);
  } catch (error) {
    clock.onTimerError(error, next.owner);
  }
  return true;
}

/**
 * Host settings a mod can change that live in closures behind accessors
 * (`Error.stackTraceLimit`, `EventEmitter.defaultMaxListeners`), each with the host's own reader
 * (no mod code, no effect) and its value when watched: lifecycle.js lists one a mod changed as it
 * lists a changed global, so one bumped on every load grows from one reload to the next.
 */
export const hostSettings = [];

/** Watches the setting `name`, read by `read`. */
export function watchSetting(name, read) {
  hostSettings.push({ name, read, baseline: read() });
}

/**
 * Collections a built-in keeps in its module (diagnostics_channel's channels, fs's open
 * descriptors): every load generation shares them, so what a mod leaves there outlives a
 * reload as a global would. lifecycle.js weighs each all the way down, against its weight when
 * the host was sealed.
 */
export const hostCollections = [];

/**
 * Watches `collection` (a built-in's module-level Map, Set or array, or a host function that
 * answers what of it to weigh without running mod code) under `name`.
 */
export function watchCollection(name, collection) {
  hostCollections.push({ name, collection, baseline: 0 });
}

/** The script the host calls a mod's functions from (`callMod`); see `installCallMod`. */
const MOD_CALL_SCRIPT = "modlearn-callback:///call.js";

/**
 * Calls a function of the mod's (a handler, a listener, a timer's callback, a disposer) from
 * host code. Until the sandbox is installed, a plain call.
 */
export let callMod = (fn, self, args) => Reflect.apply(fn, self, args);

/**
 * Makes `callMod` call through a frame of a script of its own, which the host's stack reads
 * count as the mod's (js/lifecycle.js asks them whose a new promise is). A mod function the
 * host calls may be a native one, bound or not (`Reflect.construct.bind(null, Promise, ...)`,
 * `eval`): with no frame of the mod's on the stack, what it made would look like the host's,
 * and code `eval` compiles is named after the nearest frame, a host module's without this one.
 * Stacks shown to mods leave the frame out.
 */
function installCallMod(core) {
  const [make, error] = core.evalContext("(function (apply) { return function callMod(fn, self, args) { return apply(fn, self, args); }; })", MOD_CALL_SCRIPT);
  if (error) throw error.thrown;
  callMod = make(Reflect.apply);
}

/**
 * The sandbox's Date: the engine's own Date objects, on the virtual clock. A plain function,
 * not a subclass, so that nothing reachable from it (its prototype chain, or the prototype's
 * `constructor`) leads to the engine's Date and the host's real clock.
 */
function VirtualDate(...args) {
  // Called without `new`, Date gives the current time as a string.
  if (new.target === undefined) return new RealDate(readClock()).toString();
  // Local time is UTC in the sandbox, whatever the host's time zone.
  const time = args.length === 0 ? [readClock()] : args.length >= 2 ? [RealDate.UTC(...args)] : args;
  return Reflect.construct(RealDate, time, new.target);
}
Object.defineProperty(VirtualDate, "name", { value: "Date" });
Object.defineProperty(VirtualDate, "length", { value: RealDate.length });
Object.defineProperty(VirtualDate, "prototype", { value: RealDate.prototype, writable: false, enumerable: false, configurable: false });
Object.defineProperty(RealDate.prototype, "constructor", { value: VirtualDate, writable: true, enumerable: false, configurable: true });
for (const name of ["parse", "UTC"]) {
  Object.defineProperty(VirtualDate, name, { value: RealDate[name], writable: true, enumerable: false, configurable: true });
}
Object.defineProperty(VirtualDate, "now", { value: () => readClock(), writable: true, enumerable: false, configurable: true });

/** Reads of the clock at one time before it moves, and then reads per millisecond. */
const SPIN_READS = 1000;
const READS_PER_MS = 100;
const spin = { at: null, reads: 0 };

/**
 * The virtual time, as a mod reads it. The clock stands still while code runs, so a mod that
 * waits by reading it in a loop (`while (Date.now() - start < 20) {}`) would spin until its
 * budget ran out, where Bun waits 20 ms. Past SPIN_READS reads at one time, the clock moves
 * on a millisecond every READS_PER_MS reads: such a wait ends, and what it reads depends on
 * the number of reads alone, so verdicts stay the same from run to run.
 */
export function readClock() {
  if (spin.at !== clock.now) {
    spin.at = clock.now;
    spin.reads = 0;
  } else if (++spin.reads >= SPIN_READS) {
    clock.now += 1;
    spin.at = clock.now;
    spin.reads = SPIN_READS - READS_PER_MS;
  }
  return clock.now;
}

// mulberry32: small, fast and good enough for reproducible jitter in mods.
let randomState = 0x9e3779b9;
/** Reseeds Math.random. */
export function seedRandom(seed) {
  randomState = seed >>> 0;
}
/** The next 32 bits of the seeded generator (Math.random, crypto and ids share it). */
export function randomUint32() {
  randomState = (randomState + 0x6d2b79f5) >>> 0;
  let t = randomState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}
function seededRandom() {
  return randomUint32() / 4294967296;
}

/** The longest console line kept whole (a line of JSON a mod prints for its own debugging fits). */
const CONSOLE_LINE_LIMIT = 64 * 1024;

/** Console lines the candidate printed, capped so a chatty mod cannot fill memory. */
export const consoleBuffer = { lines: [], dropped: 0, limit: 1000, characters: 0, characterLimit: 256 * 1024 };

function formatArg(arg) {
  if (typeof arg === "string") return arg;
  if (arg instanceof Error) return `${arg.name}: ${arg.message}`;
  try {
    const text = JSON.stringify(arg);
    return text === undefined ? String(arg) : text;
  } catch {
    return String(arg);
  }
}

function makeConsole() {
  const write = (level) => (...args) => {
    if (consoleBuffer.lines.length >= consoleBuffer.limit || consoleBuffer.characters >= consoleBuffer.characterLimit) {
      consoleBuffer.dropped++;
      return;
    }
    const text = boundText(args.map(formatArg).join(" "), CONSOLE_LINE_LIMIT);
    consoleBuffer.characters += text.length;
    consoleBuffer.lines.push({ level, text });
  };
  const log = write("log");
  // The rest of the console Bun gives, on the virtual clock: a mod calling console.time or
  // console.table must not fail where Bun prints a line.
  const timers = new Map();
  const counts = new Map();
  // Labels left timing or counted outlive a reload, as the console does: weighed as a setting.
  const weight = (labels) => [...labels.keys()].reduce((total, label) => total + 1 + String(label).length, 0);
  watchSetting("console.time and console.count labels", () => weight(timers) + weight(counts));
  const elapsed = (label) => `[${(clock.now - timers.get(label)).toFixed(2)}ms] ${label}`;
  return {
    log,
    info: write("info"),
    debug: write("debug"),
    warn: write("warn"),
    error: write("error"),
    trace: write("trace"),
    dir: (value) => log(value),
    dirxml: log,
    table: (data) => log(data),
    group: (...label) => label.length > 0 && log(...label),
    groupCollapsed: (...label) => label.length > 0 && log(...label),
    groupEnd: () => undefined,
    clear: () => undefined,
    assert: (condition, ...data) => {
      if (!condition) write("error")("Assertion failed", ...data);
    },
    count: (label = "default") => {
      const count = (counts.get(String(label)) ?? 0) + 1;
      counts.set(String(label), count);
      log(`${String(label)}: ${count}`);
    },
    countReset: (label = "default") => void counts.delete(String(label)),
    time: (label = "default") => void timers.set(String(label), clock.now),
    timeLog: (label = "default", ...data) => {
      if (timers.has(String(label))) log(elapsed(String(label)), ...data);
    },
    timeEnd: (label = "default") => {
      if (!timers.has(String(label))) return;
      log(elapsed(String(label)));
      timers.delete(String(label));
    },
  };
}

/** Error thrown when a mod reaches for something the sandbox does not offer. */
export class HostAccessError extends Error {
  constructor(what, advice) {
    super(`${what} is not available: modlearn runs mods without host access${advice ? `; ${advice}` : ""}`);
    this.name = "HostAccessError";
    this.what = what;
  }
}

/** Called with each HostAccessError before it is thrown; set by the host. */
export const hostAccess = { onAccess: (_error) => {} };

function deny(what, advice) {
  const error = new HostAccessError(what, advice);
  hostAccess.onAccess(error);
  throw error;
}
export { deny as hostAccessDenied };

function installHostTraps(global) {
  // `process` and `fetch` are the engine's own (node/process.js, web/network.js).
  const define = (name, descriptor) =>
    Object.defineProperty(global, name, { configurable: false, enumerable: false, ...descriptor });
  for (const name of ["XMLHttpRequest", "WebSocket", "EventSource"]) {
    define(name, {
      value: function blocked() {
        return deny(name, "the network is closed to mods under evaluation");
      },
      writable: false,
    });
  }
  // No `Deno`: as under Bun, `typeof Deno` is "undefined" and using it throws a ReferenceError.
  // Mods tell Bun apart by `typeof Bun` and read `Bun.version`; what reaches the host is denied.
  define("Bun", { value: virtualBun(global), writable: false });
  define("navigator", {
    value: Object.freeze({ userAgent: `Bun/${BUN_VERSION}`, hardwareConcurrency: 2, platform: "Linux x86_64" }),
    writable: true,
  });
}

/** The Bun version every virtual surface reports (`process.versions.bun` too). */
export const BUN_VERSION = "1.4.5";

/**
 * Bun's own members that reach the host: functions that are denied when called (so a feature
 * test, `typeof Bun.spawn === "function"`, reads as in Bun), and objects denied when read.
 * Neither is enumerable: printing `Bun` reads only what a mod may use.
 */
const BUN_DENIED_CALLS = [
  "serve", "connect", "listen", "udpSocket", "build",
  "plugin", "gc", "openInEditor", "resolveSync", "resolve", "Transpiler", "Glob", "mmap", "allocUnsafe",
  "generateHeapSnapshot", "SQL", "S3Client",
];
const BUN_DENIED_READS = ["dns", "sql", "s3", "redis", "stdin", "stdout", "stderr", "password"];

/** Bun.file and Bun.write, on the machine's file system (node/bun-file.js fills them in). */
export const bunFileSystem = { file: null, write: null };

/** Bun.CryptoHasher, on node:crypto's hashes (node/bun-crypto.js fills it in). */
export const bunCrypto = { CryptoHasher: null };

/**
 * Bun.spawn, Bun.spawnSync, Bun.which and Bun.$, on the candidate's machine
 * (node/child_process.js and node/bun-shell.js fill them in).
 */
export const bunProcess = { spawn: null, spawnSync: null, which: null, shell: null };

function virtualBun(global) {
  const bun = { version: BUN_VERSION, revision: "0000000000000000000000000000000000000000" };
  const read = (name, value) => Object.defineProperty(bun, name, { get: value, enumerable: true });
  read("env", () => global.process.env);
  read("argv", () => global.process.argv);
  read("main", () => global.process.argv[1]);
  bun.sleep = (ms) => new Promise((resolve) => global.setTimeout(resolve, Number(ms) || 0));
  bun.nanoseconds = () => Math.round(global.performance.now() * 1e6);
  bun.file = (path) => bunFileSystem.file(path);
  bun.write = (destination, data) => bunFileSystem.write(destination, data);
  Object.defineProperty(bun, "CryptoHasher", { get: () => bunCrypto.CryptoHasher, enumerable: false });
  for (const name of ["spawn", "spawnSync", "which"]) {
    const call = { [name]: (...args) => bunProcess[name](...args) }[name];
    Object.defineProperty(bun, name, { value: call, enumerable: false });
  }
  // node/bun-shell.js is evaluated before the sandbox is installed (host.js imports it first).
  Object.defineProperty(bun, "$", { value: bunProcess.shell, enumerable: false });
  const advice = "mods see only the letta handle and ctx";
  for (const name of BUN_DENIED_CALLS) {
    Object.defineProperty(bun, name, { value: { [name]: () => deny(`Bun.${name}`, advice) }[name], enumerable: false });
  }
  for (const name of BUN_DENIED_READS) {
    Object.defineProperty(bun, name, { get: () => deny(`Bun.${name}`, advice), enumerable: false });
  }
  return Object.freeze(bun);
}

function frameLocation(callsite) {
  const file = callsite.getFileName?.() ?? callsite.getScriptNameOrSourceURL?.();
  if (typeof file !== "string" || file.startsWith("modlearn-host:")) return null;
  // The host's call into a mod is the mod's frame to the host, and no frame of a mod's own.
  if (file === MOD_CALL_SCRIPT && !readingForHost) return null;
  const line = callsite.getLineNumber?.() ?? "?";
  const column = callsite.getColumnNumber?.() ?? "?";
  // The host reads the whole name, and a name the mod can choose (a data: URL) encoded, so
  // that no bracket, `@` or line break in it changes how the frame reads back.
  if (readingForHost) return `${BACKEND_SCRIPT.test(file) ? file : encodeName(file)}:${line}:${column}`;
  // For mods, the file name only, without the load query: the same on every machine.
  return `${oneLine(file.replace(/[?#].*$/, "").split("/").pop())}:${line}:${column}`;
}

/** The engine's own encoder: a mod may replace the global one. */
const encodeName = encodeURIComponent;

/** The backend's internal scripts' names (`<dynimport-chain>`), which no mod can give a module. */
const BACKEND_SCRIPT = /^<[a-z0-9-]+>$/;

/**
 * How many frames QuickJS puts in a stack trace at most, whatever the limit: a stack the host
 * reads with that many may hold the candidate's frames below them.
 */
const BACKTRACE_FRAMES = 64;

/** A frame's text on one line: a line break in a name would cut its frame in two. */
const oneLine = (text) => String(text).replace(/[\r\n\u2028\u2029]/g, " ");

/**
 * Set while the host reads a stack for itself (`readStackForHost`): the engine's stack walk
 * (modlearn-engine-ops) reads the frames this formats, so they carry no function names (a
 * mod's, with a bracket or line break, could look like another frame), and a last line of
 * the host's own says the formatting ran (no frames at all then means it did not).
 */
let readingForHost = false;

/** Runs `read` (a native read of the current stack) with the frames formatted for the host. */
export function readStackForHost(read) {
  const outer = readingForHost;
  readingForHost = true;
  try {
    return read();
  } finally {
    readingForHost = outer;
  }
}

/**
 * Stack traces that show only the candidate's own frames, by file name, so
 * diagnostics read the same on every machine. (It also keeps deno_core from
 * formatting stacks while an engine is being stopped.)
 */
function prepareStackTrace(error, callsites) {
  if (readingForHost) {
    // No frame at all (not even the last line below) reads as a stack that could not be read.
    if (callsites.length >= BACKTRACE_FRAMES) return "Error";
    const frames = callsites.map(frameLocation).filter((location) => location !== null);
    return ["Error", ...frames.map((location) => `    at ${location}`), "    at <modlearn-stack-read>:1:1"].join("\n");
  }
  const head = error && error.message ? `${error.name ?? "Error"}: ${error.message}` : String(error?.name ?? "Error");
  const frames = [];
  for (const callsite of callsites) {
    const location = frameLocation(callsite);
    if (location === null) continue;
    const name = callsite.getFunctionName?.();
    frames.push(`    at ${name ? `${oneLine(name)} (${location})` : location}`);
  }
  return [head, ...frames].join("\n");
}

/** QuickJS's body of a native function's source text, and the one line Bun (V8, JSC) prints. */
const QUICKJS_NATIVE = "{\n    [native code]\n}";
const BUN_NATIVE = "{ [native code] }";

/**
 * `Function.prototype.toString` printing native functions as Bun does:
 * `function Object() { [native code] }`. Code that tells intrinsics from
 * look-alikes by that text (DSH's JSON-schema checks do) then sees the same
 * platform here as under Bun. It reports itself as native too.
 */
function installNativeToString(global) {
  const FunctionPrototype = global.Function.prototype;
  const nativeToString = FunctionPrototype.toString;
  const { endsWith, slice } = String.prototype;
  function toString() {
    if (this === toString) return `function toString() ${BUN_NATIVE}`;
    const text = Reflect.apply(nativeToString, this, []);
    if (!Reflect.apply(endsWith, text, [QUICKJS_NATIVE])) return text;
    return `${Reflect.apply(slice, text, [0, text.length - QUICKJS_NATIVE.length])}${BUN_NATIVE}`;
  }
  Object.defineProperty(FunctionPrototype, "toString", { value: toString, writable: true, configurable: true, enumerable: false });
}

/**
 * Turns the bootstrapped deno_core global into the mod sandbox.
 * Returns the deno_core handle, which only the host keeps.
 */
export function installSandbox(global) {
  const core = global.Deno.core;
  installCallMod(core);
  installNativeToString(global);
  global.Error.prepareStackTrace = prepareStackTrace;
  global.Date = VirtualDate;
  Math.random = seededRandom;
  global.console = makeConsole();
  global.structuredClone = structuredCloneValue;
  installAbort(global);
  global.setTimeout = (fn, delay, ...args) => addTimer(fn, delay, args, false);
  global.setInterval = (fn, delay, ...args) => addTimer(fn, delay, args, true);
  global.clearTimeout = clearModTimer;
  global.clearInterval = clearModTimer;
  global.setImmediate = (fn, ...args) => addTimer(fn, 0, args, false, PHASE.immediate);
  global.clearImmediate = clearModTimer;
  delete global.Deno;
  delete global.__bootstrap;
  installHostTraps(global);
  return core;
}
