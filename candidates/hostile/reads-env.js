// Was hostile when the sandbox had no `process`: reads process.env.HOME in activate() to
// build a uv cache path. The sandbox's virtual process answers HOME=/home/user, as Letta's would.

const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export function activate(letta) {
  const cacheDir = process.env.HOME + "/.cache/uv";
  const reminder = `<system-reminder>Use \`uv pip install\` for Python packages (cache: ${cacheDir}).</system-reminder>`;

  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: reminder }],
  }));
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
