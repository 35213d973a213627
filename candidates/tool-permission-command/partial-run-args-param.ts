// Like good-shell-guard.ts, but the tool is written Pi-style: run(ctx, args)
// reads a second parameter that Letta never passes, and it leaves out
// requiresApproval (so the tool asks for approval).
// Expected to fail: risk-tool-registered (requiresApproval true, policy
// `ask`) and all three tool_run_returns checks (run throws a TypeError, so
// every call is an `error` result without "command is required").

const RM_RF: RegExp = /\brm\s+-(?:[a-zA-Z]*r[a-zA-Z]*f|[a-zA-Z]*f[a-zA-Z]*r)[a-zA-Z]*\b/;
const isRmRf = (command: unknown): boolean => typeof command === "string" && RM_RF.test(command);

export function activate(letta: any): () => void {
  const off: Array<() => void> = [];
  off.push(
    letta.tools.register({
      name: "shell_risk",
      description: "Rate a shell command.",
      parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
      run(_ctx: unknown, args: { command?: string }) {
        if (!args.command) return { status: "error", output: "command is required" };
        return isRmRf(args.command) ? "high" : "low";
      },
    }),
  );
  off.push(
    letta.permissions.register({
      id: "shell-guard",
      check(event: { toolName: string; args: Record<string, unknown> }) {
        if (event.toolName !== "Bash") return undefined;
        return isRmRf(event.args.command) ? { decision: "deny", reason: "shell-guard: no rm -rf" } : { decision: "allow" };
      },
    }),
  );
  off.push(
    letta.events.on("tool_start", (event: { toolName: string; args: Record<string, unknown> }) => {
      if (event.toolName === "Bash" && isRmRf(event.args.command)) {
        return { result: { status: "error", output: `shell-guard: refused ${String(event.args.command)}` } };
      }
      return undefined;
    }),
  );
  off.push(
    letta.events.on("tool_end", (event: { toolName: string; status: string; output: string }) =>
      event.toolName === "Bash" && event.status === "error"
        ? { result: { status: "error", output: `${event.output}\nHint: run it again on its own.` } }
        : undefined,
    ),
  );
  off.push(
    letta.events.on("turn_end", (event: { assistantMessage?: string }) =>
      event.assistantMessage?.includes("TODO") ? { continue: "Do the TODO items first." } : undefined,
    ),
  );
  off.push(
    letta.events.on("turn_start", (event: { input: Array<{ content?: unknown }> }) =>
      event.input.some((item) => typeof item.content === "string" && item.content.includes("rm -rf / "))
        ? { cancel: { reason: "shell-guard: no root deletes" } }
        : undefined,
    ),
  );
  off.push(
    letta.commands.register({
      id: "guard",
      description: "shell-guard helper",
      run: (ctx: { argv: string[] }) =>
        ctx.argv[0] === "explain"
          ? { type: "prompt", content: `Explain \`${ctx.argv.slice(1).join(" ")}\`.` }
          : { type: "output", output: "shell-guard: active" },
    }),
  );
  return () => off.forEach((dispose) => dispose());
}
