// Odd: the reminder content is a String object (new String(...)), not a primitive.
const TEXT = "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";
export function activate(letta) {
  letta.events.on("turn_start", (event) => ({ input: [...event.input, { type: "message", role: "system", content: new String(TEXT) }] }));
  letta.events.on("tool_start", () => {});
}
