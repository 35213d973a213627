// Partial: the reminder is appended with role "user" (wrapped in a
// system-reminder tag), so a check for an appended *system* message fails.

const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [
      ...event.input,
      {
        type: "message",
        role: "user",
        content: "<system-reminder>Use `uv pip install` instead of `pip install`.</system-reminder>",
      },
    ],
  }));

  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
