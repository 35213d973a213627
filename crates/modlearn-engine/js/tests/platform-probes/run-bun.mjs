// Prints the probes' output under Bun: `TZ=UTC bun run-bun.mjs`.
import { probe } from "./probes.mjs";
console.log(JSON.stringify(probe(), null, 1));
