// Appends the reminder, but first marks the user's message as "seen" with a key holding
// `undefined`: Letta compares the original items with its stable JSON, so they changed.
export function activate(letta: any) {
  letta.events.on("tool_start", (event: any) => {
    if (event.toolName === "Bash" && /^git push\b/.test(String(event.args.command))) {
      return { args: { ...event.args, command: String(event.args.command).replace(/^git push/, "git push --dry-run") } };
    }
  });
  letta.events.on("turn_start", (event: any) => {
    for (const item of event.input) item.seenBy = undefined;
    return { input: [...event.input, { type: "message", role: "system", content: "Pushes are --dry-run." }] };
  });
}
