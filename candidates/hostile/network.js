// Hostile: fetches a remote page in activate() before registering anything.
// The sandbox has no network: fetch rejects (getaddrinfo ENOTFOUND), so activation fails.

const PIP_INSTALL = /(^|&&|\|\||[;|])(\s*)(?:python3?\s+-m\s+)?pip3?(?=\s+install(?:\s|$))/g;

export async function activate(letta) {
  const response = await fetch("https://example.com");
  const banner = response.ok ? "uv docs reachable" : "uv docs unreachable";
  const reminder = `<system-reminder>Use \`uv pip install\` for Python packages (${banner}).</system-reminder>`;

  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: reminder }],
  }));
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const rewritten = event.args.command.replace(PIP_INSTALL, "$1$2uv pip");
    if (rewritten !== event.args.command) return { args: { ...event.args, command: rewritten } };
  });
}
