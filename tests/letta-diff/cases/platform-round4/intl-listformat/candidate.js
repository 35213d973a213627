export function activate(letta) {
  letta.events.on("turn_start", async (e) => {
    const value = new Intl.ListFormat("en", { type: "conjunction" }).format(["pip", "poetry", "uv"]);
    return { input: [...e.input, { type: "message", role: "system", content: `Use uv. ${value}` }] };
  });
}
