// DeepSeek Harness inside one engine: the real Cordis root with DSH's own
// `tools`, `systemPrompt` and `commands` services and the timer plugin
// (vendor/dsh.js, built from DSH's source), plus modlearn's `agents` service:
// the one evaluation agent whose inbox, steering and follow-ups the checks read.

import { messageText } from "../content.js";
import { registerBuiltins } from "./builtins.js";
import { CommandRuntime, Context, FiberState, Service, SystemPrompt, TimerService, ToolRuntime } from "../vendor/dsh.js";

export const EVAL_AGENT_ID = "mod-learning-eval-agent";

/** The evaluation agent's handle: what plugins queue through it is recorded for the checks. */
function evalAgent(ctx) {
  const outbox = { injected: [], steered: [], followups: [] };
  // The durable session log DSH's services append to (`command/run`, `command/done`).
  const log = [];
  const session = { append: (type, data) => (log.push({ type, data }), { seq: log.length }), log };
  const agent = {
    id: EVAL_AGENT_ID,
    options: {},
    status: "idle",
    ctx,
    outbox,
    session,
    inject: (message) => void outbox.injected.push(messageText(message)),
    steer: (message) => void outbox.steered.push(messageText(message)),
    followup: (message) => void outbox.followups.push(messageText(message)),
    send: (message, target) => void (target === "next-step" ? outbox.steered : outbox.followups).push(messageText(message)),
    cancel: () => undefined,
    whenIdle: async () => undefined,
  };
  return agent;
}

/** `agents`: the agent registry a headless evaluation has, one agent. */
class EvalAgents extends Service {
  constructor(ctx) {
    super(ctx, "agents");
    this.agent = evalAgent(ctx);
  }

  get(id) {
    return id === EVAL_AGENT_ID ? this.agent : undefined;
  }

  list() {
    return [this.agent];
  }
}

/**
 * A listener of the host's own, put straight into the root's hook list:
 * `ctx.on` would announce it on `internal/listener`, where a plugin could see
 * the judge arrive or hand back a disposer that drops it. Outermost with
 * `prepend`, as Cordis places prepended listeners.
 */
export function hostListener(root, name, callback, prepend = false) {
  const hooks = (root.events._hooks[name] ??= []);
  const hook = { ctx: root, callback };
  if (prepend) hooks.unshift(hook);
  else hooks.push(hook);
  return () => {
    const index = hooks.indexOf(hook);
    if (index >= 0) hooks.splice(index, 1);
  };
}

/** Nesting depth of the host's own service reads through the root (see `hostService`). */
let hostReading = 0;

/** Service `name` of the root, read by the host: not a read of the plugin's. */
export function hostService(root, name) {
  hostReading++;
  try {
    return root.get(name);
  } finally {
    hostReading--;
  }
}

/**
 * Records which service each fiber reads through its contexts: Cordis asks
 * the `internal/get` waterfall for every service read that is not a plain
 * property of the context, declared or not. Reads through the root context
 * (`ctx.root.get(name)`, `ctx.root[name]`) have no fiber of the plugin's:
 * any the host did not make itself belong to the load generation running
 * (`generation()`), whose plugin is the only one there is.
 */
function watchServiceReads(root, generation) {
  // By fiber uid and its ancestors' (a fiber read through a context can be a tracking proxy,
  // and a child plugin's reads are its parent's too); names in first-read order.
  const reads = Object.assign([], { dropped: 0 });
  const recorded = new Set();
  const record = (ctx, name) => {
    const chain = [];
    for (let fiber = ctx?.fiber, depth = 0; fiber && fiber.uid !== 0 && depth < 32; depth++) {
      chain.push(fiber.uid);
      fiber = fiber.parent?.fiber;
    }
    if (chain.length === 0 && hostReading > 0) return;
    const viaRoot = chain.length === 0 ? generation() : undefined;
    // Every service read passes here: a set keeps the check of a read seen before constant.
    const key = `${viaRoot === undefined ? chain.join(">") : `root@${viaRoot}`}:${String(name)}`;
    if (recorded.has(key)) return;
    // Past the bound the log is incomplete, and says so: the judge fails closed on it.
    if (reads.length >= 512) {
      reads.dropped++;
      return;
    }
    recorded.add(key);
    reads.push({ chain, viaRoot, name: String(name) });
  };
  hostListener(root, "internal/get", (ctx, name, _error, next) => {
    record(ctx, name);
    return next();
  });
  // `ctx.get(name)` reads the service store directly, past the waterfall: the same read. So
  // does every read through the root context, which has no runtime to run the waterfall.
  const get = root.reflect.get;
  Object.defineProperty(root.reflect, "get", {
    value(name, strict) {
      record(this.ctx, name);
      return get.call(this, name, strict);
    },
  });
  return reads;
}

/** The root's services and event bus, and their prototypes: host objects a plugin can patch. */
function hostObjects(root) {
  const objects = [["events", root.events], ["registry", root.registry]];
  for (const name of ["tools", "systemPrompt", "commands", "timer", "agents"]) objects.push([name, hostService(root, name)]);
  const all = [];
  for (const [name, object] of objects) {
    let level = object;
    for (let depth = 0; level && level !== Object.prototype && depth < 4; depth++, level = Object.getPrototypeOf(level)) {
      all.push([depth === 0 ? name : `${name}${".__proto__".repeat(depth)}`, level]);
    }
  }
  return all;
}

/** The functions on `object`, by key (getters are not read). */
function methodsOf(object) {
  const methods = new Map();
  for (const key of Reflect.ownKeys(object)) {
    const descriptor = Object.getOwnPropertyDescriptor(object, key);
    if (descriptor && typeof descriptor.value === "function") methods.set(key, descriptor.value);
  }
  return methods;
}

/**
 * Methods of host objects that are not what they were when the root started
 * (`before`, as `rootEffects` took them): a plugin's patch, which nothing
 * undoes when it unloads.
 */
export function patchedMethods(before, after) {
  const patched = [];
  for (const [name, methods] of after) {
    const then = before.get(name);
    if (!then) continue;
    for (const [key, value] of methods) {
      if (then.get(key) !== value) patched.push(`${name}.${typeof key === "symbol" ? key.toString() : key}`);
    }
  }
  return patched;
}

/** The listeners on the root and the fibers under it, now: what a plugin added later is its own. */
export function rootEffects(root) {
  const hooks = [];
  for (const [name, list] of Object.entries(root.events._hooks)) for (const hook of list ?? []) hooks.push({ name, hook });
  const fibers = [];
  for (const runtime of root.registry.values()) for (const fiber of runtime.fibers) fibers.push({ name: String(runtime.name ?? ""), fiber });
  // Methods by the object's name: a service read through the root can be a fresh tracking
  // proxy on every read, so its identity says nothing.
  return { hooks, fibers, methods: new Map(hostObjects(root).map(([name, object]) => [name, methodsOf(object)])) };
}

/**
 * Starts the root and its services; resolves once every service is active. `generation()`
 * says which load generation is running.
 */
export async function startRuntime(generation) {
  const root = new Context();
  const services = [root.plugin(TimerService), root.plugin(SystemPrompt, {}), root.plugin(ToolRuntime, {}), root.plugin(CommandRuntime), root.plugin(EvalAgents)];
  for (const fiber of services) await fiber;
  const stuck = services.filter((fiber) => fiber.state !== FiberState.ACTIVE);
  if (stuck.length > 0) throw new Error(`DSH services did not start: ${stuck.map((fiber) => fiber.runtime?.name).join(", ")}`);
  registerBuiltins(root.get("tools"));
  const reads = watchServiceReads(root, generation);
  return { root, agent: root.get("agents").agent, baseline: rootEffects(root), reads };
}
