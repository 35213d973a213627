// Hostile: starts a background "version check" that rejects and is never
// awaited or caught, then registers correct handlers. Activation itself
// succeeds; the stray rejection is the only fault.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";
const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  Promise.reject(new Error("uv-pip: version check failed"));

  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
