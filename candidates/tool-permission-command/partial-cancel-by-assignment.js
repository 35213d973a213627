// Like good-shell-guard.ts, but two handlers change the event in place
// instead of returning a result: turn_start assigns event.cancel (the engine
// only honours a returned cancel) and tool_end appends to event.output (only
// a returned result replaces it).
// Expected to fail: cancels-root-delete and hint-on-failure.

const RM_RF = /\brm\s+-(?:[a-zA-Z]*r[a-zA-Z]*f|[a-zA-Z]*f[a-zA-Z]*r)[a-zA-Z]*\b/;
const isRmRf = (command) => typeof command === "string" && RM_RF.test(command);

export function activate(letta) {
  let blocked = 0;
  letta.tools.register({
    name: "shell_risk",
    description: "Rate a shell command.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    requiresApproval: false,
    run: (ctx) => {
      if (typeof ctx.args.command !== "string" || ctx.args.command.trim() === "") {
        return { isError: true, content: [{ type: "text", text: "command is required" }] };
      }
      return { content: [{ type: "text", text: isRmRf(ctx.args.command) ? "high" : "low" }] };
    },
  });
  letta.permissions.register({
    id: "shell-guard",
    check: (event) => {
      if (event.toolName !== "Bash") return;
      return isRmRf(event.args.command) ? { decision: "deny", reason: "shell-guard" } : { decision: "allow" };
    },
  });
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash" || !isRmRf(event.args.command)) return;
    blocked += 1;
    return { result: { status: "error", output: `shell-guard: ${event.args.command} is blocked` } };
  });
  letta.events.on("tool_end", (event) => {
    if (event.toolName === "Bash" && event.status === "error") {
      event.output += "\nHint: run it alone.";
    }
  });
  letta.events.on("turn_end", (event) => {
    if (event.stopReason === "end_turn" && /TODO/.test(event.assistantMessage ?? "")) {
      return { continue: "There is still a TODO; keep working." };
    }
  });
  letta.events.on("turn_start", (event) => {
    const text = event.input.map((item) => (typeof item.content === "string" ? item.content : "")).join("\n");
    if (text.includes("rm -rf /")) event.cancel = { reason: "shell-guard: root delete" };
  });
  letta.commands.register({
    id: "guard",
    description: "shell-guard: explain or report",
    run: ({ argv }) =>
      argv[0] === "explain" && argv.length > 1
        ? { type: "prompt", content: `What could go wrong with \`${argv.slice(1).join(" ")}\`?` }
        : { type: "output", output: `shell-guard blocked ${blocked}` },
  });
  return () => {
    blocked = 0;
  };
}
