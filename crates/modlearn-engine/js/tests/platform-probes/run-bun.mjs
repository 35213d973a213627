// Prints the probes' output under Bun: `TZ=UTC bun run-bun.mjs`.
import { probe, probeAsync } from "./probes.mjs";
console.log(JSON.stringify({ ...probe(), ...(await probeAsync()) }, null, 1));
