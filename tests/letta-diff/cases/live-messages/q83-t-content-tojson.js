// Odd: content is an object with toJSON returning the reminder text.
const TEXT = "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";
export function activate(letta) {
  letta.events.on("turn_start", (event) => ({ input: [...event.input, { type: "message", role: "system", content: { kind: "reminder", toJSON() { return TEXT; } } }] }));
  letta.events.on("tool_start", () => {});
}
