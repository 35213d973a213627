// Subtly wrong: content is a function whose name is the reminder text (JSON.stringify(fn) is undefined).
const TEXT = "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";
export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    const content = Object.defineProperty(function () {}, "name", { value: TEXT });
    event.input.push({ type: "message", role: "system", content });
  });
  letta.events.on("tool_start", () => {});
}
