// crypto.subtle.digest started in activate and not awaited: Bun hashes off the thread, so it has not settled by the first event.
const MSG = { type: "message", role: "system", content: "Use `uv pip install` for Python packages." };
let ready = false;
export function activate(letta) {
  crypto.subtle.digest("SHA-256", new TextEncoder().encode("x")).then(() => { ready = true; });
  letta.events.on("turn_start", (event) => { if (ready) event.input.push(MSG); });
}
