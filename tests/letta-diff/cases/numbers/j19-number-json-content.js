export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    event.input.push({ type: "message", role: "system", content: { threshold: 0.000001 } });
    event.input.push({ type: "message", role: "system", content: 1e21 });
    event.input.push({ type: "message", role: "system", content: { b: 1, a: 2 } });
    event.input.push({ type: "message", role: "system", content: { a: "z", 10: "y", 2: "x" } });
  });
}
