// Hostile: before rewriting, the tool_start handler counts occurrences of
// "pip" with indexOf but never moves past a match, so it loops forever on any
// command that contains "pip". Commands without "pip" (npm, brew, cargo) get
// past the loop and keep their args.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";
const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

function countPip(command) {
  let count = 0;
  let at = command.indexOf("pip");
  while (at !== -1) {
    count += 1;
    at = command.indexOf("pip", at); // bug: should search from at + 1
  }
  return count;
}

export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));

  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    if (countPip(event.args.command) === 0) return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
