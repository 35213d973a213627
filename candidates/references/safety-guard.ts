// Reference: a shell safety guard.
//   * permission overlay: deny `rm -rf /` (and `rm -rf /*`), always ask before
//     force-pushing, no opinion otherwise;
//   * tool_start: short-circuits a catastrophic rm with a synthetic error
//     result (the command never runs; args are left alone);
//   * tool `shell_risk`: classifies a command without running it
//     (read-only, so requiresApproval: false);
//   * command `/guard-status` (a no-op registration where commands are off,
//     e.g. headless);
//   * returns a disposer.

const ROOT_WIPE: RegExp = /(^|[;&|]\s*)(sudo\s+)?rm\s+(-[a-zA-Z]*r[a-zA-Z]*f[a-zA-Z]*|-[a-zA-Z]*f[a-zA-Z]*r[a-zA-Z]*|-r\s+-f|-f\s+-r)\s+\/(\*)?(\s|$)/;
const FORCE_PUSH: RegExp = /\bgit\s+push\b.*\s(--force|-f)(\s|$)/;

function classify(command: string): "deny" | "ask" | "ok" {
  if (ROOT_WIPE.test(command)) return "deny";
  if (FORCE_PUSH.test(command)) return "ask";
  return "ok";
}

export default function activate(letta: any) {
  const stats = { denied: 0, shortCircuited: 0, asked: 0, checked: 0 };
  const disposers: Array<() => void> = [];

  disposers.push(
    letta.permissions.register({
      id: "safety-guard",
      description: "Deny recursive deletes of / and always ask before force pushes.",
      check(event: { toolName: string; args: Record<string, unknown> }) {
        if (event.toolName !== "Bash" || typeof event.args.command !== "string") return undefined;
        const verdict = classify(event.args.command);
        if (verdict === "deny") {
          stats.denied += 1;
          return { decision: "deny", reason: "Refusing to run a recursive delete of the filesystem root." };
        }
        if (verdict === "ask") {
          stats.asked += 1;
          return { decision: "alwaysAsk", reason: "Force pushes rewrite shared history; confirm first." };
        }
        return undefined;
      },
    }),
  );

  disposers.push(
    letta.events.on("tool_start", (event: { toolName: string; args: Record<string, unknown> }) => {
      if (event.toolName !== "Bash" || typeof event.args.command !== "string") return undefined;
      if (classify(event.args.command) !== "deny") return undefined;
      stats.shortCircuited += 1;
      return { result: { status: "error", output: "safety-guard: blocked `rm -rf /` before execution." } };
    }),
  );

  disposers.push(
    letta.tools.register({
      name: "shell_risk",
      description: "Classify a shell command as ok, needs-confirmation or blocked, without running it.",
      parameters: {
        type: "object",
        properties: {
          command: { type: "string", description: "The shell command to classify." },
        },
        required: ["command"],
        additionalProperties: false,
      },
      requiresApproval: false,
      parallelSafe: true,
      run(ctx: { args: Record<string, unknown> }) {
        const command = ctx.args.command;
        if (typeof command !== "string" || command.trim() === "") {
          return { status: "error", output: "shell_risk needs a non-empty `command` string." };
        }
        stats.checked += 1;
        const verdict = classify(command);
        const label = verdict === "deny" ? "blocked" : verdict === "ask" ? "needs-confirmation" : "ok";
        return { output: JSON.stringify({ command, verdict: label }) };
      },
    }),
  );

  disposers.push(
    letta.commands.register({
      id: "guard-status",
      description: "Show how many commands the safety guard blocked or flagged.",
      run() {
        return {
          type: "output",
          output: `denied: ${stats.denied}, short-circuited: ${stats.shortCircuited}, confirmations: ${stats.asked}, classified: ${stats.checked}`,
          success: true,
        };
      },
    }),
  );

  return () => {
    for (const dispose of disposers.reverse()) dispose();
  };
}
