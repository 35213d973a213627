// Hostile: the turn_start handler reads pyproject.toml with Deno.readTextFile
// to tailor the reminder. There is no Deno global in the sandbox, so every
// turn_start dispatch fails; the tool_start rewriter is correct.

const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  letta.events.on("turn_start", async (event) => {
    const pyproject = await Deno.readTextFile("pyproject.toml");
    const managed = pyproject.includes("[tool.uv]") ? " (this project is uv-managed)" : "";
    const reminder = `<system-reminder>Use \`uv pip install\` for Python packages${managed}.</system-reminder>`;
    return { input: [...event.input, { type: "message", role: "system", content: reminder }] };
  });

  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
