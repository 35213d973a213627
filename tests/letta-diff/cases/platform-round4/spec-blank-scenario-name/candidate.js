export function activate(letta) {
  letta.events.on("turn_start", (e) => ({ input: [...e.input, { type: "message", role: "system", content: "Use uv." }] }));
}
