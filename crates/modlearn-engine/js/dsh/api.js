// What the host calls of the DSH dialect. The engine evaluates this before the seal in DSH
// engines only (`Booted::for_dialect`), so Letta and Pi engines never evaluate DSH's runtime.
import { provideRuntime } from "../dialect-runtimes.js";
import { dshRegistrations } from "./events.js";
import { syncRegistry } from "./registry.js";
import { activatePlugin, pendingPlugins, serviceUse, strandedEffects } from "./session.js";

provideRuntime("dsh", { activatePlugin, pendingPlugins, serviceUse, strandedEffects, dshRegistrations, syncRegistry });
