export function activate(letta) {
  letta.events.on("turn_start", async (e) => {
    const value = ["alpha", "10", "_draft"].sort((a, b) => a.localeCompare(b)).join(",");
    return { input: [...e.input, { type: "message", role: "system", content: `Use uv. ${value}` }] };
  });
}
