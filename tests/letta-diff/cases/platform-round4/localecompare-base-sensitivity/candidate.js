export function activate(letta) {
  letta.events.on("turn_start", async (e) => {
    const value = "straße".localeCompare("strasse", undefined, { sensitivity: "base" });
    return { input: [...e.input, { type: "message", role: "system", content: `Use uv. ${value}` }] };
  });
}
