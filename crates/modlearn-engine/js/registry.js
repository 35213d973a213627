// The registry of one load generation: who is loaded, and what each mod
// registered. Also the validation Letta applies to each registration.

import { EVENT_CAPABILITY } from "./capabilities.js";

/** Source scopes, lowest priority first. */
export const SCOPE_PRIORITY = Object.freeze({ legacy_global: 0, bundled: 1, global: 2, agent: 3, project: 4 });

/**
 * An empty registry for `generation`. Its tables by key have no prototype:
 * a key missing from them must not be found on Object.prototype, which mods
 * can write (an owner looked up there would make a stale handle live).
 */
export function createRegistry(generation) {
  const events = Object.create(null);
  for (const name of Object.keys(EVENT_CAPABILITY)) events[name] = [];
  return {
    generation,
    owners: Object.create(null),
    controllers: Object.create(null),
    events,
    /** Handler counts by event name of a Pi extension (read from Pi's runner) or a DSH plugin (from its fiber). */
    hostEvents: Object.create(null),
    tools: new Map(),
    commands: new Map(),
    permissions: new Map(),
    providers: new Map(),
    panels: new Map(),
    diagnostics: [],
    loadedPaths: [],
    /** `{owner, disposer}` in load order. */
    disposers: [],
  };
}

/**
 * Handler count per event name: Letta's ten (with `zeros`, every one of them),
 * then a Pi extension's events under their Pi names or the events a DSH
 * plugin's fiber listens to.
 */
export function eventCounts(registry, { zeros }) {
  // No prototype: a setter a mod put on Object.prototype must not swallow a count.
  const counts = Object.create(null);
  for (const [name, list] of Object.entries(registry.events)) {
    if (zeros || list.length > 0) counts[name] = list.length;
  }
  for (const [name, count] of Object.entries(registry.hostEvents)) {
    if (count > 0) counts[name] = count;
  }
  return counts;
}

/** Throws Letta's error for names outside the ten events. */
export function validateEventName(name) {
  if (!Object.hasOwn(EVENT_CAPABILITY, name)) {
    throw new Error(`Unsupported mod event '${String(name)}'`);
  }
}

const ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/;
const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Validates a tool name; used by register and unregister alike. */
export function validateToolName(name) {
  // As Letta's: the pattern tests the name as text, so the number 42 is a valid name.
  if (!TOOL_NAME_PATTERN.test(name)) {
    throw new Error(`Mod tool name '${String(name)}' must be 1-64 letters, digits, '_' or '-'`);
  }
}

/** Letta's tool normalisation: defaults, approval policy, schema shape. */
export function normalizeTool(tool) {
  if (!tool || typeof tool !== "object") throw new TypeError("Mod tool registration must be an object");
  validateToolName(tool.name);
  // A missing description fails inside .trim(), exactly as in Letta.
  if (tool.description.trim() === "") {
    throw new Error(`Mod tool '${tool.name}' must include a description`);
  }
  if (typeof tool.run !== "function") throw new Error(`Mod tool '${tool.name}' must include run(ctx)`);
  // As Letta: any falsy `parameters` (null, 0, "") is the empty schema.
  let parameters = tool.parameters;
  if (!parameters) {
    parameters = { type: "object", properties: {}, additionalProperties: false };
  } else if (typeof parameters !== "object" || Array.isArray(parameters)) {
    throw new Error("Mod tool parameters must be a JSON Schema object");
  } else if (parameters.type !== undefined && parameters.type !== "object") {
    throw new Error("Mod tool parameters schema must be an object schema");
  }
  let approvalPolicy;
  if (tool.approvalPolicy !== undefined) {
    if (!["auto", "ask", "alwaysAsk"].includes(tool.approvalPolicy)) {
      throw new Error(`Mod tool '${tool.name}' approvalPolicy must be "auto", "ask", or "alwaysAsk"`);
    }
    approvalPolicy = tool.approvalPolicy;
  } else {
    approvalPolicy = tool.requiresApproval === false ? "auto" : "ask";
  }
  // Letta keeps a truthy isEnabled of any type (calling one that is no function fails later)
  // and drops a falsy one.
  const { isEnabled, ...rest } = tool;
  return {
    ...rest,
    name: String(tool.name),
    ...(isEnabled ? { isEnabled } : {}),
    parameters,
    approvalPolicy,
    requiresApproval: approvalPolicy !== "auto",
    parallelSafe: tool.parallelSafe === true,
  };
}

/**
 * Validates a command or permission id as Letta does: a command id is asked `startsWith` (an id
 * that is no string fails there), a permission id is only matched as text (the number 7 passes).
 */
export function validateId(kind, id) {
  if (kind === "command" && id.startsWith("/")) throw new Error(`Mod command id '${String(id)}' must not start with '/'`);
  if (!ID_PATTERN.test(id)) throw new Error(`Mod ${kind} id '${String(id)}' must match /^[a-z0-9][a-z0-9-]*$/`);
}

/** Letta's command normalisation. */
export function normalizeCommand(command, ownerPath) {
  if (!command || typeof command !== "object") throw new TypeError("Mod command registration must be an object");
  validateId("command", command.id);
  if (command.description.trim() === "") throw new Error(`Mod command '${command.id}' must include a description`);
  if (typeof command.run !== "function") throw new Error(`Mod command '${command.id}' must include run(ctx)`);
  return {
    ...command,
    order: command.order ?? 250,
    runWhenBusy: command.runWhenBusy === true,
    showInTranscript: command.showInTranscript !== false,
    path: ownerPath,
  };
}

/** Letta's permission overlay normalisation. */
export function normalizePermission(permission) {
  if (!permission || typeof permission !== "object") throw new TypeError("Mod permission registration must be an object");
  validateId("permission", permission.id);
  if (typeof permission.check !== "function") throw new Error(`Mod permission '${permission.id}' must include check(event, ctx)`);
  // Letta keys its registry by the id as text, and so do the snapshots modlearn reads.
  return { ...permission, id: String(permission.id) };
}

/**
 * Collision rules shared by tools, commands and permissions: a higher
 * priority owner wins, equal priority throws unless `override` is allowed.
 */
export function checkCollision({ kind, key, existing, owner, override, allowOverride }) {
  if (!existing) return;
  // Thrown into the mod: the other owner as mods see it, never the host's path of the file.
  const other = existing.owner.seenAs ?? existing.owner.path;
  const mine = SCOPE_PRIORITY[owner.scope] ?? 0;
  const theirs = SCOPE_PRIORITY[existing.owner.scope] ?? 0;
  if (theirs > mine) {
    throw new Error(`Mod ${kind} '${key}' is already registered by higher-priority mod ${other}`);
  }
  if (mine > theirs) return;
  // Letta asks `!tool.override`: any truthy value overrides.
  if (allowOverride && override) return;
  throw new Error(`Mod ${kind} '${key}' is already registered by ${other}`);
}

/**
 * A tool another dialect's host registered, in the core registry's shape:
 * approved automatically (Pi and DSH have no approval policy on a tool) and
 * not parallel-safe; `run(ctx)` is the host's own call of it.
 */
export function dialectTool({ name, description, parameters, owner, run }) {
  const text = typeof description === "string" ? description : "";
  return { name, description: text, parameters, approvalPolicy: "auto", requiresApproval: false, parallelSafe: false, owner, path: owner.path, run };
}

/** A command another dialect's host registered, in the core registry's shape. */
export function dialectCommand({ id, description, owner, run }) {
  const text = typeof description === "string" ? description : "";
  return { id, description: text, order: 250, runWhenBusy: false, showInTranscript: true, owner, path: owner.path, run };
}

/** Removes everything `owner` registered (used when its activation fails). */
export function removeOwnerCapabilities(registry, owner) {
  for (const name of Object.keys(registry.events)) {
    registry.events[name] = registry.events[name].filter((entry) => entry.owner.id !== owner.id);
  }
  for (const map of [registry.tools, registry.commands, registry.permissions, registry.providers, registry.panels]) {
    for (const [key, entry] of map) {
      if (entry.owner.id === owner.id) map.delete(key);
    }
  }
  registry.disposers = registry.disposers.filter((entry) => entry.owner.id !== owner.id);
  delete registry.owners[owner.id];
}
