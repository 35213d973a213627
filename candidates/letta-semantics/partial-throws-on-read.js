// Rewrites pushes correctly, but its tool_start handler reads `event.args.command` of every
// tool: for Read there is none, so it throws. The scenario's later mod_loads still passes,
// as in Letta (it reads the registry as loading left it).
export function activate(letta) {
  letta.events.on("tool_start", (event) => {
    const command = event.args.command.trim();
    if (event.toolName === "Bash" && command.startsWith("git push") && !command.includes("--dry-run")) {
      return { args: { ...event.args, command: command.replace(/^git push/, "git push --dry-run") } };
    }
  });
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: "Pushes are --dry-run." }],
  }));
}
