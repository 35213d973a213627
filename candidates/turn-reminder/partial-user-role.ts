// Partial: appends the right text, but as a "user" message, so a check for an
// appended system message finds nothing.

const REMINDER_TEXT: string =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

export function activate(letta: any): void {
  let lastTestCommand: string | null = null;

  letta.events.on("turn_start", (event: { input: object[] }) => ({
    input: [...event.input, { type: "message", role: "user", content: REMINDER_TEXT }],
  }));

  letta.events.on("tool_start", (event: { toolName: string; args: { command?: unknown } }) => {
    if (event.toolName === "Bash" && typeof event.args.command === "string" && event.args.command.includes("test")) {
      lastTestCommand = event.args.command;
    }
  });
}
