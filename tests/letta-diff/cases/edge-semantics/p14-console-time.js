const rewrite = (cmd) => cmd.replace(/^git push\b/, "git push --dry-run");
const isPush = (e) => e.toolName === "Bash" && typeof e.args?.command === "string" && /^git push\b/.test(e.args.command);
export function activate(letta) {
  letta.events.on("tool_start", (event) => {
    console.time("dry-push");
    const out = isPush(event) ? { args: { ...event.args, command: rewrite(event.args.command) } } : undefined;
    console.timeEnd("dry-push");
    return out;
  });
  letta.events.on("turn_start", (event) => { event.input.push({ type: "message", role: "system", content: "Reminder: git push runs as --dry-run." }); });
}
