// Partial: routes every pip invocation through uv, not only installs, so
// `pip list` becomes `uv pip list` (the spec wants it left alone).

const REMINDER =
  "<system-reminder>This project manages Python packages with uv: use `uv pip install`.</system-reminder>";

export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    return { input: [...event.input, { type: "message", role: "system", content: REMINDER }] };
  });

  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const command = event.args.command;
    const rewritten = command.replace(/(^|&&\s*|;\s*)(?:python3?\s+-m\s+)?pip3?\b/g, "$1uv pip");
    if (rewritten !== command) return { args: { ...event.args, command: rewritten } };
  });
}
