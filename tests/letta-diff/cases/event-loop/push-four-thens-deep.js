// A turn_start handler that pushes its reminder from a promise chain it does not await: Letta's
// harness reads the event a fixed number of promise jobs after the handler's result settles.
const MSG = { type: "message", role: "system", content: "Use `uv pip install` for Python packages." };
export function activate(letta) {
  const off = letta.events.on("turn_start", (event) => { Promise.resolve().then(() => {}).then(() => {}).then(() => {}).then(() => event.input.push(MSG)); });
  return () => off();
}
