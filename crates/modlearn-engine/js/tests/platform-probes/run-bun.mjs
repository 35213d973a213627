// Prints the probes' output under Bun: `TZ=UTC bun run-bun.mjs`.
import { loopOrder, probe, probeAsync } from "./probes.mjs";
console.log(JSON.stringify({ ...probe(), ...(await probeAsync()), ...(await loopOrder()) }, null, 1));
