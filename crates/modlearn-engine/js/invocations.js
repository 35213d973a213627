// Operations that call a registered capability directly, as Letta Code's
// host does outside event dispatch: run a tool, ask the permission
// overlays, run a slash command. Like the operations in operations.js, each
// unit of mod code is one step, so the Rust side's budgets apply to it.

import { AbortController, isAborted, signalOf } from "./abort.js";
import { conversationHandle, withGetContextTrap } from "./context.js";
import { callMod, clearHostTimeout, setHostTimeout } from "./platform.js";
import { errorName, errorText, wasRecorded } from "./diagnostics.js";
import { flattenToolResponse, thrownToolOutput, toolResultStatus, toolResultStreams } from "./tool-result.js";
import {
  COMMAND_TIMEOUT_MS,
  commandResultText,
  normalizeCommandResult,
  parseCommandArgv,
  parseSlashCommand,
} from "./command-runtime.js";
import {
  composePermissionDecision,
  failedCheckDecision,
  matchedRule,
  normalizePermissionResult,
} from "./permission-compose.js";

/** `ctx` plus Letta's getContext trap, which records a deprecated_api warning. */
function withTrap(host, owner, ctx) {
  return withGetContextTrap(ctx, "ctx.getContext", () =>
    host.record({
      owner, phase: "deprecated_api", capability: { id: "ctx.getContext", kind: "api" },
      error: new Error("ctx.getContext() was removed"),
    }),
  );
}

/**
 * Records a failure once; a thrown host-access error was recorded when the
 * trap fired, so that entry is reused.
 */
function recordOnce(host, error, entry) {
  return wasRecorded(error) ? host.registry.diagnostics.at(-1) : host.record({ ...entry, error });
}

/**
 * Runs a registered tool as Letta's executeModTool does: the availability
 * filter (`isEnabled(ctx)`, step 0), then `run(ctx)` (step 1), its return
 * value normalised to `{status, output}`. Arguments: `toolName`, `args`,
 * `toolCallId`.
 */
export class RunToolOperation {
  constructor(host, { toolName, args, toolCallId = null }) {
    this.host = host;
    this.toolName = toolName;
    this.args = args;
    this.toolCallId = toolCallId;
    this.tool = host.registry.tools.get(toolName) ?? null;
    this.diagnostics = [];
    this.unavailable = null;
    this.result = null;
    this.settled = new Set();
    this.cleanup = () => {};
    // Letta's filter drops the tools of a mod whose activation was aborted.
    if (this.tool && isAborted(host.signalOf(this.tool.owner))) this.unavailable = "its mod was disposed";
  }

  stepCount() {
    return this.tool && !this.unavailable ? 2 : 0;
  }

  async step(index) {
    if (index === 0) this.checkEnabled();
    else if (!this.unavailable) await this.run();
  }

  checkEnabled() {
    const { host, tool } = this;
    if (tool.isEnabled === undefined) return;
    host.phase = "tool.isEnabled";
    try {
      // Not awaited, as in Letta: a returned promise is truthy, so the tool stays.
      const enabled = callMod(tool.isEnabled, tool, [withTrap(host, tool.owner, host.context())]) ?? true;
      if (!enabled) this.unavailable = `isEnabled(ctx) returned ${describeValue(enabled)}`;
    } catch (error) {
      this.enableFailed(error);
    }
  }

  enableFailed(error, fault) {
    if (this.settled.has(0)) return;
    this.settled.add(0);
    const { host, tool } = this;
    const capability = { id: tool.name, kind: "tool" };
    this.diagnostics.push(recordOnce(host, error, { owner: tool.owner, phase: "tool.isEnabled", capability, fault }));
    this.unavailable = `isEnabled(ctx) threw: ${errorText(error)}`;
  }

  async run() {
    const { host, tool } = this;
    host.phase = "tool.run";
    // Letta links the call's signal to the mod's activation signal.
    const controller = new AbortController();
    const ownerSignal = host.signalOf(tool.owner);
    const abort = () => controller.abort();
    ownerSignal.addEventListener("abort", abort, { once: true });
    this.cleanup = () => ownerSignal.removeEventListener("abort", abort);
    this.signal = signalOf(controller);
    const base = host.context();
    const ctx = withTrap(host, tool.owner, {
      ...base,
      args: this.args,
      toolCallId: this.toolCallId,
      signal: this.signal,
      secret: secretResolver(),
      conversation: conversationHandle(base.sessionId),
    });
    try {
      const returned = await callMod(tool.run, tool, [ctx]);
      if (this.settled.has(1)) return;
      this.settled.add(1);
      this.result = { status: toolResultStatus(returned), output: flattenToolResponse(returned), ...toolResultStreams(returned) };
    } catch (error) {
      this.runFailed(error);
    }
  }

  runFailed(error, fault) {
    if (this.settled.has(1)) return;
    this.settled.add(1);
    const { host, tool } = this;
    const capability = { id: tool.name, kind: "tool" };
    this.diagnostics.push(recordOnce(host, error, { owner: tool.owner, phase: "tool.run", capability, fault }));
    this.result = { status: "error", output: thrownToolOutput(error, this.signal) };
  }

  fail(index, error, fault) {
    if (index === 0) this.enableFailed(error, fault);
    else this.runFailed(error, fault);
  }

  finish() {
    this.cleanup();
    if (!this.tool) return { outcome: "not_registered", registered: [...this.host.registry.tools.keys()] };
    if (this.unavailable) return { outcome: "unavailable", reason: this.unavailable, diagnostics: this.diagnostics };
    return { outcome: "ran", ...this.result, diagnostics: this.diagnostics };
  }
}

function describeValue(value) {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

/** The engine's own Promise (evaluated before the host installs the tracking one mods get). */
const HostPromise = globalThis.Promise;

const SECRET_NAME = /^[A-Z_][A-Z0-9_]*$/;

/**
 * `ctx.secret(name)`: Letta's name check, then no value, since the harness
 * has no agent secrets and no environment.
 */
function secretResolver() {
  return async (name) => {
    const key = String(name).toUpperCase();
    if (!SECRET_NAME.test(key)) {
      throw new Error(
        `Invalid secret name '${name}'. Use uppercase letters, numbers, and underscores only. Must start with a letter or underscore.`,
      );
    }
    return null;
  };
}

/**
 * Asks every permission overlay about one tool call, as Letta's
 * checkModPermissions does: in registration order, `isEnabled(ctx)` (step
 * 2i) then `check(event, ctx)` (step 2i+1) for overlay i. A throwing check
 * denies at once (fail closed). Arguments: `event`, whose `cwd`,
 * `workingDirectory` and `permissionMode` default to the harness ctx.
 */
export class CheckPermissionsOperation {
  constructor(host, { event }) {
    this.host = host;
    const base = host.context();
    this.event = {
      agentId: event.agentId ?? null,
      conversationId: event.conversationId ?? null,
      toolCallId: event.toolCallId ?? null,
      toolName: event.toolName,
      args: event.args,
      cwd: event.cwd ?? base.cwd,
      workingDirectory: event.workingDirectory ?? base.cwd,
      permissionMode: event.permissionMode ?? base.permissionMode,
      phase: event.phase ?? "approval",
    };
    this.permissions = [...host.registry.permissions.values()];
    this.consulted = this.permissions.map((permission) => ({ id: permission.id, mod: permission.owner.id, outcome: "not_reached" }));
    this.decisions = [];
    this.failedDecision = null;
    this.escaped = null;
    this.diagnostics = [];
    this.settled = new Set();
  }

  stepCount() {
    return this.permissions.length * 2;
  }

  async step(index) {
    if (this.failedDecision || this.escaped !== null) return;
    const position = index >> 1;
    if (index % 2 === 0) this.checkEnabled(position);
    else if (this.consulted[position].outcome === "asking") await this.check(position);
  }

  checkEnabled(position) {
    const { host } = this;
    const permission = this.permissions[position];
    const entry = this.consulted[position];
    if (isAborted(host.signalOf(permission.owner))) {
      entry.outcome = "skipped";
      return;
    }
    entry.outcome = "asking";
    host.phase = "permission.isEnabled";
    try {
      // Only a literal false skips here, as in Letta.
      if (permission.isEnabled?.(withTrap(host, permission.owner, host.context())) === false) entry.outcome = "disabled";
    } catch (error) {
      this.enableFailed(position, error);
    }
  }

  enableFailed(position, error, fault) {
    if (this.settled.has(2 * position)) return;
    this.settled.add(2 * position);
    const permission = this.permissions[position];
    const capability = { id: permission.id, kind: "permission" };
    const entry = { owner: permission.owner, phase: "permission.isEnabled", capability, fault };
    this.diagnostics.push(recordOnce(this.host, error, entry));
    this.consulted[position].outcome = "enable_failed";
  }

  async check(position) {
    const { host } = this;
    const permission = this.permissions[position];
    host.phase = "permission.check";
    const ctx = withTrap(host, permission.owner, { ...host.context(), signal: host.signalOf(permission.owner) });
    let answer;
    try {
      answer = await callMod(permission.check, permission, [this.event, ctx]);
    } catch (error) {
      this.checkFailed(position, error);
      return;
    }
    if (this.settled.has(2 * position + 1)) return;
    this.settled.add(2 * position + 1);
    const entry = this.consulted[position];
    let result;
    try {
      result = normalizePermissionResult(answer);
    } catch (error) {
      // Letta reads `.decision` outside its try: the whole check throws.
      entry.outcome = "escaped";
      const name = errorName(error);
      this.escaped = `${name ? `${name}: ` : ""}${errorText(error)}`;
      return;
    }
    if (!result) {
      entry.outcome = "no_opinion";
      return;
    }
    entry.outcome = "decided";
    entry.decision = result.decision;
    if (result.reason !== undefined) entry.reason = result.reason;
    this.decisions.push({ decision: result.decision, matchedRule: matchedRule(permission.id), reason: result.reason });
  }

  checkFailed(position, error, fault) {
    if (this.settled.has(2 * position + 1)) return;
    this.settled.add(2 * position + 1);
    const permission = this.permissions[position];
    const capability = { id: permission.id, kind: "permission" };
    const entry = { owner: permission.owner, phase: "permission.check", capability, fault };
    this.diagnostics.push(recordOnce(this.host, error, entry));
    this.consulted[position].outcome = "failed";
    this.failedDecision = failedCheckDecision(permission.id, error);
  }

  fail(index, error, fault) {
    if (index % 2 === 0) this.enableFailed(index >> 1, error, fault);
    else this.checkFailed(index >> 1, error, fault);
  }

  finish() {
    const { event, consulted, diagnostics } = this;
    if (this.escaped !== null) return { outcome: "threw", message: this.escaped, event, consulted, diagnostics };
    const decision = this.failedDecision ?? composePermissionDecision(this.decisions) ?? null;
    return { outcome: "decided", decision, event, consulted, diagnostics };
  }
}

/**
 * Runs a registered slash command as Letta's command runtime does: ctx
 * carries `rawInput`, `command`, `args` and the quote-aware `argv`; the
 * result is checked and normalised; Letta's 30 s limit races it on the
 * virtual clock. Arguments: `command` (id without "/"), `args` (raw text).
 */
export class RunCommandOperation {
  constructor(host, { command, args = "" }) {
    this.host = host;
    const rawInput = `/${command} ${args}`.trim();
    const parsed = parseSlashCommand(rawInput);
    this.invocation = {
      rawInput,
      command: parsed ? parsed.command : command,
      args: parsed ? parsed.args : "",
      argv: parsed ? parseCommandArgv(parsed.args) : [],
    };
    this.command = parsed ? host.registry.commands.get(parsed.command) ?? null : null;
    this.result = null;
    this.failure = null;
    this.diagnostics = [];
    this.timer = null;
  }

  stepCount() {
    return this.command ? 1 : 0;
  }

  async step() {
    const { host, command, invocation } = this;
    host.phase = "command.run";
    const base = host.context();
    const conversation = { ...conversationHandle(base.sessionId), id: base.sessionId };
    const ctx = withTrap(host, command.owner, { ...base, ...invocation, argv: [...invocation.argv], conversation });
    const timeout = new HostPromise((_resolve, reject) => {
      this.timer = setHostTimeout(() => reject(new Error(`Mod command timed out after ${COMMAND_TIMEOUT_MS}ms`)), COMMAND_TIMEOUT_MS);
    });
    try {
      const returned = await HostPromise.race([HostPromise.resolve(callMod(command.run, command, [ctx])), timeout]);
      const result = normalizeCommandResult(returned);
      if (this.failure === null) this.result = result;
    } catch (error) {
      this.failed(error);
    } finally {
      clearHostTimeout(this.timer);
    }
  }

  failed(error, fault) {
    if (this.failure !== null || this.result !== null) return;
    const { host, command } = this;
    const capability = { id: command.id, kind: "command" };
    this.diagnostics.push(recordOnce(host, error, { owner: command.owner, phase: "command.run", capability, fault }));
    this.failure = errorText(error);
  }

  fail(_index, error, fault) {
    this.failed(error, fault);
  }

  finish() {
    // A stopped step never reaches its finally.
    clearHostTimeout(this.timer);
    const { invocation, diagnostics } = this;
    if (!this.command) return { outcome: "not_registered", invocation, registered: [...this.host.registry.commands.keys()] };
    if (this.failure !== null) return { outcome: "failed", message: this.failure, invocation, diagnostics };
    return { outcome: "ran", result: this.result, text: commandResultText(this.result), invocation };
  }
}
