class Settings { accessor mode = "dry-run"; }
const s = new Settings();
const rewrite = (cmd: string): string => cmd.replace(/^git push\b/, "git push --dry-run");
const isPush = (e: any): boolean => e.toolName === "Bash" && typeof e.args?.command === "string" && /^git push\b/.test(e.args.command);
export function activate(letta: any) {
  letta.events.on("tool_start", (event: any) => { if (!isPush(event)) return; return { args: { ...event.args, command: rewrite(event.args.command) } }; });
  letta.events.on("turn_start", (event: any) => { event.input.push({ type: "message", role: "system", content: `pushes are ${s.mode}` }); });
}
