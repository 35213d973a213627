// dns.promises.lookup started in activate and not awaited: Bun resolves off the thread, so it has not settled by the first event.
import dns from "node:dns";
const MSG = { type: "message", role: "system", content: "Use `uv pip install` for Python packages." };
let ready = false;
export function activate(letta) {
  dns.promises.lookup("localhost").then(() => { ready = true; }, () => { ready = true; });
  letta.events.on("turn_start", (event) => { if (!ready) event.input.push(MSG); });
}
