// Hostile: the tool_start handler rewrites event.args in place (command, plus
// a marker key on every Bash call) and THEN throws reading a missing
// `description`. The engine must roll args back to the pre-handler snapshot,
// so every Bash call keeps its original args and records a diagnostic.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";
const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: REMINDER }],
  }));

  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    event.args.command = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    event.args.uvChecked = true;
    const label = event.args.description.trim(); // TypeError: description is undefined
    event.args.description = `[uv] ${label}`;
  });
}
