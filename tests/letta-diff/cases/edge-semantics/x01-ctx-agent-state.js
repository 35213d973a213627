// Keeps per-agent state on ctx.agent: the reminder arms dry-run mode, tool_start honours it.
const rewrite = (cmd) => cmd.replace(/^git push\b/, "git push --dry-run");
export function activate(letta) {
  letta.events.on("turn_start", (event, ctx) => {
    const state = (ctx.agent.dryPushState ??= { armed: false });
    state.armed = true;
    event.input.push({ type: "message", role: "system", content: "Reminder: git push runs as --dry-run." });
  });
  letta.events.on("tool_start", (event, ctx) => {
    const armed = ctx.agent.dryPushState?.armed === true;
    if (event.toolName === "Bash" && /^git push\b/.test(event.args.command ?? "")) {
      return { args: { ...event.args, command: armed ? rewrite(event.args.command) : event.args.command } };
    }
  });
}
