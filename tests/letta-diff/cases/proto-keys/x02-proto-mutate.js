// Copy: mutates b in place; Assign: structuredClone; Keys: rebuilt with a for-in loop (own + inherited enumerable).
export function activate(letta) {
  letta.events.on("tool_start", (event) => {
    if (event.toolName === "Copy") event.args.b = 3;
    if (event.toolName === "Assign") return { args: structuredClone(event.args) };
    if (event.toolName === "Keys") { const o = {}; for (const k in event.args) o[k] = event.args[k]; return { args: o }; }
  });
}
