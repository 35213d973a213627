// Lifecycle support: promise tracking per owner, the globals a mod added,
// the timers it left, and the checked dispose's report.
import { test, assertEqual, assert } from "./harness.js";
import {
  installPromiseTracking, promiseTracker, modGlobals, recordGlobalBaseline, modTimers, registrations, checkedDispose, useCore, modPendingPromises,
} from "../lifecycle.js";
import { clock } from "../platform.js";
import { createRegistry } from "../registry.js";
import { AbortController, abortHooks } from "../abort.js";

const RealPromise = globalThis.Promise;

function trackedGlobal(owner, fromMod = () => true) {
  const fake = { Promise: RealPromise };
  installPromiseTracking(fake, () => owner.current, fromMod);
  return fake;
}

test("promises mod code makes are tracked while the engine says they are pending", async () => {
  useCore(globalThis.Deno.core);
  promiseTracker.pending.clear();
  // Mod code runs only inside `asMod`; what the test's own awaits derive is the host's.
  let inMod = false;
  const asMod = (body) => {
    inMod = true;
    try {
      return body();
    } finally {
      inMod = false;
    }
  };
  const { Promise: Tracked } = trackedGlobal({ current: { id: "global:/m.js", generation: 1 } }, () => inMod);
  const pending = () => modPendingPromises().length;
  {
    let resolveIt;
    const { waiting, derived } = asMod(() => {
      const waiting = new Tracked((resolve) => {
        resolveIt = resolve;
      });
      const rejected = new Tracked((_resolve, reject) => reject(new Error("no")));
      rejected.catch(() => {});
      return { waiting, derived: waiting.then((value) => value) };
    });
    await null;
    assertEqual(pending(), 1, "the rejected one is done; what .then derives waits on the waiting one, counted once");
    assert(waiting instanceof Tracked && waiting instanceof globalThis.Promise, "an ordinary promise");
    class Sub extends Tracked {}
    const sub = asMod(() => new Sub((resolve) => resolve(2)));
    assert(sub instanceof Sub, "subclasses keep their prototype");
    assertEqual(await sub, 2);
    assertEqual(await asMod(() => Tracked.resolve(3)), 3);
    assert(Tracked.resolve(waiting) === waiting, "a promise of the constructor's own is passed through, as in Bun");
    assertEqual(pending(), 1, "settled ones are not counted");
    resolveIt(1);
    assertEqual(await derived, 1);
    assertEqual(pending(), 0);
    // An `await` takes a promise whose constructor is the engine's in one job, as in Bun.
    assert(waiting.constructor === RealPromise, "promises keep the engine's constructor");
  }
});

test("no route to a promise hides it: species, statics, a thenable that never settles", () => {
  useCore(globalThis.Deno.core);
  promiseTracker.pending.clear();
  const { Promise: Tracked } = trackedGlobal({ current: { id: "global:/m.js", generation: 1 } });
  assert(Tracked[Symbol.species] === Tracked, "the species is the tracking constructor");
  new (Tracked[Symbol.species])(() => {});
  Tracked.withResolvers();
  Tracked.race([]);
  new Tracked((resolve) => resolve({ then() {} }));
  assertEqual(modPendingPromises().length, 4);
});

test("a static asked to build through a constructor that answers a proxy still answers", () => {
  useCore(globalThis.Deno.core);
  const { Promise: Tracked } = trackedGlobal({ current: { id: "global:/m.js", generation: 1 } });
  function Proxied(executor) {
    return new Proxy(new RealPromise(executor), {});
  }
  const made = Tracked.resolve.call(Proxied, 1);
  assert(globalThis.Deno.core.isProxy(made), "the constructor's own answer, as in Bun");
});

test("settled promises are dropped as the tracked ones grow", async () => {
  useCore(globalThis.Deno.core);
  promiseTracker.pending.clear();
  promiseTracker.prunedAt = 0;
  const { Promise: Tracked } = trackedGlobal({ current: { id: "global:/m.js", generation: 1 } });
  new Tracked(() => {});
  for (let i = 0; i < 3000; i++) new Tracked((resolve) => resolve(i));
  assert(promiseTracker.pending.size < 1100, `${promiseTracker.pending.size} records kept`);
  assertEqual(modPendingPromises().length, 1);
});

test("the host's own promises and those made with no owner are not tracked", () => {
  promiseTracker.pending.clear();
  const { Promise: FromHost } = trackedGlobal({ current: { id: "m" } }, () => false);
  new FromHost(() => {});
  const { Promise: NoOwner } = trackedGlobal({ current: null });
  new NoOwner(() => {});
  assertEqual(promiseTracker.pending.size, 0);
});

test("globals a mod adds are listed with sizes that grow with state", () => {
  useCore(globalThis.Deno.core);
  const fake = { keep: 1 };
  recordGlobalBaseline(fake);
  fake.list = [1, 2, 3];
  fake.count = 4;
  fake.map = new Map([["a", 1]]);
  fake[Symbol.for("mod.state")] = { a: 1, b: 2 };
  assertEqual(modGlobals(fake), [
    { name: "Symbol(mod.state)", type: "object", size: 2 },
    { name: "count", type: "number", size: 4 },
    { name: "list", type: "array", size: 3 },
    { name: "map", type: "map", size: 1 },
  ]);
});

test("values a mod replaced or filled on what the host held are listed too", () => {
  useCore(globalThis.Deno.core);
  const log = () => {};
  const proc = { argv: ["bun", "mod"], title: "bun", env: { HOME: "/home" } };
  const fake = { proc, log, same: "x" };
  recordGlobalBaseline(fake);
  try {
    proc.argv.push("--load");
    proc.title += "+";
    proc.env.HOME = "/elsewhere";
    fake.log = () => log();
    fake.same = "x";
    // `proc`, a global's value, is watched key by key; what it holds is weighed by its entries
    // (a value changed in place, `env.HOME`, is not seen).
    assertEqual(modGlobals(fake), [
      { name: "log", type: "function", size: 0 },
      { name: "proc.argv", type: "array", size: 3 },
      { name: "proc.title", type: "string", size: 4 },
    ]);
  } finally {
    // The watch outlives this test (as it outlives a load in an engine): leave nothing changed.
    proc.argv.pop();
    proc.title = "bun";
    proc.env.HOME = "/home";
  }
});

test("a global's size counts what it holds all the way down", () => {
  useCore(globalThis.Deno.core);
  const fake = {};
  recordGlobalBaseline(fake);
  const loads = [1, 2];
  fake.state = { loads, again: loads };
  function counter() {}
  counter.calls = [1];
  fake.counter = counter;
  const cyclic = { items: new Map([["a", [1, 2, 3]]]) };
  cyclic.self = cyclic;
  fake.cyclic = cyclic;
  const sizes = Object.fromEntries(modGlobals(fake).map(({ name, type, size }) => [name, [type, size]]));
  // What a function owns from birth (length, name, prototype) is not counted; its calls are.
  assertEqual(sizes, { counter: ["function", 1 + 1], cyclic: ["object", 2 + 1 + 3], state: ["object", 2 + 2] });
});

test("reading a global's size runs none of the mod's code", () => {
  useCore(globalThis.Deno.core);
  const ran = [];
  const fake = {};
  recordGlobalBaseline(fake);
  class QuietMap extends Map {
    get size() {
      ran.push("size getter");
      return 0;
    }
  }
  fake.quiet = new QuietMap([["a", 1], ["b", 2]]);
  fake.set = new Set([1, 2, 3]);
  fake.trap = new Proxy([1, 2], {
    get(target, key) {
      ran.push(`get ${String(key)}`);
      return Reflect.get(target, key);
    },
    getPrototypeOf(target) {
      ran.push("getPrototypeOf");
      return Reflect.getPrototypeOf(target);
    },
  });
  assertEqual(modGlobals(fake), [
    { name: "quiet", type: "map", size: 2 },
    { name: "set", type: "set", size: 3 },
    { name: "trap", type: "proxy", size: 0 },
  ]);
  assertEqual(ran, []);
});

test("timers of mods are reported with kind, period and time left; host timers are not", () => {
  const saved = new Map(clock.timers);
  clock.timers.clear();
  const owner = { id: "global:/m.js", generation: 2 };
  clock.timers.set(1, { id: 1, due: clock.now + 1000, seq: 1, fn() {}, args: [], interval: 1000, owner });
  clock.timers.set(2, { id: 2, due: clock.now + 250, seq: 2, fn() {}, args: [], interval: null, owner });
  clock.timers.set(3, { id: 3, due: clock.now + 5, seq: 3, fn() {}, args: [], interval: null, owner: null });
  assertEqual(modTimers(), [
    { kind: "interval", everyMs: 1000, dueInMs: 1000, mod: "global:/m.js", generation: 2 },
    { kind: "timeout", everyMs: null, dueInMs: 250, mod: "global:/m.js", generation: 2 },
  ]);
  clock.timers.clear();
  for (const [id, timer] of saved) clock.timers.set(id, timer);
});

test("a checked dispose reports what the disposers left and whether signals aborted", () => {
  const registry = createRegistry(1);
  const owner = { id: "global:/m.js" };
  const controller = new AbortController();
  registry.controllers[owner.id] = controller;
  registry.events.turn_start.push({ owner, handler() {} }, { owner, handler() {} });
  registry.tools.set("b", { name: "b", owner });
  registry.tools.set("a", { name: "a", owner });
  registry.disposers.push({ owner, disposer: () => registry.tools.delete("b") });
  class FakeDispose {
    constructor(host) {
      this.host = host;
      for (const c of Object.values(host.registry.controllers)) c.abort("mod disposed");
      host.registry.disposers.forEach(({ disposer }) => disposer());
    }
    finish() {
      this.host.registry.tools.clear();
      return { disposed: 1, threw: [] };
    }
  }
  const Checked = checkedDispose(FakeDispose);
  const report = new Checked({ registry, diagnosticsMark: () => 0, diagnosticsSince: () => [] }).finish();
  assertEqual(report.left, { events: { turn_start: 2 }, tools: ["a"], commands: [], permissions: [], providers: [], panels: [] });
  assertEqual(report.signals, [{ mod: "global:/m.js", aborted: true }]);
  assertEqual(registrations(registry).tools, [], "then the host swept it");
});

test("a throwing abort listener is reported and does not stop abort() or the other listeners", () => {
  const reported = [];
  const saved = abortHooks.onListenerError;
  abortHooks.onListenerError = (error, reason) => reported.push([error.message, reason]);
  try {
    const controller = new AbortController();
    let later = false;
    controller.signal.addEventListener("abort", () => {
      throw new Error("listener boom");
    });
    controller.signal.addEventListener("abort", () => {
      later = true;
    });
    controller.abort("mod disposed");
    assert(controller.signal.aborted && later, "aborted, and the next listener ran");
    assertEqual(reported, [["listener boom", "mod disposed"]]);
  } finally {
    abortHooks.onListenerError = saved;
  }
});
