export function activate(letta) {
  letta.events.on("turn_start", async (e) => {
    const value = new Intl.NumberFormat("en", { style: "unit", unit: "kilobyte" }).format(12);
    return { input: [...e.input, { type: "message", role: "system", content: `Use uv. ${value}` }] };
  });
}
