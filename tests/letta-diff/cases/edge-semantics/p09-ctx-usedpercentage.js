const rewrite = (cmd) => cmd.replace(/^git push\b/, "git push --dry-run");
const isPush = (e) => e.toolName === "Bash" && typeof e.args?.command === "string" && /^git push\b/.test(e.args.command);
export function activate(letta) {
  letta.events.on("tool_start", (event) => { if (!isPush(event)) return; return { args: { ...event.args, command: rewrite(event.args.command) } }; });
  letta.events.on("turn_start", (event, ctx) => {
    const used = ctx.contextWindow.usedPercentage;
    const note = used === null ? "context usage unknown" : `context ${used}% used`;
    if (used !== null && used < 50) return;
    event.input.push({ type: "message", role: "system", content: `${note}; pushes are dry-run` });
  });
}
