// A Pi extension's life in one engine: the factory call, `session_start`
// once it has loaded (reason `reload` on every load after the first, as Pi's
// /reload does), and `session_shutdown`, Pi's only cleanup hook, as the
// owner's disposer. The shared `pi.events` bus belongs to the engine, not to
// a load generation, so a subscription an extension never undoes outlives it.

import { createPiHandle, piContext } from "./handle.js";
import { lettaModHint } from "../diagnostics.js";

/**
 * Pi's error for a module whose default export is not a factory, and, for a
 * Letta mod, which dialect it is written for.
 */
export function notAFactory(path, namespace) {
  const letta = lettaModHint(namespace, "pi", "export default function (pi) { ... }");
  return new Error(`Extension does not export a valid factory function: ${path}${letta}`);
}

/** Runs the factory with a fresh `pi`; returns once it (and its promise) settled. */
export async function activateExtension(host, owner, namespace) {
  const factory = namespace.default;
  if (typeof factory !== "function") throw notAFactory(owner.path, namespace);
  const loading = { active: true };
  try {
    await factory(createPiHandle(host, owner, loading));
  } finally {
    loading.active = false;
  }
  host.registry.disposers.push({ owner, disposer: () => runLifecycle(host, owner, "session_shutdown", { reason: "quit" }), awaited: true });
}

/** The `session_start` step of a load: the owner's handlers, in registration order. */
export function startSession(host, owner) {
  const reason = host.piSessions > 0 ? "reload" : "startup";
  host.piSessions += 1;
  return runLifecycle(host, owner, "session_start", { reason });
}

async function runLifecycle(host, owner, event, payload) {
  const handlers = (host.registry.piHandlers[event] ?? []).filter((entry) => entry.owner.id === owner.id);
  for (const entry of handlers) {
    try {
      await entry.handler({ type: event, ...payload }, piContext(host, owner));
    } catch (error) {
      host.record({ owner, phase: event === "session_start" ? "event" : "dispose", error, capability: { id: event, kind: "event" } });
    }
  }
}

/** Subscriptions on the `pi.events` bus whose owner is no longer loaded. */
export function strandedSubscriptions(host) {
  return host.piBus
    .filter((entry) => !host.isLive(entry.owner))
    .map((entry) => ({ mod: entry.owner.id, generation: entry.owner.generation, channel: entry.channel }));
}
