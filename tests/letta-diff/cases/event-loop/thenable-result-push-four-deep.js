// A handler that returns a thenable and pushes from a promise chain four jobs deep: Letta awaits the thenable one job longer, so it sees the push.
const MSG = { type: "message", role: "system", content: "Use `uv pip install` for Python packages." };
export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    Promise.resolve().then(() => {}).then(() => {}).then(() => {}).then(() => { event.input.push(MSG); });
    return { then(resolve) { resolve(undefined); } };
  });
}
