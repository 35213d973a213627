// Partial: concatenates the reminder onto the last user message instead of
// appending a separate item. Nothing new is appended and an original item is
// changed, so every turn_start check fails. (With structured content the
// concatenation even produces "[object Object]".)

const REMINDER_TEXT =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    const lastUser = [...event.input].reverse().find((item) => item.role === "user");
    if (lastUser) lastUser.content = lastUser.content + "\n\n" + REMINDER_TEXT;
  });

  letta.events.on("tool_start", () => {});
}
