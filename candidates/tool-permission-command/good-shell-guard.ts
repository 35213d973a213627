// shell-guard: keeps the agent away from recursive force deletes.
//   * tool `shell_risk` rates a command without running it (read-only, so
//     requiresApproval: false);
//   * permission overlay `shell-guard`: deny rm -rf in Bash, allow other Bash
//     commands, no opinion on other tools;
//   * tool_start answers a Bash rm -rf with an error result (it never runs);
//   * tool_end adds a hint to failed Bash output;
//   * turn_end keeps going while the assistant still lists a TODO;
//   * turn_start cancels a turn that asks for `rm -rf /`;
//   * command `/guard` explains a command or shows the guard's status.

const RECURSIVE_FORCE_DELETE: RegExp = /\brm\s+-(?:[a-zA-Z]*r[a-zA-Z]*f|[a-zA-Z]*f[a-zA-Z]*r)[a-zA-Z]*\b/;
const ROOT_DELETE: RegExp = /\brm\s+-rf\s+\/(?=\s|$|\.|,)/;

type Args = Record<string, unknown>;

function isRecursiveForceDelete(command: unknown): command is string {
  return typeof command === "string" && RECURSIVE_FORCE_DELETE.test(command);
}

function userText(input: Array<{ role?: string; content?: unknown }>): string {
  return input
    .filter((item) => item.role === "user")
    .map((item) => {
      if (typeof item.content === "string") return item.content;
      if (Array.isArray(item.content)) return item.content.map((part: { text?: string }) => part.text ?? "").join("");
      return "";
    })
    .join("\n");
}

export function activate(letta: any) {
  let blocked = 0;
  const disposers: Array<() => void> = [];

  disposers.push(
    letta.tools.register({
      name: "shell_risk",
      description: "Rate how risky a shell command is, without running it.",
      parameters: {
        type: "object",
        properties: { command: { type: "string", description: "The shell command to rate." } },
        required: ["command"],
        additionalProperties: false,
      },
      requiresApproval: false,
      parallelSafe: true,
      run(ctx: { args: Args }) {
        const command = ctx.args.command;
        if (typeof command !== "string" || command.trim() === "") {
          return { status: "error", output: "command is required" };
        }
        return isRecursiveForceDelete(command) ? "high: recursive force delete" : "low";
      },
    }),
  );

  disposers.push(
    letta.permissions.register({
      id: "shell-guard",
      description: "Deny rm -rf in Bash; allow other Bash commands.",
      check(event: { toolName: string; args: Args }) {
        if (event.toolName !== "Bash") return undefined;
        if (isRecursiveForceDelete(event.args.command)) {
          return { decision: "deny", reason: "shell-guard: recursive force deletes are not allowed" };
        }
        return { decision: "allow" };
      },
    }),
  );

  disposers.push(
    letta.events.on("tool_start", (event: { toolName: string; args: Args }) => {
      if (event.toolName !== "Bash" || !isRecursiveForceDelete(event.args.command)) return undefined;
      blocked += 1;
      return { result: { status: "error", output: `shell-guard: blocked \`${event.args.command}\` (recursive force delete)` } };
    }),
  );

  disposers.push(
    letta.events.on("tool_end", (event: { toolName: string; status: string; output: string }) => {
      if (event.toolName !== "Bash" || event.status !== "error") return undefined;
      return {
        result: { status: "error", output: `${event.output}\nHint: run the failing command on its own to see its full output.` },
      };
    }),
  );

  disposers.push(
    letta.events.on("turn_end", (event: { stopReason: string; assistantMessage?: string }) => {
      if (event.stopReason !== "end_turn" || !/\bTODO\b/.test(event.assistantMessage ?? "")) return undefined;
      return { continue: "Finish the remaining TODO items before you end the turn." };
    }),
  );

  disposers.push(
    letta.events.on("turn_start", (event: { input: Array<{ role?: string; content?: unknown }> }) => {
      if (!ROOT_DELETE.test(userText(event.input))) return undefined;
      return { cancel: { reason: "shell-guard: refusing a turn that asks to delete the root directory" } };
    }),
  );

  disposers.push(
    letta.commands.register({
      id: "guard",
      description: "shell-guard: explain a command's risk, or show what was blocked",
      run(ctx: { argv: string[] }) {
        const [subcommand, ...words] = ctx.argv;
        if (subcommand === "explain" && words.length > 0) {
          return {
            type: "prompt",
            content: `Explain the risks of running \`${words.join(" ")}\` and suggest a safer alternative.`,
          };
        }
        return { type: "output", output: `shell-guard: ${blocked} command(s) blocked; rm -rf is denied in Bash.` };
      },
    }),
  );

  return () => {
    for (const dispose of disposers) dispose();
  };
}
