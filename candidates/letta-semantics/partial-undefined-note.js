// Clears a `note` it never set on every call it does not rewrite: `event.args.note = undefined`
// adds a key holding `undefined`, which Letta's stable JSON prints, so the args changed.
export function activate(letta) {
  letta.events.on("tool_start", (event) => {
    const command = event.args.command;
    if (event.toolName === "Bash" && typeof command === "string" && /^git push\b/.test(command)) {
      event.args.command = command.replace(/^git push/, "git push --dry-run");
      return;
    }
    event.args.note = undefined;
  });
  letta.events.on("turn_start", (event) => {
    event.input.push({ type: "message", role: "system", content: "Every git push is a --dry-run." });
  });
}
