// What the host calls of the DSH dialect. Imported on a DSH plugin's first load (and
// preloaded by the engine template), so Letta and Pi engines never evaluate DSH's runtime.
export { activatePlugin, pendingPlugins, serviceUse, strandedEffects } from "./session.js";
export { dshRegistrations } from "./events.js";
export { syncRegistry } from "./registry.js";
