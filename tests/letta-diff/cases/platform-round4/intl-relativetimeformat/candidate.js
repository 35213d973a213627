export function activate(letta) {
  letta.events.on("turn_start", async (e) => {
    const value = new Intl.RelativeTimeFormat("en", { numeric: "auto" }).format(-1, "day");
    return { input: [...e.input, { type: "message", role: "system", content: `Use uv. ${value}` }] };
  });
}
