// Hostile: registers working handlers, then spins forever "waiting" for a flag
// that nothing can set. Activation never returns.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";
const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });

  let ready = false;
  while (true) {
    if (ready) break;
  }
}
