// Partial: a correct rewriter, but the turn_start reminder was left out.

const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash") return;
    const command = event.args.command;
    if (typeof command !== "string") return;
    const rewritten = command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== command) return { args: { ...event.args, command: rewritten } };
  });
}
