// Broken: gates registration on a capability flag that does not exist
// (`events.shell`), so activate() returns without registering anything. It
// loads cleanly, which is all it does.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";

export function activate(letta) {
  if (!letta.capabilities?.events?.shell) return;

  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(/^(?:python3?\s+-m\s+)?pip3?(?=\s+install\b)/, "uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
