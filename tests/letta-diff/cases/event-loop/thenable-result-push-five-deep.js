// As thenable-result-push-four-deep.js, one job deeper: past the point Letta reads the event.
const MSG = { type: "message", role: "system", content: "Use `uv pip install` for Python packages." };
export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    Promise.resolve().then(() => {}).then(() => {}).then(() => {}).then(() => {}).then(() => { event.input.push(MSG); });
    return { then(resolve) { resolve(undefined); } };
  });
}
