import path from "node:path";
export function activate(letta) {
  letta.events.on("turn_start", async (e) => {
    const value = path.format({ dir: "/x", name: "y", ext: "txt" });
    return { input: [...e.input, { type: "message", role: "system", content: `Use uv. ${value}` }] };
  });
}
