// What the host calls of the Pi dialect. The engine evaluates this before the seal in Pi engines
// only (`Booted::for_dialect`), so Letta and DSH engines never evaluate Pi's runtime.
import * as Pi from "../vendor/pi.js";
import { provideRuntime } from "../dialect-runtimes.js";
import { piRegistrations } from "./probes.js";
import { syncRegistry } from "./registry.js";
import { PiSession } from "./session.js";

/** The engine's Pi session, made on the first load. */
function sessionOf(host) {
  host.pi ??= new PiSession(host);
  return host.pi;
}

/** Loads the extension of `namespace` for `owner` (the factory runs here) and binds it. */
async function activateExtension(host, owner, namespace) {
  const session = sessionOf(host);
  await session.load(owner, namespace);
  host.registry.disposers.push({ owner, disposer: () => session.shutdown("quit"), awaited: true });
}

/** `session_start`, once the extension has loaded. */
async function startSession(host) {
  if (host.pi?.current?.extension) await host.pi.start();
}

/** A new load generation: a new scenario starts a new session, a reload keeps it. */
function newGeneration(host, keepWorld) {
  host.pi?.newGeneration(keepWorld);
}

function strandedSubscriptions(host) {
  return host.pi?.stranded() ?? [];
}

provideRuntime("pi", { version: Pi.VERSION, activateExtension, startSession, newGeneration, piRegistrations, syncRegistry, strandedSubscriptions });
