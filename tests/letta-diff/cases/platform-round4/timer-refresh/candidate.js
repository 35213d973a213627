export function activate(letta) {
  const t = setTimeout(() => {}, 1000);
  t.refresh();
  clearTimeout(t);
  letta.events.on("turn_start", (e) => ({ input: [...e.input, { type: "message", role: "system", content: "Use uv." }] }));
}
