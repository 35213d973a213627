// Broken: checks a capability key with a typo (`turn` instead of `turns`), so
// it returns before registering anything. Loads cleanly and does nothing.

const REMINDER_TEXT =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

export function activate(letta) {
  if (!letta.capabilities?.events?.turn) return;

  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER_TEXT }],
  }));
  letta.events.on("tool_start", () => undefined);
}
