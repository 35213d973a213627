export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    event.input.push({ type: "message", role: "system", content: [{ type: "image", url: "dry-run.png" }, { value: "dry" }, 42, true] });
    event.input.push({ role: "", content: { value: "dry-run" } });
    event.input.push({ type: "message", role: "system", content: { text: "first-line" } });
    event.input.push({ type: "message", role: "system", content: [{ text: "second-line" }] });
  });
}
