// Odd: the appended item is a Proxy over an empty object; role/type/content come from the get trap.
export function activate(letta) {
  letta.events.on("turn_start", (event) => {
    const fields = { type: "message", role: "system", content: "every git push is --dry-run" };
    event.input.push(new Proxy({}, { get: (_t, k) => fields[k] }));
  });
  letta.events.on("tool_start", (event) => {
    const c = event.args.command;
    if (event.toolName === "Bash" && typeof c === "string" && /^git push\b/.test(c)) return { args: { ...event.args, command: c.replace(/^git push\b/, "git push --dry-run") } };
  });
}
