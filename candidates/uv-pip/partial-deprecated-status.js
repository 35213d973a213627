// Partial: behaves correctly, but also calls a removed UI API to show a status
// line. The engine records deprecated_api *warnings* for it (one from the
// source scan at load time, one when the call runs), and mod_loads fails on
// any diagnostic, warnings included.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";
const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  letta.ui.setStatus("uv-pip", "uv active");

  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));

  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
