// Odd: content is one text part whose `text` is a String object.
const PIP = /(^|&&|\|\||;|\|)(\s*)(?:python3?\s+-m\s+)?pip\s+install(?=\s|$)/g;
export function activate(letta) {
  letta.events.on("turn_start", (event) => { event.input.push({ type: "message", role: "system", content: [{ type: "text", text: new String("Use uv pip install for packages.") }] }); });
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
    const command = event.args.command.replace(PIP, (_m, op, sp) => op + sp + "uv pip install");
    if (command !== event.args.command) return { args: { ...event.args, command } };
  });
}
