// Proposal: async handlers, named functions removed with letta.events.off()
// in the disposer (instead of the disposers returned by on()).

const REMINDER_TEXT =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

export async function activate(letta) {
  const seen = new Set();

  async function appendReminder(event) {
    return { input: event.input.concat({ type: "message", role: "system", content: REMINDER_TEXT }) };
  }

  async function watchBash(event) {
    if (event.toolName !== "Bash") return undefined;
    const command = typeof event.args.command === "string" ? event.args.command.trim() : "";
    if (/^(npm|cargo|go) test\b|^pytest\b/.test(command)) seen.add(command);
    return undefined;
  }

  letta.events.on("turn_start", appendReminder);
  letta.events.on("tool_start", watchBash);

  return () => {
    letta.events.off("turn_start", appendReminder);
    letta.events.off("tool_start", watchBash);
    seen.clear();
  };
}
