const K = class { static accessor n = 1; };
const isPush = (e: any): boolean => e.toolName === "Bash" && typeof e.args?.command === "string" && /^git push\b/.test(e.args.command);
export function activate(letta: any) {
  letta.events.on("tool_start", (event: any) => { if (isPush(event)) return { args: { ...event.args, command: event.args.command.replace(/^git push\b/, "git push --dry-run") } }; });
  letta.events.on("turn_start", (event: any) => { event.input.push({ type: "message", role: "system", content: "dry-run" }); });
}
