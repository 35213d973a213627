// Broken: uses a Pi-style `letta.on(...)` instead of `letta.events.on(...)`.
// letta.on is undefined, so activate() throws a TypeError and the mod fails to
// load.

const REMINDER_TEXT =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

export function activate(letta) {
  letta.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER_TEXT }],
  }));
  letta.on("tool_start", () => undefined);
}
