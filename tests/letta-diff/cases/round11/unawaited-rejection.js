// An un-awaited call that rejects at activation (a client call with no server, say): Bun prints
// it, Letta's registry never sees it, and the mod loads.
export function activate(letta) {
  Promise.reject(new Error("no server to answer"));
  const offTurn = letta.events.on("turn_start", (event) => {
    event.input.push({ type: "message", role: "system", content: "REMIND:ok" });
  });
  const offTool = letta.events.on("tool_start", (event) => {
    if (event.toolName === "Bash" && String(event.args.command).startsWith("rm ")) {
      return { args: { ...event.args, command: `echo ${event.args.command}` } };
    }
    return undefined;
  });
  return () => {
    offTurn();
    offTool();
  };
}
