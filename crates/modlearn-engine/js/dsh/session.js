// A DSH plugin's life in one engine: found in the module as DSH's loader
// finds it, plugged into the root under Cordis's own rules (inject gating,
// effects, rollback), `agent/session-start` once it is active, and
// `fiber.dispose()` as the owner's disposer. A plugin whose `inject` is
// never satisfied stays PENDING without an error, as in DSH.

import { FiberState, Service } from "../vendor/dsh.js";
import { hostService, patchedMethods, rootEffects, startRuntime } from "./runtime.js";
import { lettaModHint } from "../diagnostics.js";

const STATE_NAMES = Object.fromEntries(Object.entries(FiberState).filter(([, value]) => typeof value === "number").map(([name, value]) => [value, name]));

/**
 * The plugin a module exports: a default function, class or object with
 * `apply`; else the module's own `name`/`inject`/`apply` exports; else its
 * first exported Service subclass.
 */
export function pluginOf(namespace, path) {
  const main = namespace.default;
  if (typeof main === "function" || (main && typeof main.apply === "function")) return main;
  if (typeof namespace.apply === "function") {
    const plugin = { name: namespace.name, apply: namespace.apply };
    for (const key of ["inject", "Config", "provide"]) if (namespace[key] !== undefined) plugin[key] = namespace[key];
    return plugin;
  }
  const service = Object.values(namespace).find((value) => typeof value === "function" && value.prototype instanceof Service);
  if (service) return service;
  const letta = lettaModHint(namespace, "dsh");
  throw new Error(`Plugin module exports no plugin (a default function or object with apply, an apply export, or a Service class): ${path}${letta}`);
}

/** The runtime of this engine, started on the first load. */
async function runtimeOf(host) {
  host.dsh ??= await startRuntime(() => host.registry.generation);
  return host.dsh;
}

/**
 * Plugs the candidate into the root; resolves once Cordis has loaded it (or
 * parked it), to whether it is active: a parked plugin has not loaded.
 */
export async function activatePlugin(host, owner, namespace) {
  const { root, agent } = await runtimeOf(host);
  for (const stale of host.dshStale.splice(0)) {
    if (stale.state !== FiberState.DISPOSED) await Promise.resolve(stale.dispose()).catch(() => undefined);
  }
  const plugin = pluginOf(namespace, owner.path);
  const fiber = root.plugin(plugin);
  host.dshFibers.set(owner.id, fiber);
  host.dshLastOwner = owner;
  await fiber;
  // A disposed fiber's uid is null: keep it for the service reads recorded under it.
  host.dshUids.set(owner.id, fiber.uid);
  host.registry.disposers.push({ owner, disposer: () => fiber.dispose(), awaited: true });
  if (fiber.state !== FiberState.ACTIVE) return false;
  root.emit("agent/session-start", { agent, source: "startup" });
  return true;
}

/** The candidate of this generation and its fiber, while it is loaded (before its dispose). */
export function loadedCandidate(host) {
  const [entry] = host.dshFibers;
  const owner = entry ? host.registry.owners[entry[0]] : undefined;
  return owner ? { owner, fiber: entry[1] } : null;
}

/** Plugins parked in PENDING, each with the injected services that have no provider. */
export function pendingPlugins(host) {
  const pending = [];
  for (const [id, fiber] of host.dshFibers) {
    if (fiber.state !== FiberState.PENDING || fiber.uid === null) continue;
    const root = host.dsh.root;
    const missing = Object.keys(fiber.inject ?? {}).filter((name) => hostService(root, name) === undefined);
    pending.push({ mod: id, plugin: String(fiber.runtime?.name ?? ""), state: STATE_NAMES[fiber.state], missing });
  }
  return pending;
}

/** Event names the candidate listens to, with counts, read from its effects' labels (`ctx.on("name")`). */
export function listenedEvents(fiber) {
  const counts = Object.create(null);
  if (!fiber || fiber.uid === null) return counts;
  const visit = (effects) => {
    for (const effect of effects ?? []) {
      const match = /^ctx\.(?:on|once)\("([^"]+)"\)$/.exec(String(effect.label));
      if (match) counts[match[1]] = (counts[match[1]] ?? 0) + 1;
      visit(effect.children);
    }
  };
  visit(fiber.getEffects());
  return counts;
}

/**
 * What a plugin left on the root once it is gone: listeners registered with
 * `ctx.root.on` and plugins started with `ctx.root.plugin` belong to the root,
 * so Cordis sweeps neither when the plugin unloads; nor does anything undo a
 * method it replaced on a host service or the event bus. Each is reported as the
 * subscription of the last DSH candidate loaded. No mod code runs.
 */
export function strandedEffects(host) {
  if (!host.dsh || !host.dshLastOwner) return [];
  const { root, baseline } = host.dsh;
  const known = new Set([...baseline.hooks.map((entry) => entry.hook), ...baseline.fibers.map((entry) => entry.fiber)]);
  const live = new Set(host.dshFibers.values());
  const active = [...live].some((fiber) => fiber.state === FiberState.ACTIVE);
  const owner = host.dshLastOwner;
  const now = rootEffects(root);
  const stranded = [
    ...now.hooks.filter(({ hook }) => !known.has(hook) && (hook.ctx?.fiber === root.fiber || !live.has(hook.ctx?.fiber))).map(({ name }) => name),
    ...now.fibers.filter(({ fiber }) => !known.has(fiber) && !live.has(fiber) && fiber.state !== FiberState.DISPOSED).map(({ name }) => `plugin:${name}`),
    ...(!active ? patchedMethods(baseline.methods, now.methods).map((method) => `patched:${method}`) : []),
  ];
  return stranded.map((channel) => ({ mod: owner.id, generation: owner.generation, channel }));
}

/**
 * This generation's plugin's services: what its `inject` declares, and what
 * it and the plugins it started read through their contexts. Null when no
 * plugin loaded.
 */
export function serviceUse(host) {
  // This generation's plugin, also once disposed (a lifecycle check may have unloaded it):
  // what it read is recorded per fiber either way.
  const [entry] = host.dshFibers;
  const fiber = entry?.[1];
  if (!fiber || !host.dsh || (fiber.state !== FiberState.ACTIVE && fiber.state !== FiberState.DISPOSED)) return null;
  const uid = host.dshUids.get(entry[0]);
  const used = [];
  const generation = host.registry.generation;
  for (const read of host.dsh.reads) {
    const its = read.viaRoot === undefined ? read.chain.includes(uid) : read.viaRoot === generation;
    if (its && !used.includes(read.name)) used.push(read.name);
  }
  return { declared: Object.keys(fiber.inject ?? {}), used, incomplete: host.dsh.reads.dropped > 0 };
}
