// Operations the host runs in steps: load a mod, emit an event, dispose;
// and, from invocations.js, run a tool, check permissions, run a command.
// Every step that calls mod code catches what it throws and records it, so
// a step only fails on the Rust side (timeout, memory, never settles).

import { modFile } from "./require.js";
import { callMod, drainHostTasks } from "./platform.js";
import { createLettaHandle } from "./letta.js";
import { conversationHandle, withGetContextTrap } from "./context.js";
import { beginEmission, applyResult, finishEmission, handlerFailed, snapshotBeforeHandler } from "./dispatch.js";
import { removeOwnerCapabilities } from "./registry.js";
import { scanRemovedApis } from "./source-scan.js";
import { wasRecorded } from "./diagnostics.js";
import { compareLive } from "./live-compare.js";
import { plainData } from "./json.js";
import { recordDispatch } from "./world.js";
import { CheckPermissionsOperation, RunCommandOperation, RunToolOperation } from "./invocations.js";
// The module's own: a mod may replace globalThis.AbortController for the loads after it.
import { AbortController, isAborted, signalOf } from "./abort.js";
import { CapabilitiesOperation, ControlOperation, LeaksOperation, SettleOperation, checkedDispose, looksThenable } from "./lifecycle.js";
import { runtimeOf } from "./dialect-runtimes.js";


/**
 * Loads one mod file: scan, import, activate. Arguments: `specifier` (what
 * to import), `path` (the owner's path), `scope`, `source` (raw text for the
 * removed-API scan), `transpileError` (set when TypeScript did not parse).
 */
class LoadOperation {
  constructor(host, { specifier, path, scope = "global", source = null, transpileError = null, language = "js" }) {
    this.host = host;
    this.args = { specifier, path, scope, source, transpileError, language };
    this.failed = false;
    this.namespace = null;
    const registry = host.registry;
    const controller = new AbortController();
    // `seenAs`: where the mod sees itself (its virtual path), for what is said to mods about it.
    this.owner = { id: `${scope}:${path}`, path, scope, generation: registry.generation, controller, seenAs: virtualPath(specifier) };
    Object.defineProperty(this.owner, "controller", { enumerable: false });
    Object.defineProperty(this.owner, "seenAs", { enumerable: false });
    registry.owners[this.owner.id] = this.owner;
    registry.controllers[this.owner.id] = controller;
    host.lastOwner = this.owner;
  }

  /** Import, activate and, for a Pi extension, its `session_start`. */
  stepCount() {
    return this.host.dialect === "pi" ? 3 : 2;
  }

  async step(index) {
    if (this.failed) return;
    if (index === 0) await this.importModule();
    else if (index === 1) await this.activate();
    else await this.host.piApi?.startSession(this.host);
  }

  async importModule() {
    const { host, owner, args } = this;
    host.phase = "import";
    // The same source is loaded once per scenario: the Rust side sends it
    // only when it changed, and the scan of the last one is kept.
    if (args.source !== null) {
      host.scannedIds = scanRemovedApis(args.source);
      host.lastSource = args.source;
    }
    for (const id of host.scannedIds ?? []) {
      const error = new Error(`Mod source uses removed API: ${id}`);
      error.stack = undefined;
      host.record({ owner, phase: "deprecated_api", capability: { id, kind: "api" }, error });
    }
    if (args.transpileError) {
      const error = new SyntaxError(args.transpileError);
      error.stack = undefined;
      this.loadFailed(args.language === "ts" ? "transpile" : "import", error);
      return;
    }
    // `__filename` for the mod: its virtual path, without the load query.
    modFile.path = this.owner.seenAs;
    try {
      this.namespace = await import(args.specifier);
    } catch (error) {
      this.loadFailed("import", error);
    }
  }

  async activate() {
    const { host, owner, namespace } = this;
    host.phase = "activate";
    try {
      let active = true;
      if (host.dialect === "pi") {
        host.piApi ??= runtimeOf("pi");
        if (host.piApi === null) throw new Error("modlearn's Pi runtime is not loaded in this engine");
        await host.piApi.activateExtension(host, owner, namespace);
      } else if (host.dialect === "dsh") {
        host.dshApi ??= runtimeOf("dsh");
        if (host.dshApi === null) throw new Error("modlearn's DSH runtime is not loaded in this engine");
        active = await host.dshApi.activatePlugin(host, owner, namespace);
      } else {
        const factory = typeof namespace.default === "function" ? namespace.default : namespace.activate;
        if (typeof factory !== "function") throw new Error("Mod must export a default function or activate() function");
        const disposer = await withDialectHint(() => callMod(factory, undefined, [createLettaHandle(host, owner)]), host.lastSource);
        if (typeof disposer === "function") host.registry.disposers.push({ owner, disposer });
      }
      // A DSH plugin parked PENDING has not loaded, though DSH reports nothing.
      if (active) host.registry.loadedPaths.push(owner.path);
    } catch (error) {
      this.loadFailed("activate", error);
    }
  }

  loadFailed(phase, error, fault) {
    const { host, owner } = this;
    // An out-of-memory error can be caught here and then stop the step as
    // well (and recording may itself be stopped): record it exactly once.
    if (this.recorded) return;
    this.failed = true;
    removeOwnerCapabilities(host.registry, owner);
    if (!isAborted(signalOf(owner.controller))) owner.controller.abort("mod activation failed");
    delete host.registry.controllers[owner.id];
    if (!wasRecorded(error)) host.record({ owner, phase, error, fault });
    this.recorded = true;
  }

  fail(index, error, fault) {
    // A session_start handler that never ends is logged; the extension stays loaded, as in Pi.
    if (index === 2) {
      const capability = { id: "session_start", kind: "event" };
      if (!wasRecorded(error)) this.host.record({ owner: this.owner, phase: "event", error, fault, capability });
      return;
    }
    this.loadFailed(index === 0 ? "import" : "activate", error, fault);
  }

  finish() {
    return { loaded: !this.failed, owner: this.owner.id };
  }
}

/** The path of a module's file URL, without its load query. */
function virtualPath(specifier) {
  return decodeURIComponent(String(specifier).replace(/^file:\/\//, "").replace(/[?#].*$/, ""));
}

/** Calls only Pi's API has: a Letta spec was given a Pi extension. */
const PI_CALL = /\bpi\.(on|registerTool|registerCommand|events\.on)\s*\(/;

/** Runs a Letta activation; a Pi extension's TypeError gets a hint about the spec's dialect. */
async function withDialectHint(activation, source) {
  try {
    return await activation();
  } catch (error) {
    if (error instanceof TypeError && PI_CALL.test(source ?? "")) {
      error.message += ' (this looks like a Pi extension: set "dialect": "pi" in the spec, or write activate(letta))';
    }
    throw error;
  }
}

/** The engine's own Promise (the sandbox's tracks mod code's), for the host's job chains. */
const RealPromise = Promise;
const noop = () => {};

/** Promise jobs between the last handler's result settling and Letta's harness reading the event. */
const READ_AFTER_HOPS = 3;

/**
 * Emits one event to every handler, one handler per step. Arguments: `name`, `event`, and
 * `compare`, a comparison to make on the live event afterwards (live-compare.js).
 */
class EmitOperation {
  constructor(host, { name, event, compare = null }) {
    this.host = host;
    this.compare = compare;
    this.rejected = null;
    // Letta's read of the event (readAsLettaDoes), once the last handler's result is in.
    this.read = null;
    this.finished = null;
    this.readDue = false;
    this.failedSteps = new Set();
    try {
      const registrations = host.dialect === "pi" ? host.piApi?.piRegistrations(host, name) ?? [] : host.dialect === "dsh" ? host.dshApi?.dshRegistrations(host, name) ?? [] : undefined;
      this.emission = beginEmission(host.registry, name, event, registrations);
      recordDispatch(name);
    } catch (error) {
      // Letta's emit rejects here (unknown event, non-array turn_start input).
      this.rejected = String(error && error.message);
    }
  }

  stepCount() {
    return this.rejected === null ? this.emission.registrations.length : 0;
  }

  async step(index) {
    const { host, emission } = this;
    const registration = emission.registrations[index];
    host.phase = "event";
    if (isAborted(host.signalOf(registration.owner))) return;
    snapshotBeforeHandler(emission);
    const last = host.dialect === "letta" && index === emission.registrations.length - 1;
    try {
      const returned = callMod(registration.handler, registration, [emission.event, this.handlerContext(registration.owner)]);
      if (last) this.readAsLettaDoes(returned);
      applyResult(emission, await returned);
    } catch (error) {
      this.failed(registration, error);
    } finally {
      if (last) this.lastApplied();
    }
  }

  /**
   * Reads the event when Letta's harness does: its emitEvent chain hands the event back
   * READ_AFTER_HOPS promise jobs after the last handler's result settles, so what a handler
   * left running un-awaited changes the event Letta judges only if it got there by then
   * (measured: a push three `.then`s deep is seen, four deep is not; one `await` inside an
   * async handler moves that by one). The engine's jobs run in order, so a chain of as many
   * jobs, started when the result settles, reads the event at the same point.
   */
  readAsLettaDoes(returned) {
    const native = returned instanceof RealPromise;
    let chain = native ? RealPromise.prototype.then.call(returned, noop, noop) : RealPromise.resolve().then(noop);
    // Letta's `await` of a thenable takes one job more: the job that calls its `then`.
    const hops = native || !looksThenable(returned) ? READ_AFTER_HOPS : READ_AFTER_HOPS + 1;
    for (let hop = 1; hop < hops - 1; hop++) chain = chain.then(noop);
    // A thenable's result takes the host's `await` longer than the chain: a read that comes
    // first waits for the result, since Letta reads the event with the result in it.
    chain.then(() => {
      if (this.finished !== null) this.readEvent();
      else this.readDue = true;
    });
  }

  lastApplied() {
    // Letta's emit makes its final touches (approvals first, the cancel) as soon as the last
    // result is in, before its caller reads the event.
    this.finished = finishEmission(this.emission);
    if (this.readDue) this.readEvent();
  }

  readEvent() {
    const { event } = this.emission;
    // Compared first, as Letta judges the live event before its report serialises it: a
    // getter is judged on the read Letta's comparison makes.
    const compared = this.compare === null ? undefined : compareLive(this.compare, event);
    this.read = { event: plainData(event), compared };
  }

  handlerContext(owner) {
    const { host, emission } = this;
    const base = host.context();
    const event = emission.event;
    const conversationId = typeof event.conversationId === "string" ? event.conversationId : base.sessionId;
    const ctx = { ...base, conversation: conversationHandle(conversationId), signal: host.signalOf(owner) };
    return withGetContextTrap(ctx, "ctx.getContext", () =>
      host.record({
        owner, phase: "deprecated_api", capability: { id: "ctx.getContext", kind: "api" },
        error: new Error("ctx.getContext() was removed"),
      }),
    );
  }

  failed(registration, error, fault) {
    const { host, emission } = this;
    const index = emission.registrations.indexOf(registration);
    // Recorded once, even when a caught error also stops the step.
    if (this.failedSteps.has(index)) return;
    const diagnostic = wasRecorded(error)
      ? host.registry.diagnostics.at(-1)
      : host.record({
        owner: registration.owner, phase: "event", error, fault,
        capability: { id: emission.name, kind: "event" },
      });
    handlerFailed(emission, diagnostic);
    this.failedSteps.add(index);
  }

  fail(index, error, fault) {
    this.failed(this.emission.registrations[index], error, fault);
  }

  finish() {
    if (this.rejected !== null) return { outcome: "rejected", message: this.rejected };
    const emission = this.finished ?? finishEmission(this.emission);
    // The event as its properties held it when Letta reads it (or now, when the last handler
    // never returned): a toJSON the mod hung on it must not show the judge messages the host
    // was never handed.
    if (this.read === null) this.readEvent();
    const { event, compared } = this.read;
    return { outcome: "emitted", emission, event, compared };
  }
}

/**
 * Disposes the current generation: aborts every owner first, then runs the
 * disposers in reverse load order, then clears the registry.
 */
class DisposeOperation {
  constructor(host) {
    this.host = host;
    const registry = host.registry;
    for (const controller of Object.values(registry.controllers)) controller.abort("mod disposed");
    this.disposers = [...registry.disposers].reverse();
    this.threw = [];
  }

  /** Each disposer, then a turn of the loop for what they and the mod left queued (see `drainHostTasks`). */
  stepCount() {
    return this.disposers.length + 1;
  }

  async step(index) {
    const { host } = this;
    if (index === this.disposers.length) {
      host.phase = "dispose";
      return drainHostTasks();
    }
    const { disposer, awaited } = this.disposers[index];
    host.phase = "dispose";
    try {
      // Letta does not await disposers; a returned promise runs on its own.
      // Pi awaits its session_shutdown handlers.
      if (awaited) await callMod(disposer, undefined, []);
      else callMod(disposer, undefined, []);
    } catch (error) {
      this.fail(index, error);
    }
  }

  fail(index, error, fault) {
    const owner = this.disposers[index]?.owner ?? this.host.lastOwner;
    if (owner === undefined || owner === null) return;
    if (this.threw.includes(owner.id)) return;
    if (!wasRecorded(error)) this.host.record({ owner, phase: "dispose", error, fault });
    this.threw.push(owner.id);
  }

  finish() {
    const registry = this.host.registry;
    for (const name of Object.keys(registry.events)) registry.events[name] = [];
    registry.hostEvents = Object.create(null);
    for (const map of [registry.tools, registry.commands, registry.permissions, registry.providers, registry.panels]) {
      map.clear();
    }
    registry.owners = Object.create(null);
    registry.controllers = Object.create(null);
    registry.disposers = [];
    return { disposed: this.disposers.length, threw: this.threw };
  }
}

/** Operation constructors by name, as `start({ op })` names them. */
export const OPERATIONS = Object.freeze({
  load: LoadOperation,
  emit: EmitOperation,
  dispose: DisposeOperation,
  runTool: RunToolOperation,
  checkPermissions: CheckPermissionsOperation,
  runCommand: RunCommandOperation,
  // Lifecycle checks (lifecycle.js).
  checkedDispose: checkedDispose(DisposeOperation),
  settle: SettleOperation,
  leaks: LeaksOperation,
  control: ControlOperation,
  capabilities: CapabilitiesOperation,
});
