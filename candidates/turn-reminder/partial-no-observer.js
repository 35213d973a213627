// Partial: the reminder is right, but the required tool_start observer is
// missing, so there is no tool_start handler and every args-preservation check
// fails (they need at least one handler).

const REMINDER_TEXT =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER_TEXT }],
  }));
}
