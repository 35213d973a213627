// Bun.file().text() started in activate and not awaited: Bun reads off the thread, so it has not settled by the first event.
const MSG = { type: "message", role: "system", content: "Use `uv pip install` for Python packages." };
let ready = false;
export function activate(letta) {
  const done = () => { ready = true; };
  Bun.file("/nonexistent-dir/x.txt").text().then(done, done);
  letta.events.on("turn_start", (event) => { if (ready) event.input.push(MSG); });
}
