export function activate(letta) {
  const runtime = typeof Bun !== "undefined" ? "bun" : "node";
  letta.events.on("turn_start", (e) => ({ input: [...e.input, { type: "message", role: "system", content: `Use uv. (${runtime})` }] }));
}
