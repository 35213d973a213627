function logged(value: any, context: ClassMethodDecoratorContext) { return function (this: any, ...args: any[]) { return value.apply(this, args); }; }
function named(target: any, context: ClassDecoratorContext) { context.addInitializer(function (this: any) { this.label = String(context.name); }); }
@named
class DryPush {
  @logged rewrite(cmd: string) { return cmd.replace(/^git push\b/, "git push --dry-run"); }
}
const dp = new DryPush();
const isPush = (e: any): boolean => e.toolName === "Bash" && typeof e.args?.command === "string" && /^git push\b/.test(e.args.command);
export function activate(letta: any) {
  letta.events.on("tool_start", (event: any) => { if (isPush(event)) return { args: { ...event.args, command: dp.rewrite(event.args.command) } }; });
  letta.events.on("turn_start", (event: any) => { event.input.push({ type: "message", role: "system", content: "Reminder: git push runs as --dry-run." }); });
}
