function pause(ms) { const end = Date.now() + ms; while (Date.now() < end) {} }
export function activate(letta) {
  letta.events.on("turn_start", (e) => {
    pause(20);
    return { input: [...e.input, { type: "message", role: "system", content: "Use uv." }] };
  });
}
