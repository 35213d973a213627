// Partial: puts the reminder in FRONT of the input. Only appended items count
// as injected messages, so every turn_start check fails even though the
// reminder is present.

const REMINDER_TEXT =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [{ type: "message", role: "system", content: REMINDER_TEXT }, ...event.input],
  }));

  letta.events.on("tool_start", () => undefined);
}
