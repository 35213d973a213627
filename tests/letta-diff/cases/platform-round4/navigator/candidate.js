export function activate(letta) {
  letta.events.on("turn_start", async (e) => {
    const value = typeof navigator.hardwareConcurrency;
    return { input: [...e.input, { type: "message", role: "system", content: `Use uv. ${value}` }] };
  });
}
