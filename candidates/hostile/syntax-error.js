// Hostile: a uv-pip attempt with a syntax error (an unclosed object literal in
// the turn_start handler). The module cannot be parsed.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";

export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    return { input: [...event.input, { type: "message", role: "system", content: REMINDER ] };
  });

  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash") return;
    const command = event.args.command.replace(/^pip install/, "uv pip install");
    return { args: { ...event.args, command } };
  });
}
