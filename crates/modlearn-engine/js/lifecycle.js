// Lifecycle checks: what a mod leaves behind after dispose (timers, pending
// promises, globals, registrations its disposer did not remove), and the
// host controls those checks need (run the clock after dispose, move the
// clock, reseed Math.random, switch the conversation tool runs belong to).
//
// Pending work is found by tagging every promise mod code makes through the
// global `Promise` (`new Promise`, `new (Promise[Symbol.species])`, and the
// statics such as `Promise.withResolvers` or `Promise.race([])`) with its
// owner, and asking the engine for each one's real state when the leftovers
// are read: a promise resolved with a thenable that never settles is still
// pending. Promises `.then` derives and those the engine makes itself (async
// functions' results, `await`) are not counted; pending work nearly always
// bottoms out in a tagged one (a sleep on a timer, a deferred that an event
// should resolve), so a mod whose async loop outlives dispose shows up as the
// promise it is waiting on.

import { clock, hostCollections, hostSettings, pendingTimers, advanceClock, seedRandom } from "./platform.js";
import { EVENT_CAPABILITY } from "./capabilities.js";
import { cloneCapabilities } from "./capabilities.js";
import { eventCounts } from "./registry.js";
import { abortListenerCount, isAborted, signalOf } from "./abort.js";
import { deferred, machineChanges } from "./world.js";
import { trackedStatic } from "./promise-statics.js";

/**
 * The global object, taken while the host starts: `globalThis` is a global
 * property like any other, which a mod can point at an object of its own.
 */
const GLOBAL = globalThis;

/**
 * Promises made while mod code ran, each with its owner and creation time; the
 * settled ones are dropped now and then, and never counted.
 */
export const promiseTracker = { pending: new Set(), currentOwner: () => null, prunedAt: 0 };

/** Tracked promises past which the settled ones are dropped (then again at twice as many). */
const PRUNE_FROM = 1024;

/**
 * The engine's own view of a promise: 0 pending, 1 fulfilled, 2 rejected (deno_core's
 * `getPromiseDetails`, handed over by the host like `isProxy`). Until then, all pending.
 */
let promiseState = () => 0;

function track(promise, owner, engineMade = false) {
  const known = trackedPromises.get(promise);
  if (known !== undefined) {
    // A static's result the hook saw first is still one the mod asked for.
    if (!engineMade) known.engineMade = false;
    return;
  }
  const record = { owner, createdAt: clock.now, promise, engineMade };
  trackedPromises.set(promise, record);
  const pending = promiseTracker.pending;
  pending.add(record);
  if (pending.size >= Math.max(PRUNE_FROM, promiseTracker.prunedAt * 2)) {
    for (const record of pending) if (promiseState(record.promise) !== 0) pending.delete(record);
    promiseTracker.prunedAt = pending.size;
  }
}

/** Every promise recorded, with its record, so that no route records one twice. */
const trackedPromises = new WeakMap();

/**
 * Set by the tracking constructor just before the engine makes its promise: the engine tells
 * the hook of that promise first (before the executor runs), and the constructor records it
 * itself. Promises the executor's own code makes are the hook's again.
 */
let constructorsPromiseNext = false;
/** The promise the hook left to the constructor, so the constructor can check it was its own. */
let leftToConstructor = null;

/** Function.prototype.toString as the engine has it, before the sandbox dresses host functions. */
const engineSource = Function.prototype.call.bind(Function.prototype.toString);

/**
 * Whether `executor` is the engine's own (the one `.then` and the statics hand a species
 * constructor): native, nameless, of two parameters, and no proxy that could say so.
 */
function isEngineExecutor(executor) {
  return !isProxy(executor) && executor.length === 2 && executor.name === "" && engineSource(executor) === "function () {\n    [native code]\n}";
}

/**
 * Replaces `global.Promise` with a constructor that records which owner made
 * each promise (when `fromModCode()` says mod code made it). Its species is
 * itself and its statics record what they make, so no route hands out the
 * untracked constructor and `Promise.withResolvers()` or `Promise.race([])` are
 * seen. Promises `.then` derives (through the species, with the engine's own
 * executor) are not counted: they wait on one that is. Instances are ordinary
 * promises (same prototype, `instanceof`), so mods and the host see no
 * difference. The host's own code keeps the engine's constructor (what this
 * returns): with a mod's owner current, every promise made here costs a stack.
 */
export function installPromiseTracking(global, currentOwner, fromModCode) {
  const RealPromise = global.Promise;
  promiseTracker.currentOwner = currentOwner;
  const modOwner = () => {
    const owner = promiseTracker.currentOwner();
    return owner !== null && owner !== undefined && fromModCode() ? owner : null;
  };
  function Promise(executor) {
    if (new.target === undefined) throw new TypeError("Promise constructor cannot be invoked without 'new'");
    // Reflect.construct keeps subclasses (`class P extends Promise`) working. The owner
    // lookup is cheap and the stack capture in `fromModCode` is not, so the stack is only
    // captured when a mod could own the promise.
    // With what looks like the engine's executor, the engine's hook decides: it knows a
    // derived promise by its parent, which a look-alike (a renamed bound function) lacks.
    if (typeof executor === "function" && isEngineExecutor(executor)) return Reflect.construct(RealPromise, [executor], new.target);
    const owner = typeof executor === "function" ? modOwner() : null;
    const outer = leftToConstructor;
    leftToConstructor = null;
    constructorsPromiseNext = true;
    let promise;
    let left;
    try {
      promise = Reflect.construct(RealPromise, [executor], new.target);
    } finally {
      constructorsPromiseNext = false;
      left = leftToConstructor;
      leftToConstructor = outer;
    }
    // Mod code can run before the engine makes the constructor's promise (a `new.target`
    // whose `prototype` is a getter): a promise it made there was left to the constructor
    // by mistake, and gets the hook's own judgement now.
    if (left !== null && left !== promise) enginePromiseHook.init(left, undefined);
    if (owner !== null) track(promise, owner);
    return promise;
  }
  Promise.prototype = RealPromise.prototype;
  // The prototype keeps the engine's constructor: an `await` of a promise whose constructor
  // is not the engine's is an `await` of a thenable, two jobs slower than in Bun, and mods
  // race the host's reads by such jobs. What the engine constructor makes, the hook sees.
  for (const key of Reflect.ownKeys(RealPromise)) {
    if (key === "prototype" || key === "length" || key === "name" || key === Symbol.species) continue;
    const descriptor = Object.getOwnPropertyDescriptor(RealPromise, key);
    if (typeof descriptor.value === "function") descriptor.value = trackedStatic(descriptor.value, recordStatic(RealPromise, modOwner), Promise, RealPromise);
    Object.defineProperty(Promise, key, descriptor);
  }
  Object.defineProperty(Promise, Symbol.species, { get: () => Promise, configurable: true });
  global.Promise = Promise;
  enginePromiseHook.fromModCode = fromModCode;
  enginePromiseHook.engine = RealPromise;
  enginePromiseHook.species = Reflect.getOwnPropertyDescriptor(RealPromise, Symbol.species)?.get;
  return RealPromise;
}

/**
 * How many promises the engine makes itself (each async function call makes one) the hook
 * asks the stack about, per engine. A read walks the backend's frame list (2 to 7 µs), and
 * each promise it finds the mod's is kept until it settles: unbounded, 50,000 awaits of an
 * async helper cost a good mod about 0.35 s of its budget and 200,000 ran it out of memory.
 * Past this many the hook stops (a mod that first makes this many, then one that never
 * settles, goes unseen: tests/cli/fixtures/open-holes).
 */
const HOOK_READS = 20_000;

/**
 * The engine's promise hook (deno_core's `setPromiseHooks`), for the promises the engine makes
 * without any constructor: an async function's, an async generator's step. One that never
 * settles (an async function awaiting itself, or a thenable that never calls back) is as
 * pending as `new Promise(() => {})`. Derived promises (a parent is given: `.then`'s) wait
 * on one that is recorded, as in the constructor.
 */
export const enginePromiseHook = {
  fromModCode: () => false,
  /** The engine's constructor and its species getter, as installed (see `ordinaryDerivation`). */
  engine: null,
  species: undefined,
  /** Stack reads left to the hook in this engine (see HOOK_READS). */
  readsLeft: HOOK_READS,
  init(promise, parent) {
    if (constructorsPromiseNext) {
      constructorsPromiseNext = false;
      leftToConstructor = promise;
      return;
    }
    if ((parent !== undefined && ordinaryDerivation(parent)) || enginePromiseHook.readsLeft <= 0) return;
    // The owner lookup is free; the read of the stack that follows is what the budget counts.
    const owner = promiseTracker.currentOwner();
    if (owner === null || owner === undefined) return;
    enginePromiseHook.readsLeft--;
    if (enginePromiseHook.fromModCode()) track(promise, owner, true);
  },
};

/**
 * Whether a promise the engine says `parent` derived is what `.then` makes with the engine's own
 * species. The engine names a parent for every promise made while `.then` builds its result,
 * so one a species constructor of the mod's made (`{ [Symbol.species]: S }` as a promise's
 * `constructor`, or a subclass's) would pass as derived: such a derivation is read as the
 * stack says. Descriptor reads and prototype lookups run no code of the mod's.
 */
function ordinaryDerivation(parent) {
  const { engine, species } = enginePromiseHook;
  if (engine === null) return true;
  if (Reflect.getPrototypeOf(parent) !== engine.prototype || Object.hasOwn(parent, "constructor")) return false;
  const constructor = Reflect.getOwnPropertyDescriptor(engine.prototype, "constructor");
  return constructor?.value === engine && Reflect.getOwnPropertyDescriptor(engine, Symbol.species)?.get === species;
}

/**
 * Records a promise a static of Promise made (`withResolvers`' too), for mod code: through the
 * tracking constructor, which leaves the engine's executor alone, it is recorded here, once,
 * and Promise.resolve(p) is p itself, as in Bun.
 */
function recordStatic(RealPromise, modOwner) {
  return (promise) => {
    // A constructor of the mod's may answer a proxy, which the engine cannot ask for a state.
    if (typeof promise === "object" && promise !== null && !isProxy(promise) && promise instanceof RealPromise && promiseState(promise) === 0) {
      const owner = modOwner();
      if (owner !== null) track(promise, owner);
    }
  };
}

/** The global object's own properties when the host finished setting up (`baselineOf`). */
let baselineGlobals = null;

/**
 * Host objects every load generation shares besides the global object, with
 * their own properties when shared (`baselineOf`): state a mod hangs on `process` or on a
 * virtual package's export outlives a reload exactly as a global does, and so does state it
 * puts into what they held already (`process.argv.push(...)`, `process.title += "+"`).
 */
const sharedObjects = new Map();
/** The objects in sharedObjects, each watched under its first name only. */
const watched = new Set();

/** An own data property's value, read without calling a getter. */
const ownValue = (object, key) => Reflect.getOwnPropertyDescriptor(object, key)?.value;

/** Counts keys later added to `object` as globals named `<name>.<key>`. */
export function shareObject(name, object) {
  if (sharedObjects.has(name) || object === null || (typeof object !== "object" && typeof object !== "function")) return;
  // One that takes no keys cannot grow; one shared already is watched under its first name.
  if (!Object.isExtensible(object) || watched.has(object)) return;
  watched.add(object);
  sharedObjects.set(name, { object, baseline: baselineOf(object) });
}

/**
 * Each own property of `object`: its value (a data property's; undefined for an accessor,
 * whose getter is not called) and, for a collection, how many entries it held.
 */
function baselineOf(object) {
  const baseline = new Map();
  for (const key of Reflect.ownKeys(object)) {
    const value = ownValue(object, key);
    baseline.set(key, { value, entries: entryCount(value) });
  }
  return baseline;
}

/**
 * Whether `value` (not one of the engine's promises) is a thenable, told from its `then`
 * without running mod code: a getter or a proxy there counts as one.
 */
export function looksThenable(value) {
  for (let object = value; object !== null && (typeof object === "object" || typeof object === "function"); object = Reflect.getPrototypeOf(object)) {
    if (isProxy(object)) return true;
    const then = Reflect.getOwnPropertyDescriptor(object, "then");
    if (then !== undefined) return typeof then.value === "function" || then.get !== undefined;
  }
  return false;
}

/**
 * How many entries a collection holds (a map's or set's, an array's elements, an object's own
 * properties), read without running mod code; undefined for anything else. Functions are left
 * out: one a host object holds is watched for added keys itself (`shareWithMembers`).
 */
function entryCount(value) {
  if (value === null || typeof value !== "object" || isProxy(value)) return undefined;
  const size = slotSize(MAP_SIZE, value) ?? slotSize(SET_SIZE, value) ?? 0;
  return size + Reflect.ownKeys(value).length;
}

/**
 * Remembers the global object's keys; later additions are the mod's. So are keys added to
 * the built-ins a mod can still extend (`Date.loads`, `URL.prototype.cache`, `Intl.x`) and to
 * the Node built-ins' exports (`require("node:fs").loads`), which every load generation
 * shares: state hung there outlives a reload exactly as a global does.
 */
export function recordGlobalBaseline(global, builtinModules = {}, samples = []) {
  baselineGlobals = baselineOf(global);
  shareObject("process", global.process);
  shareObject("console", global.console);
  for (const key of baselineGlobals.keys()) {
    const value = ownValue(global, key);
    if (value !== global) shareWithMembers(keyName(key), value);
  }
  for (const [name, exported] of Object.entries(builtinModules)) shareWithMembers(`node:${name}`, exported);
  // What the prototypes above inherit from, then prototypes only an instance leads to (an
  // iterator's, a stream's state): after the names above, so that an object a global leads to
  // is reported under the global's name.
  for (const [name, prototype] of chainsToShare.splice(0)) shareChain(name, prototype);
  for (const [name, instance] of samples) shareChain(`Object.getPrototypeOf(${name})`, Object.getPrototypeOf(instance));
  for (const watched of hostCollections) watched.baseline = heldSize(typeof watched.collection === "function" ? watched.collection() : watched.collection);
}

/** Prototypes `shareWithMembers` met, whose chains are shared once every name is. */
const chainsToShare = [];

/** Shares `value`, its prototype, and each function it holds with that one's prototype. */
function shareWithMembers(name, value) {
  if (value === null || (typeof value !== "object" && typeof value !== "function")) return;
  shareObject(name, value);
  shareObject(`${name}.prototype`, ownValue(value, "prototype"));
  chainsToShare.push([`${name}.prototype`, ownValue(value, "prototype")]);
  for (const member of Reflect.ownKeys(value)) {
    const held = ownValue(value, member);
    if (typeof held !== "function" || member === "constructor") continue;
    shareObject(`${name}.${keyName(member)}`, held);
    shareObject(`${name}.${keyName(member)}.prototype`, ownValue(held, "prototype"));
    chainsToShare.push([`${name}.${keyName(member)}.prototype`, ownValue(held, "prototype")]);
  }
}

/** How far up a prototype chain the host's own prototypes go (a class's bases, %IteratorPrototype%). */
const CHAIN_DEPTH = 6;

/** Shares `prototype` and the prototypes it inherits from. */
function shareChain(name, prototype) {
  for (let depth = 0; depth < CHAIN_DEPTH && prototype !== null && typeof prototype === "object"; depth++) {
    shareObject(depth === 0 ? name : `${name}${".[[Prototype]]".repeat(depth)}`, prototype);
    prototype = Object.getPrototypeOf(prototype);
  }
}

function keyName(key) {
  return typeof key === "symbol" ? `Symbol(${key.description ?? ""})` : key;
}

/**
 * Tells a proxy apart without running its traps (deno_core's `core.isProxy`). Until the host
 * hands it over, everything is taken for one.
 */
let isProxy = () => true;

/** Takes the engine's own reads this module needs from deno_core's handle, before any mod loads. */
export function useCore(core) {
  const { isProxy: proxyCheck, getPromiseDetails } = core;
  isProxy = proxyCheck;
  promiseState = (promise) => getPromiseDetails(promise)[0];
}

const MAP_SIZE = Object.getOwnPropertyDescriptor(Map.prototype, "size").get;
const SET_SIZE = Object.getOwnPropertyDescriptor(Set.prototype, "size").get;

/** `value`'s size through a built-in getter, or undefined when `value` lacks its internal slot. */
function slotSize(getter, value) {
  try {
    return Reflect.apply(getter, value, []);
  } catch {
    return undefined;
  }
}

/** An ArrayBuffer's size: a resizable one grows without any key. */
const BUFFER_BYTES = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;

const MAP_FOR_EACH = Map.prototype.forEach;
const SET_FOR_EACH = Set.prototype.forEach;

const ARRAY_SHAPE = new Set(["length"]);
const FUNCTION_SHAPE = new Set(["length", "name", "prototype", "arguments", "caller"]);

/** Most values one size reads, and how deep: state past them is not weighed. */
const SIZE_NODES = 10000;
const SIZE_DEPTH = 8;

/**
 * What `value` holds directly: how many entries (a map's or set's, an array's elements, an
 * object's own properties) and the values in them, read without running mod code: a proxy
 * holds nothing it shows, a getter is not called.
 */
function held(value) {
  const children = [];
  let count = 0;
  if (slotSize(MAP_SIZE, value) !== undefined) {
    Reflect.apply(MAP_FOR_EACH, value, [(item, key) => children.push(key, item)]);
    count += children.length / 2;
  } else if (slotSize(SET_SIZE, value) !== undefined) {
    Reflect.apply(SET_FOR_EACH, value, [(item) => children.push(item)]);
    count += children.length;
  }
  count += slotSize(BUFFER_BYTES, value) ?? 0;
  // An array's length, and what every function owns from birth, are shape, not state.
  const shape = Array.isArray(value) ? ARRAY_SHAPE : typeof value === "function" ? FUNCTION_SHAPE : null;
  for (const key of Reflect.ownKeys(value)) {
    if (shape !== null && shape.has(key)) continue;
    count++;
    children.push(ownValue(value, key));
  }
  return { count, children };
}

/**
 * How much `value` holds, all the way down: the entries of every object, array, map and set
 * it reaches (each once), so `globalThis.state = { loads: [] }` grows as its list grows.
 */
function heldSize(value) {
  const seen = new Set();
  const queue = [[value, 0]];
  let size = 0;
  for (let next = 0; next < queue.length && seen.size < SIZE_NODES; next++) {
    const [item, depth] = queue[next];
    if (item === null || (typeof item !== "object" && typeof item !== "function") || seen.has(item) || isProxy(item)) continue;
    seen.add(item);
    const { count, children } = held(item);
    size += count;
    if (depth < SIZE_DEPTH) for (const child of children) queue.push([child, depth + 1]);
  }
  return size;
}

/**
 * A value's kind and a size that grows when state accumulates (entries held all the way
 * down, lengths, numbers), read without running mod code: no proxy trap, no getter a
 * subclass defines, no `instanceof` walk. Mod code run here could schedule the very timers
 * this read is counting, after they were counted.
 */
function summarize(value) {
  if (value === null) return { type: "null", size: 0 };
  if ((typeof value === "object" || typeof value === "function") && isProxy(value)) return { type: "proxy", size: 0 };
  if (Array.isArray(value)) return { type: "array", size: heldSize(value) };
  if (slotSize(MAP_SIZE, value) !== undefined) return { type: "map", size: heldSize(value) };
  if (slotSize(SET_SIZE, value) !== undefined) return { type: "set", size: heldSize(value) };
  switch (typeof value) {
    case "number":
      // NaN and the infinities have no JSON form: their kind says which.
      return Number.isFinite(value) ? { type: "number", size: value } : { type: `number ${value}`, size: 0 };
    case "string":
      return { type: "string", size: value.length };
    case "object":
    case "function":
      return { type: typeof value, size: heldSize(value) };
    default:
      return { type: typeof value, size: 0 };
  }
}

/**
 * Own properties of `object` that are not as `baseline` has them, named and summarised: keys
 * added since, values replaced since, and collections whose number of entries changed.
 */
function changedKeys(object, baseline, prefix) {
  const changed = [];
  for (const key of Reflect.ownKeys(object)) {
    let value;
    try {
      value = Object.getOwnPropertyDescriptor(object, key)?.value;
    } catch {
      value = undefined;
    }
    const before = baseline.get(key);
    // A watched object's keys are listed one by one, and the global object holds itself.
    const counted = !watched.has(value) && value !== object;
    if (before !== undefined && Object.is(value, before.value) && (!counted || entryCount(value) === before.entries)) continue;
    // An array's length is shape: the elements added are listed themselves.
    if (before !== undefined && key === "length" && Array.isArray(object)) continue;
    changed.push({ name: `${prefix}${keyName(key)}`, ...summarize(value) });
  }
  return changed;
}

/**
 * Globals the mod added or changed (and keys it added or changed on shared host objects),
 * each with a size summary, with the host settings mods changed (platform.js `watchSetting`)
 * and `machine`: what mods changed of the virtual machine (world.js `machineChanges`).
 */
export function modGlobals(global, machine = []) {
  const changed = [...changedKeys(global, baselineGlobals ?? new Map(), ""), ...machine];
  for (const { name, collection, baseline } of hostCollections) {
    const size = heldSize(typeof collection === "function" ? collection() : collection);
    if (size !== baseline) changed.push({ name, type: "collection", size });
  }
  for (const { name, read, baseline } of hostSettings) {
    const value = read();
    if (!Object.is(value, baseline)) changed.push({ name, ...summarize(value) });
  }
  for (const [name, { object, baseline }] of sharedObjects) changed.push(...changedKeys(object, baseline, `${name}.`));
  return changed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Timers of mods still scheduled (any generation), oldest first. */
export function modTimers() {
  // A host timer made for a mod (AbortSignal.timeout's) is none the mod can clear, and keeps
  // nothing alive in Node or Bun: a leak only while firing it would run listeners of the signal.
  return pendingTimers()
    .filter((timer) => timer.owner !== null && timer.owner !== undefined && (!timer.host || abortListenerCount(timer.signal) > 0))
    .sort((a, b) => a.seq - b.seq)
    .map((timer) => ({
      kind: timer.interval === null ? "timeout" : "interval",
      everyMs: timer.interval,
      dueInMs: Math.max(0, timer.due - clock.now),
      mod: timer.owner.id,
      generation: timer.owner.generation,
    }));
}

/**
 * Promises mod code made that are still pending, by the engine's own account. Those the engine
 * made itself (an async function's) usually wait on one the mod constructed, so they count
 * only for a load that left none of its own: then one of them is where the wait began.
 */
export function modPendingPromises() {
  const pending = [...promiseTracker.pending].filter((record) => record.owner && record.owner.id !== undefined && promiseState(record.promise) === 0);
  const constructedBy = new Set(pending.filter((record) => !record.engineMade).map((record) => record.owner));
  return pending
    .filter((record) => !record.engineMade || !constructedBy.has(record.owner))
    .map((record) => ({ mod: record.owner.id, generation: record.owner.generation, ageMs: clock.now - record.createdAt }));
}

/** What a registry holds, per kind, in a stable order (names only). */
export function registrations(registry) {
  const sorted = (values) => [...values].sort();
  return {
    events: eventCounts(registry, { zeros: false }),
    tools: sorted([...registry.tools.values()].map((tool) => tool.name)),
    commands: sorted([...registry.commands.values()].map((command) => command.id)),
    permissions: sorted([...registry.permissions.values()].map((permission) => permission.id)),
    providers: sorted([...registry.providers.values()].map((provider) => provider.name)),
    panels: sorted([...registry.panels.values()].map((panel) => panel.id)),
  };
}

/**
 * Wraps the dispose operation: remembers the signals the mods were handed,
 * and reports what the disposers left registered before the host sweeps
 * the registry (Letta's host removes those itself; a mod that cleans up
 * after itself leaves nothing).
 */
export function checkedDispose(DisposeOperation) {
  return class CheckedDisposeOperation extends DisposeOperation {
    constructor(host) {
      const signals = Object.entries(host.registry.controllers).map(([mod, controller]) => ({ mod, signal: signalOf(controller) }));
      // Counted before the aborts, whose listeners may already fail.
      const diagnosticsBefore = host.diagnosticsMark();
      super(host);
      this.signals = signals;
      this.diagnosticsBefore = diagnosticsBefore;
    }

    finish() {
      const registry = this.host.registry;
      // A DSH plugin's registrations live in DSH's services: read them after its fiber's dispose.
      this.host.dshApi?.syncRegistry(this.host);
      this.host.piApi?.syncRegistry(this.host);
      const left = registrations(registry);
      const result = super.finish();
      return {
        ...result,
        left,
        signals: this.signals.map(({ mod, signal }) => ({ mod, aborted: isAborted(signal) })),
        diagnostics: this.host.diagnosticsSince(this.diagnosticsBefore),
      };
    }
  };
}

/** Most timer firings one settle runs (an interval fires at most this often). */
export const SETTLE_STEPS = 64;

/**
 * Runs the virtual clock for `windowMs` after a dispose, one timer per step
 * (each under the step budget), so that whatever the mod left running gets
 * the chance to show itself.
 */
export class SettleOperation {
  constructor(host, { windowMs = 60000 }) {
    this.host = host;
    this.until = clock.now + Math.max(0, Number(windowMs) || 0);
    this.firings = 0;
    this.diagnosticsBefore = host.diagnosticsMark();
  }

  stepCount() {
    return SETTLE_STEPS;
  }

  async step() {
    const next = pendingTimers().reduce((soonest, timer) => (soonest === null || timer.due < soonest ? timer.due : soonest), null);
    if (next === null || next > this.until) return;
    const previous = this.host.phase;
    this.host.phase = "timer";
    try {
      if (advanceClock()) this.firings++;
    } finally {
      this.host.phase = previous;
    }
  }

  fail(_index, error, fault) {
    this.host.record({ owner: this.host.lastOwner, phase: "timer", error, fault });
  }

  finish() {
    return { firings: this.firings, diagnostics: this.host.diagnosticsSince(this.diagnosticsBefore) };
  }
}

/**
 * What is left after a dispose: timers, pending promises, globals, listeners on `process` and
 * its streams, and subscriptions of candidates no longer loaded (Pi's `pi.events`, DSH's root
 * listeners and plugins). No mod code runs.
 */
export class LeaksOperation {
  constructor(host) {
    this.host = host;
  }
  stepCount() {
    return 0;
  }
  finish() {
    const subscriptions = [...(this.host.piApi?.strandedSubscriptions(this.host) ?? []), ...(this.host.dshApi?.strandedEffects(this.host) ?? [])];
    const globals = modGlobals(GLOBAL, machineChanges());
    // Timers and promises last, after every other read.
    return { timers: modTimers(), promises: modPendingPromises(), globals, subscriptions, listeners: deferred.listeners() };
  }
}

/**
 * Host controls between generations. Arguments (each optional): `advanceMs`
 * moves the virtual clock on without firing timers; `seed` reseeds
 * Math.random; `conversationId` makes later tool and command runs belong to
 * that conversation (ctx.sessionId and ctx.conversation.id).
 */
export class ControlOperation {
  constructor(host, { advanceMs, seed, conversationId }) {
    this.host = host;
    if (advanceMs !== undefined) clock.now += Math.max(0, Number(advanceMs) || 0);
    if (seed !== undefined) seedRandom(seed);
    if (conversationId !== undefined) this.host.baseContext = { ...this.host.baseContext, sessionId: conversationId };
  }
  stepCount() {
    return 0;
  }
  finish() {
    return { now: clock.now, profile: this.host.profile };
  }
}

/** The capability profile in force, and which events each flag gates. */
export class CapabilitiesOperation {
  constructor(host) {
    this.host = host;
  }
  stepCount() {
    return 0;
  }
  finish() {
    const capabilities = cloneCapabilities(this.host.capabilities);
    const events = Object.keys(EVENT_CAPABILITY).filter((name) => capabilities.events[EVENT_CAPABILITY[name]]);
    return { profile: this.host.profile, capabilities, events };
  }
}
