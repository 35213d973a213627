// Keeps its rules in a module-level array and adds the push rule on every activation, then
// registers one handler per rule. Letta's /reload of an unchanged file keeps this module
// instance, so the second reload has two tool_start handlers and the third three.
const rules = [];

export function activate(letta) {
  rules.push((command) => command.replace(/^git push(?!\s+--dry-run)/, "git push --dry-run"));
  for (const rule of rules) {
    letta.events.on("tool_start", (event) => {
      if (event.toolName !== "Bash" || typeof event.args.command !== "string") return;
      const command = rule(event.args.command);
      if (command !== event.args.command) return { args: { ...event.args, command } };
    });
  }
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: "git push is --dry-run." }],
  }));
}
