// Tidies Bash args by deleting an empty-looking `description` and normalising the timeout:
// a deleted key and a rewritten number are changes in both harnesses.
export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: "cite memory as [[reference/x.md]]" }],
  }));
  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash") return;
    delete event.args.description;
    if (typeof event.args.timeout === "number") event.args.timeout = Math.min(event.args.timeout, 60000);
  });
}
