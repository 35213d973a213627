// Broken: the default export is a plain object holding activate(), and no
// named `activate` is exported, so there is no factory function to call.

const REMINDER = "<system-reminder>Use `uv pip install` for Python packages.</system-reminder>";

export default {
  name: "uv-pip",
  activate(letta) {
    letta.events.on("turn_start", (event) => ({
      input: [...event.input, { type: "message", role: "system", content: REMINDER }],
    }));
    letta.events.on("tool_start", (event) => {
      if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
      const rewritten = event.args.command.replace(/^(?:python3?\s+-m\s+)?pip3?(?=\s+install\b)/, "uv pip");
      if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
    });
  },
};
