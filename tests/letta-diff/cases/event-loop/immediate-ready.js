// Becomes ready in a setImmediate: a handler that awaits a timer sees it ready (the loop turned),
// one that does not never does, under Letta's harness as in Bun.
let ready = false;

export function activate(letta) {
  setImmediate(() => {
    ready = true;
  });
  const offTurn = letta.events.on("turn_start", async (event) => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (ready) event.input.push({ type: "message", role: "system", content: "Use `uv pip install` for Python packages." });
  });
  const offTool = letta.events.on("tool_start", (event) => {
    if (!ready || event.toolName !== "Bash" || typeof event.args?.command !== "string") return;
    const command = event.args.command.replace(/(^|&&\s*|\|\|\s*|;\s*|\|\s*)(?:python3? -m )?pip install/g, "$1uv pip install");
    if (command !== event.args.command) return { args: { ...event.args, command } };
  });
  return () => {
    offTurn();
    offTool();
  };
}
