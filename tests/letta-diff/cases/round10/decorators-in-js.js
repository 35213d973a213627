// TC39 decorators in a plain .js file: Bun's transpiler lowers them in every file.
// TC39 decorator in a plain .js mod: Bun's runtime transpiler accepts it, QuickJS does not.
function bound(method, context) { context.addInitializer(function () { this[context.name] = method.bind(this); }); }
class Reminder {
  text = "REMIND:ok";
  @bound inject(event) { event.input.push({ type: "message", role: "system", content: this.text }); }
}
export default function (letta) {
  const r = new Reminder();
  letta.events.on("turn_start", r.inject);
  letta.events.on("tool_start", (event) => { if (event.toolName === "Bash" && event.args.command.startsWith("rm ")) event.args.command = "echo " + event.args.command; });
}
