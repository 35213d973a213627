// Event dispatch, as Letta Code's emitLocalModEvent does it, split into
// steps (begin, one step per handler, finish) so the Rust side can put a
// time budget on each handler and resume dispatch after one that never ends.

import { hasApproval, isTurnStartInput, normalizeCancelReason, preserveApprovalFirst } from "./turn-start.js";
import { validateEventName } from "./registry.js";
// The module's own copy: a mod replacing globalThis.structuredClone must not change dispatch.
import { structuredCloneValue as structuredClone } from "./clone.js";

function isArgsObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isToolResult(value) {
  return (
    value !== null &&
    typeof value === "object" &&
    (value.status === "success" || value.status === "error") &&
    typeof value.output === "string"
  );
}

/**
 * Starts an emission. Handlers registered from here on do not run in it.
 * A turn_start event whose input is not an array fails here, as in Letta.
 */
export function beginEmission(registry, name, event, routed = undefined) {
  validateEventName(name);
  // `routed`: another dialect's handlers, already adapted to this core event.
  const registrations = routed ?? (registry ? [...registry.events[name]] : []);
  const hadApproval = name === "turn_start" ? computeHadApproval(event) : false;
  return { name, event, registrations, hadApproval, cancelReason: undefined, diagnostics: [], results: [], snapshot: null };
}

function computeHadApproval(event) {
  if (!Array.isArray(event.input)) throw new TypeError("turn_start event input must be an array");
  return hasApproval(event.input);
}

/** Takes the pre-handler copy that a throwing or invalid handler is rolled back to. */
export function snapshotBeforeHandler(emission) {
  const { name, event } = emission;
  emission.snapshot = null;
  if (name === "turn_start" && isTurnStartInput(event.input)) {
    emission.snapshot = { key: "input", value: event.input.map((item) => structuredClone(item)) };
  } else if (name === "tool_start" && isArgsObject(event.args)) {
    let copy;
    try {
      copy = structuredClone(event.args);
    } catch {
      copy = { ...event.args };
    }
    emission.snapshot = { key: "args", value: copy };
  }
}

/** Puts back the pre-handler copy, if one was taken. */
export function rollback(emission) {
  if (emission.snapshot) emission.event[emission.snapshot.key] = emission.snapshot.value;
}

/** Applies one handler's return value (each rule independent, first valid wins where Letta says so). */
export function applyResult(emission, result) {
  const { name, event } = emission;
  if (result != null && typeof result === "object") {
    if (name === "turn_start") {
      if (isTurnStartInput(result.input)) event.input = result.input;
      const reason = normalizeCancelReason(result.cancel);
      if (reason !== undefined && emission.cancelReason === undefined) emission.cancelReason = reason;
    } else if (name === "tool_start") {
      if (isArgsObject(result.args)) event.args = result.args;
      if (isToolResult(result.result) && !event.result) event.result = result.result;
    } else if (name === "tool_end") {
      if (isToolResult(result.result) && !event.result) event.result = result.result;
    } else if (name === "turn_end") {
      if (typeof result.continue === "string" && result.continue !== "" && !event.continue) {
        event.continue = result.continue;
      }
    }
  }
  if (result != null) emission.results.push(result);
  // A handler may leave the shared event invalid without throwing.
  if (name === "turn_start" && !isTurnStartInput(event.input)) rollback(emission);
  if (name === "tool_start" && !isArgsObject(event.args)) rollback(emission);
}

/** Rolls back and records a handler failure as an `event` diagnostic. */
export function handlerFailed(emission, diagnostic) {
  rollback(emission);
  emission.diagnostics.push(diagnostic);
}

/** Letta's final touches and the emission result. */
export function finishEmission(emission) {
  const { name, event } = emission;
  if (name === "turn_start") {
    event.input = preserveApprovalFirst(emission.hadApproval, event.input);
    if (emission.cancelReason !== undefined) event.cancel = { reason: emission.cancelReason };
    else delete event.cancel;
  }
  return {
    diagnostics: emission.diagnostics,
    handlerCount: emission.registrations.length,
    name,
    results: emission.results,
  };
}
