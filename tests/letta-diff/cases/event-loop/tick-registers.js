// Registers its turn_start handler from process.nextTick: under Letta's harness the tick has
// not run when the first event is dispatched, so turn_start finds no handler.
const REMINDER = "Install Python packages with `uv pip install`, not `pip install`.";

export function activate(letta) {
  const disposers = [];
  process.nextTick(() => {
    disposers.push(letta.events.on("turn_start", (event) => {
      event.input.push({ type: "message", role: "system", content: REMINDER });
    }));
  });
  disposers.push(letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || typeof event.args?.command !== "string") return;
    const command = event.args.command.replace(/(^|&&\s*|\|\|\s*|;\s*|\|\s*)(?:python3? -m )?pip install/g, "$1uv pip install");
    if (command !== event.args.command) return { args: { ...event.args, command } };
  }));
  return () => disposers.forEach((dispose) => dispose());
}
