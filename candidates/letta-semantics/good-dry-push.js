// Makes every Bash `git push` a dry run and says so at turn start.
const PUSH = /^git push(?!\s+--dry-run)/;

export function activate(letta) {
  const off = [];
  off.push(letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    if (!PUSH.test(event.args.command)) return;
    return { args: { ...event.args, command: event.args.command.replace(PUSH, "git push --dry-run") } };
  }));
  off.push(letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: "git push runs as `git push --dry-run` here." }],
  })));
  return () => off.reverse().forEach((dispose) => dispose());
}
