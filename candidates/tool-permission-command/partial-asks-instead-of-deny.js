// Like good-shell-guard.ts, but the overlay only asks before rm -rf and
// allows everything else, including tools it knows nothing about.
// Expected to fail: denies-rm-rf (x2: `ask`, not `deny`) and
// no-opinion-on-other-tools (`allow` for Read).

const RM_RF = /\brm\s+-(?:[a-zA-Z]*r[a-zA-Z]*f|[a-zA-Z]*f[a-zA-Z]*r)[a-zA-Z]*\b/;
const isRmRf = (command) => typeof command === "string" && RM_RF.test(command);

export default function (letta) {
  letta.tools.register({
    name: "shell_risk",
    description: "Rate a shell command.",
    parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] },
    requiresApproval: false,
    run: ({ args }) => {
      if (!args.command || !String(args.command).trim()) return { status: "error", output: "command is required" };
      return isRmRf(args.command) ? "high" : "low";
    },
  });

  letta.permissions.register({
    id: "shell-guard",
    check: (event) =>
      isRmRf(event.args.command)
        ? { decision: "ask", reason: "shell-guard: confirm this delete" }
        : { decision: "allow" },
  });

  letta.events.on("tool_start", (event) => {
    if (event.toolName === "Bash" && isRmRf(event.args.command)) {
      return { result: { status: "error", output: `shell-guard: blocked ${event.args.command}` } };
    }
  });
  letta.events.on("tool_end", (event) => {
    if (event.toolName === "Bash" && event.status === "error") {
      return { result: { status: "error", output: `${event.output}\nHint: rerun it alone.` } };
    }
  });
  letta.events.on("turn_end", (event) => {
    if ((event.assistantMessage || "").includes("TODO")) return { continue: "Keep going: a TODO is left." };
  });
  letta.events.on("turn_start", (event) => {
    const asksForRoot = event.input.some((item) => typeof item.content === "string" && /rm -rf \/(\s|$|\.)/.test(item.content));
    if (asksForRoot) return { cancel: { reason: "shell-guard: will not delete /" } };
  });
  letta.commands.register({
    id: "guard",
    description: "shell-guard status and explanations",
    run: ({ argv }) =>
      argv[0] === "explain"
        ? { type: "prompt", content: `Why is \`${argv.slice(1).join(" ")}\` risky?` }
        : { type: "output", output: "shell-guard is on" },
  });
}
