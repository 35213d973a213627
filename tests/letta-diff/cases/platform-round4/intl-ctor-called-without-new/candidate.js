export function activate(letta) {
  letta.events.on("turn_start", async (e) => {
    const value = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return { input: [...e.input, { type: "message", role: "system", content: `Use uv. ${value}` }] };
  });
}
