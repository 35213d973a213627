// Hostile: subscribes to "tool_started", which is not an event name. on()
// throws for unknown names, the throw escapes activate(), and the turn_start
// handler registered just before it is rolled back with the failed activation.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";
const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));

  letta.events.on("tool_started", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
