// What a mod can see of Letta's own shapes: the order of letta.capabilities' keys and of the
// tool_start event's, import.meta.env, and a getter in the args read once to be judged.
const envKind = typeof import.meta.env;

export function activate(letta) {
  const caps = Object.keys(letta.capabilities).join(",");
  const events = Object.keys(letta.capabilities.events).join(",");
  const offTurn = letta.events.on("turn_start", (event) => {
    event.input.push({ type: "message", role: "system", content: `caps=${caps} events=${events} env=${envKind}` });
  });
  const offTool = letta.events.on("tool_start", (event) => {
    if (event.toolName === "Bash") return { args: { ...event.args, command: Object.keys(event).join(",") } };
    if (event.toolName === "Read") {
      let reads = 0;
      Object.defineProperty(event.args, "file_path", { get: () => (++reads === 1 ? "first" : "second"), enumerable: true, configurable: true });
    }
    return undefined;
  });
  return () => {
    offTurn();
    offTool();
  };
}
