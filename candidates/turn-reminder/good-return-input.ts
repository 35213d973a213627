// Proposal: return a fresh input array with the reminder appended; a separate
// tool_start observer remembers whether a test command has run and returns
// nothing, so tool args are never touched.

const REMINDER_TEXT: string =
  "<system-reminder>TEST-FIRST: Before editing any file, run the existing tests and note which ones fail.</system-reminder>";

const TEST_COMMAND: RegExp = /(^|&&|\|\||;)\s*(npm test|npm run test|cargo test|pytest|go test)\b/;

export function activate(letta: any): void {
  let testsRan: boolean = false;

  letta.events.on("turn_start", (event: { input: object[] }) => {
    const reminder = { type: "message", role: "system", content: REMINDER_TEXT };
    return { input: [...event.input, reminder] };
  });

  letta.events.on("tool_start", (event: { toolName: string; args: Record<string, unknown> }) => {
    if (event.toolName !== "Bash") return;
    const command = event.args.command;
    if (typeof command === "string" && TEST_COMMAND.test(command)) testsRan = true;
  });

  letta.events.on("conversation_open", () => {
    testsRan = false;
  });
}
