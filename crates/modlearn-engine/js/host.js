// The host side of one engine: loads a candidate, keeps its registry, runs
// emissions and disposal. The Rust side drives it through one function,
// `__modlearnHost(method, json) -> json`, which it takes and removes from the
// global object before any candidate code runs.
//
// Work that runs mod code is an operation split into steps (`start`, `step`
// for each unit of mod code, `finish`). Each step gets its own time budget
// on the Rust side; a step that is stopped or never settles is reported back
// with `fail`, and the operation carries on with the next step.

import { advanceClock, clock, consoleBuffer, hostAccess, hostAccessDenied, installSandbox, pendingTimers, readStackForHost, seedRandom } from "./platform.js";
import { boundText, makeDiagnostic, markRecorded, wasRecorded } from "./diagnostics.js";
import { profileNamed } from "./capabilities.js";
import { createRegistry, eventCounts } from "./registry.js";
import { freshContext } from "./context.js";
import { toJson } from "./json.js";
import { OPERATIONS } from "./operations.js";
import { enginePromiseHook, installPromiseTracking, recordGlobalBaseline, useCore } from "./lifecycle.js";
import { prototypeSamples } from "./baseline-samples.js";
import { abortHooks, signalOf as controllerSignal } from "./abort.js";
import { HOST_METHODS, OPERATION_NAMES } from "./protocol.js";
import { sealGlobals, withHostStackLimit } from "./seal.js";
import { installWeb } from "./web/install.js";
import { zones } from "./web/intl-dates.js";
import { captureContext, contextInUse, contextUse, promiseHooks as contextHooks, runInContext } from "./node/async_hooks.js";
import { keepWorldForReload, seedWorld, worldSnapshot } from "./world.js";
import { link as machineLink } from "./machine.js";
// Fills in Bun.file and Bun.write (platform.js `bunFileSystem`).
import "./node/bun-file.js";
import "./node/bun-crypto.js";
import "./node/child_process.js";
import "./node/bun-shell.js";
import { assertRequireReady, builtinModules, builtinsFailed, installRequire, setBuiltins } from "./require.js";


// The engine's own Promise, for the host's own work: the global one that mods get records,
// with a stack, every promise made while a mod's owner is current (lifecycle.js).
const HostPromise = globalThis.Promise;
const core = installSandbox(globalThis);
useCore(core);
// Bun's platform, virtualised: web globals, `process`, and the world behind node:*.
installWeb(globalThis);
seedWorld();
installRequire(globalThis, (what) => hostAccessDenied(what, "modlearn's sandbox does not provide this Node built-in yet"));
// Evaluated now, inside the installed sandbox (see require.js); in before `seal`.
import("./require-table.js").then(({ BUILTINS }) => setBuiltins(BUILTINS), builtinsFailed);

/**
 * Letta's learning-harness context (learning-harness.ts, createAssertionModContext), key for
 * key in its order, with the virtual working directory. `subagents.list` is a function there
 * and is added by freshContext.
 */
export const DEFAULT_CONTEXT = Object.freeze({
  app: { version: "mod-learning-eval" },
  backgroundAgents: [],
  subagents: {},
  contextWindow: {
    currentUsage: null, remainingPercentage: null, size: 200000,
    totalInputTokens: 0, totalOutputTokens: 0, usedPercentage: null,
  },
  cost: { totalApiDurationMs: 0, totalCostUsd: null, totalDurationMs: 0, totalLinesAdded: null, totalLinesRemoved: null },
  cwd: "/workspace",
  lastRunId: null,
  memfs: { enabled: false, memoryDir: null },
  model: { displayName: "mod-learning-eval", id: "mod-learning-eval", provider: "local", reasoningEffort: null },
  networkPhase: null,
  permissionMode: "standard",
  reflection: { mode: null, stepCount: 0 },
  sessionId: "mod-learning-eval-conversation",
  conversationSummary: null,
  systemPromptId: null,
  terminalWidth: 80,
  toolset: "default",
  agent: { id: "mod-learning-eval-agent", name: "Mod Learning Eval" },
  workspace: { cwd: "/workspace", currentDir: "/workspace", projectDir: "/workspace" },
});

const DIAGNOSTICS_MAX = 200;
const PROMPTS_LIMIT = 200;
const PROMPT_TEXT_LIMIT = 2048;
const DIAGNOSTICS_KEEP = 50;

/** The engine state the letta handle and the operations work against. */
class Host {
  constructor() {
    this.capabilities = profileNamed("engine");
    this.profile = "engine";
    this.baseContext = DEFAULT_CONTEXT;
    this.scenarioContext = null;
    this.reservedToolNames = new Set();
    this.builtinCommandIds = new Set();
    this.registry = createRegistry(0);
    /** Diagnostics ever recorded; the registry's ring keeps only the newest. */
    this.diagnosticsRecorded = 0;
    this.notifications = [];
    this.phase = null;
    this.lastOwner = null;
    this.operation = null;
    this.stepState = null;
    this.operationSteps = 0;
    this.clientPromise = null;
    this.sources = new Map();
    /** The candidate's text as last sent, for the dialect hint of a failed activation. */
    this.lastSource = null;
    this.worldSeed = {};
    /** `letta` (mods), `pi` (extensions) or `dsh` (plugins): which handle a candidate gets and how events route. */
    this.dialect = "letta";
    // Pi's session (pi/session.js, made on the first load) and the dialogs its extension opened.
    this.pi = null;
    this.piPrompts = [];
    /** pi/api.js, once a Pi extension loaded. */
    this.piApi = null;
    // DSH's runtime (started on the first load) and the candidate's fiber per owner.
    this.dsh = null;
    /** The DSH candidate loaded last, whom what is left on the root is charged to. */
    this.dshLastOwner = null;
    this.dshFibers = new Map();
    /** Each DSH candidate's fiber uid, by owner id (a disposed fiber forgets its own). */
    this.dshUids = new Map();
    /** Fibers of earlier generations, disposed before the next plugin is plugged in. */
    this.dshStale = [];
    /** dsh/api.js, once a DSH plugin loaded. */
    this.dshApi = null;
  }

  // ---- the engine interface used by letta.js and the operations ----

  isLive(owner) {
    return this.registry.owners[owner.id]?.generation === owner.generation;
  }

  record({ owner, phase, error, capability, severity, fault }) {
    const diagnostic = makeDiagnostic({ owner, phase, error, capability, severity, fault, now: clock.now });
    const stored = this.registry.diagnostics;
    stored.push(diagnostic);
    this.diagnosticsRecorded++;
    // Letta's ring buffer: past 200 entries, keep only the newest 50.
    if (stored.length > DIAGNOSTICS_MAX) stored.splice(0, stored.length - DIAGNOSTICS_KEEP);
    return diagnostic;
  }

  /** A mark for [`diagnosticsSince`]: how many diagnostics were ever recorded. */
  diagnosticsMark() {
    return this.diagnosticsRecorded;
  }

  /**
   * The diagnostics recorded since `mark`, as many as the ring still holds (the newest): a
   * window by count would come back empty once the ring had wrapped.
   */
  diagnosticsSince(mark) {
    const since = this.diagnosticsMark() - mark;
    const stored = this.registry.diagnostics;
    return since <= 0 ? [] : stored.slice(Math.max(0, stored.length - since));
  }

  staleHandle(owner, kind, id) {
    this.record({
      owner, phase: "stale_handle", capability: { id: String(id), kind },
      error: new Error(`Ignored stale mod handle for ${kind} '${String(id)}'`),
    });
  }

  signalOf(owner) {
    return controllerSignal(this.registry.controllers[owner.id] ?? owner.controller);
  }

  /** Records a dialog a Pi extension opened; the first PROMPTS_LIMIT are kept, texts cut. */
  recordPrompt(prompt) {
    if (this.piPrompts.length >= PROMPTS_LIMIT) return;
    const cut = (text) => boundText(text, PROMPT_TEXT_LIMIT);
    this.piPrompts.push({ ...prompt, title: cut(prompt.title), ...(prompt.detail === undefined ? {} : { detail: cut(prompt.detail) }) });
  }

  notify(owner, message) {
    this.notifications.push({ mod: owner.id, message });
  }

  /** The handle a candidate's entry point receives is the dialect's; so are the events' payloads. */
  setDialect(dialect) {
    if (dialect !== "letta" && dialect !== "pi" && dialect !== "dsh") throw new Error(`unknown dialect '${dialect}'`);
    this.dialect = dialect;
  }

  upsertPanel(owner, id, { render, order }) {
    // Letta's validateModPanelId: an id that is no string fails on its trim.
    if (!id.trim()) throw new Error("Mod panel id must not be empty");
    const key = JSON.stringify([owner.id, id]);
    const existing = this.registry.panels.get(key);
    this.registry.panels.set(key, {
      id,
      owner,
      render: render ?? existing?.render,
      order: order ?? existing?.order ?? 100,
      updatedAt: clock.now,
    });
  }

  getClient() {
    // Letta's harness wires a client that is an empty object.
    this.clientPromise ??= HostPromise.resolve({});
    return this.clientPromise;
  }

  /**
   * The ctx a callback gets: a shallow copy of the scenario's one context, as Letta's dispatch
   * hands each handler `{ ...context }`. What a handler sets on ctx itself is gone for the next,
   * what it sets inside (`ctx.agent.x`) stays for the rest of the scenario, as in Letta.
   */
  context() {
    if (this.scenarioContext?.base !== this.baseContext) {
      this.scenarioContext = { base: this.baseContext, ctx: freshContext(this.baseContext) };
    }
    return { ...this.scenarioContext.ctx };
  }

  // ---- methods the Rust side calls ----

  configure({ dialect, profile, context, seed, reservedToolNames, builtinCommandIds, world }) {
    if (dialect !== undefined) this.setDialect(dialect);
    if (profile !== undefined) {
      this.capabilities = profileNamed(profile);
      this.profile = profile;
    }
    if (context !== undefined) this.baseContext = { ...DEFAULT_CONTEXT, ...context };
    if (seed !== undefined) seedRandom(seed);
    if (reservedToolNames !== undefined) this.reservedToolNames = new Set(reservedToolNames);
    if (builtinCommandIds !== undefined) this.builtinCommandIds = new Set(builtinCommandIds);
    // The world's working directory follows ctx, as Letta's does.
    this.worldSeed = { ...(world ?? {}), cwd: this.baseContext.cwd };
    seedWorld(this.worldSeed);
    // The `capabilities` operation reports the capabilities; an engine's start does not wait on them.
    return { profile: this.profile };
  }

  /** Starts a new load generation with an empty registry (after a dispose). */
  newGeneration({ keepWorld = false } = {}) {
    this.registry = createRegistry(this.registry.generation + 1);
    this.scenarioContext = null;
    this.clientPromise = null;
    // A plugin whose load failed after Cordis activated it was never disposed: the next load
    // unplugs it first, so the new generation's root holds nothing of it.
    this.dshStale.push(...this.dshFibers.values());
    this.dshFibers = new Map();
    // Each scenario starts from the seeded world, as each of Letta's runs starts on a clean
    // machine; a reload (`keepWorld`) goes on in the same process, as Letta's `/reload` does.
    if (keepWorld) keepWorldForReload();
    else seedWorld(this.worldSeed);
    this.piApi?.newGeneration(this, keepWorld);
    return { generation: this.registry.generation };
  }

  /**
   * Starts an operation and, to spare the Rust side a call, its first step; an operation
   * without steps is finished at once and its result comes back with the reply.
   */
  start(args) {
    this.dshApi?.syncRegistry(this);
    this.piApi?.syncRegistry(this);
    const op = args.op;
    const Operation = Object.hasOwn(OPERATIONS, op) ? OPERATIONS[op] : undefined;
    if (!Operation) throw new Error(`unknown operation '${op}'`);
    this.operation = new Operation(this, args);
    const steps = this.operation.stepCount();
    this.operationSteps = steps;
    if (steps === 0) return { steps, finished: this.finish() };
    this.step({ index: 0 });
    return { steps };
  }

  step({ index }) {
    const state = { index, settled: false, hostError: null };
    this.stepState = state;
    const operation = this.operation;
    HostPromise.resolve()
      .then(() => operation.step(index))
      .then(
        () => {
          state.settled = true;
        },
        (error) => {
          state.settled = true;
          state.hostError = String(error && error.stack ? error.stack : error);
        },
      );
    return {};
  }

  /**
   * Whether the running step settled. Asked to `follow`, the host begins the next step at
   * once after one that settled cleanly, sparing the Rust side a call; that side gives the
   * next step its own budget before any of its code runs, and does not ask after the last
   * step, or once the operation's time is used up.
   */
  poll({ follow = false }) {
    const state = this.stepState;
    const reply = { settled: state.settled, hostError: state.hostError, timers: clock.timers.size };
    const next = state.index + 1;
    if (follow && state.settled && state.hostError === null && next < this.operationSteps) this.step({ index: next });
    return reply;
  }

  advance() {
    const previous = this.phase;
    this.phase = "timer";
    try {
      return { ran: advanceClock(), now: clock.now };
    } finally {
      this.phase = previous;
    }
  }

  fail({ index, fault, message }) {
    const error = new Error(message);
    error.name = fault === "timeout" ? "TimeoutError" : fault === "out_of_memory" ? "OutOfMemoryError" : "UnsettledPromiseError";
    error.stack = undefined;
    this.operation.fail(index, error, fault);
    return {};
  }

  finish() {
    const operation = this.operation;
    this.operation = null;
    this.phase = null;
    return operation.finish();
  }

  snapshot() {
    this.dshApi?.syncRegistry(this);
    this.piApi?.syncRegistry(this);
    const registry = this.registry;
    const pending = this.dshApi?.pendingPlugins(this) ?? [];
    const services = this.dshApi?.serviceUse(this) ?? null;
    const ownerOf = (entry) => entry.owner.id;
    return {
      generation: registry.generation,
      loadedPaths: [...registry.loadedPaths],
      diagnostics: registry.diagnostics,
      events: Object.fromEntries(Object.entries(eventCounts(registry, { zeros: this.dialect === "letta" }))),
      tools: [...registry.tools.values()].map((tool) => ({
        name: tool.name, description: tool.description, parameters: tool.parameters,
        approvalPolicy: tool.approvalPolicy, requiresApproval: tool.requiresApproval,
        parallelSafe: tool.parallelSafe, mod: ownerOf(tool),
      })),
      commands: [...registry.commands.values()].map((command) => ({
        id: command.id, description: command.description, order: command.order,
        runWhenBusy: command.runWhenBusy, showInTranscript: command.showInTranscript, mod: ownerOf(command),
      })),
      permissions: [...registry.permissions.values()].map((p) => ({ id: p.id, description: p.description, mod: ownerOf(p) })),
      providers: [...registry.providers.values()].map((p) => ({ name: p.name, mod: ownerOf(p) })),
      panels: [...registry.panels.values()].map((panel) => ({ id: panel.id, order: panel.order, mod: ownerOf(panel) })),
      timers: pendingTimers().length,
      notifications: this.notifications,
      ...(this.piPrompts.length > 0 ? { prompts: this.piPrompts } : {}),
      ...(pending.length > 0 ? { pending } : {}),
      ...(services ? { services } : {}),
      world: worldSnapshot(),
    };
  }

  /**
   * Last step of booting, after everything that changes built-ins: lock what
   * the host relies on, and remember the globals that exist before any mod runs.
   */
  seal() {
    assertRequireReady();
    sealGlobals(globalThis);
    recordGlobalBaseline(globalThis, builtinModules(), prototypeSamples(globalThis));
    return {};
  }

  protocol() {
    return { methods: HOST_METHODS, operations: Object.keys(OPERATIONS) };
  }

  takeConsole() {
    const taken = { lines: consoleBuffer.lines, dropped: consoleBuffer.dropped };
    consoleBuffer.lines = [];
    consoleBuffer.dropped = 0;
    consoleBuffer.characters = 0;
    return taken;
  }
}

const host = new Host();
// Lifecycle checks: tag promises mod code constructs (a stack with any of the
// candidate's frames), and remember the globals that exist before any mod runs.
// An op of modlearn-engine-ops answers that from the backend's frame list; the host limit and
// readStackForHost's formatting serve its fallback (the stack as prepareStackTrace writes it).
const { op_mod_frame_on_stack: modFrameOnStack, op_time_zone_at: timeZoneAt, op_machine_call: machineOp } = core.ops;
zones.at = (name, epochMs) => timeZoneAt(String(name), Number(epochMs));
machineLink.call = (packed) => machineOp(packed);
installPromiseTracking(globalThis, () => host.lastOwner, () => withHostStackLimit(() => readStackForHost(modFrameOnStack)));
// Named, so the stack walk knows it: a promise the engine makes with this hook as the outermost
// frame was made from no frame at all, an async function the engine itself called (a reaction).
function enginePromiseInit(promise, parent) {
  enginePromiseHook.init(promise, parent);
  if (contextInUse()) contextHooks.init(promise, parent);
}
core.setPromiseHooks(enginePromiseInit);
// AsyncLocalStorage's stores follow promise reactions, timers and ticks once a mod makes one:
// the hooks that carry them cost a call per reaction, so they start then.
contextUse.begin = () => core.setPromiseHooks(enginePromiseInit, contextHooks.before, contextHooks.after);
Object.assign(clock, { captureContext, runInContext, contextInUse });
// The Rust side calls `seal` once the host is booted (see Host.seal).
// A throwing letta.signal listener must not break the abort (and the dispose) it runs in.
abortHooks.onListenerError = (error, reason) =>
  host.record({ owner: host.lastOwner, phase: reason === "mod activation failed" ? "activate" : "dispose", error });

clock.currentOwner = () => host.lastOwner;
clock.onTimerError = (error, owner) => host.record({ owner: owner ?? host.lastOwner, phase: "timer", error });
hostAccess.onAccess = (error) => {
  // Marked only once it is on the record: a mark without a record would let a mod that catches
  // this error throw it again, and have that failure counted as recorded.
  host.record({ owner: host.lastOwner, phase: host.phase ?? "timer", error, fault: "host_access" });
  markRecorded(error);
};
core.setUnhandledPromiseRejectionHandler((_promise, reason) => {
  if (!wasRecorded(reason)) {
    host.record({ owner: host.lastOwner, phase: "unhandled_rejection", error: reason, fault: "unhandled_rejection" });
  }
  return true;
});

if (Object.keys(OPERATIONS).sort().join() !== [...OPERATION_NAMES].sort().join()) {
  throw new Error("operations.js and protocol.js list different operations");
}
const METHODS = new Set(HOST_METHODS);

globalThis.__modlearnHost = (method, json) => {
  if (!METHODS.has(method)) throw new Error(`unknown host method '${method}'`);
  const args = json === undefined || json === "" ? {} : JSON.parse(json);
  // The operations destructure their arguments with defaults: an argument the
  // Rust side leaves out must read as missing, not as what a mod put on
  // Object.prototype (a seed, a conversation, a clock move of its choosing).
  if (args !== null && typeof args === "object" && !Array.isArray(args)) Object.setPrototypeOf(args, null);
  return toJson(host[method](args));
};
