// Like good-shell-guard.ts, but the tool_start block uses a status Letta does
// not know ("blocked"), so the engine ignores the result and the command would
// run; and /guard explain opts out of the <system-reminder> wrapping.
// Expected to fail: blocks-rm-rf and guard-explain.

const RM_RF = /\brm\s+-(?:[a-zA-Z]*r[a-zA-Z]*f|[a-zA-Z]*f[a-zA-Z]*r)[a-zA-Z]*\b/;
const isRmRf = (command) => typeof command === "string" && RM_RF.test(command);

export function activate(letta) {
  letta.tools.register({
    name: "shell_risk",
    description: "Rate a shell command.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    requiresApproval: false,
    run(ctx) {
      const command = ctx.args.command;
      if (typeof command !== "string" || !command.trim()) return { success: false, error: "command is required" };
      return isRmRf(command) ? { output: "high risk" } : "low";
    },
  });
  letta.permissions.register({
    id: "shell-guard",
    check(event) {
      if (event.toolName !== "Bash") return undefined;
      return isRmRf(event.args.command) ? { decision: "deny" } : { decision: "allow" };
    },
  });
  letta.events.on("tool_start", (event) => {
    if (event.toolName === "Bash" && isRmRf(event.args.command)) {
      return { result: { status: "blocked", output: `shell-guard: blocked ${event.args.command}` } };
    }
  });
  letta.events.on("tool_end", (event) => {
    if (event.toolName === "Bash" && event.status === "error") {
      return { result: { status: "error", output: event.output + "\nHint: try it alone." } };
    }
  });
  letta.events.on("turn_end", (event) => {
    if (/TODO/.test(event.assistantMessage || "")) return { continue: "TODO items remain; continue." };
  });
  letta.events.on("turn_start", (event) => {
    for (const item of event.input) {
      if (item.role === "user" && typeof item.content === "string" && item.content.includes("rm -rf /")) {
        return { cancel: { reason: "shell-guard: root delete requested" } };
      }
    }
  });
  letta.commands.register({
    id: "guard",
    description: "shell-guard commands",
    run(ctx) {
      if (ctx.argv[0] === "explain") {
        return { type: "prompt", content: `Explain \`${ctx.argv.slice(1).join(" ")}\``, systemReminder: false };
      }
      return { type: "output", output: "shell-guard: on" };
    },
  });
}
