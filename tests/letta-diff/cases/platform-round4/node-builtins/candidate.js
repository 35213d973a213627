import { performance } from "node:perf_hooks";
export function activate(letta) {
  const started = performance.now();
  letta.events.on("turn_start", (e) => ({ input: [...e.input, { type: "message", role: "system", content: "Use uv." }] }));
  void started;
}
