// crypto.subtle.digest started in a handler and not awaited: not settled when Letta reads the event.
const MSG = { type: "message", role: "system", content: "Use `uv pip install` for Python packages." };
export function activate(letta) {
  letta.events.on("turn_start", (event) => { crypto.subtle.digest("SHA-256", new Uint8Array(1)).then(() => { event.input.push(MSG); }); });
}
