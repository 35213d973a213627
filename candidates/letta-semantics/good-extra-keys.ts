// Rewrites pushes and records why in an extra `dryRunReason` key: Letta's rewrite check looks
// only at the expected keys, so the extra one is fine.
export function activate(letta: any) {
  const offTool = letta.events.on("tool_start", (event: any) => {
    const command = event.args.command;
    if (event.toolName !== "Bash" || typeof command !== "string" || !/^git push\b/.test(command)) return;
    if (command.includes("--dry-run")) return;
    return { args: { ...event.args, command: command.replace(/^git push/, "git push --dry-run"), dryRunReason: "policy" } };
  });
  const offTurn = letta.events.on("turn_start", (event: any) => ({
    input: [...event.input, { type: "message", role: "system", content: "git push is always --dry-run." }],
  }));
  return () => {
    offTool();
    offTurn();
  };
}
