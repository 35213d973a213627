// Like good-shell-guard.ts, but the overlay reads event.args.command.includes
// for every tool (a TypeError for Read, which has no command: Letta denies
// the call and records permission.check), and the tool hides itself unless
// the permission mode is "yolo" (the harness runs in "standard").
// Expected to fail: no-opinion-on-other-tools, and the three
// tool_run_returns checks (the tool is not available).

const RM_RF = /\brm\s+-(?:[a-zA-Z]*r[a-zA-Z]*f|[a-zA-Z]*f[a-zA-Z]*r)[a-zA-Z]*\b/;

export function activate(letta) {
  letta.tools.register({
    name: "shell_risk",
    description: "Rate a shell command.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    requiresApproval: false,
    isEnabled: (ctx) => ctx.permissionMode === "yolo",
    run: (ctx) => (typeof ctx.args.command === "string" && ctx.args.command.trim()
      ? (RM_RF.test(ctx.args.command) ? "high" : "low")
      : { status: "error", output: "command is required" }),
  });
  letta.permissions.register({
    id: "shell-guard",
    check(event) {
      if (event.args.command.includes("rm") && RM_RF.test(event.args.command)) {
        return { decision: "deny", reason: "shell-guard: recursive force delete" };
      }
      return event.toolName === "Bash" ? { decision: "allow" } : undefined;
    },
  });
  letta.events.on("tool_start", (event) => {
    if (event.toolName === "Bash" && RM_RF.test(String(event.args.command))) {
      return { result: { status: "error", output: `shell-guard: blocked ${event.args.command}` } };
    }
  });
  letta.events.on("tool_end", (event) => {
    if (event.toolName === "Bash" && event.status === "error") {
      return { result: { status: "error", output: `${event.output}\nHint: run it by itself.` } };
    }
  });
  letta.events.on("turn_end", (event) => (/TODO/.test(event.assistantMessage ?? "") ? { continue: "A TODO is open." } : undefined));
  letta.events.on("turn_start", (event) =>
    event.input.some((item) => item.role === "user" && String(item.content).includes("rm -rf /"))
      ? { cancel: { reason: "shell-guard: root delete" } }
      : undefined,
  );
  letta.commands.register({
    id: "guard",
    description: "shell-guard",
    run: (ctx) =>
      ctx.argv[0] === "explain"
        ? { type: "prompt", content: `Risks of \`${ctx.argv.slice(1).join(" ")}\`?` }
        : { type: "output", output: "shell-guard ready" },
  });
}
