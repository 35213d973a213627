// Hostile: both handlers return the right keys with the wrong types. The
// engine ignores `{ args: <string> }` and `{ input: <string> }` without a
// diagnostic, so nothing is rewritten and no reminder is appended.

export function activate(letta) {
  letta.events.on("turn_start", () => {
    return { input: "oops" };
  });

  letta.events.on("tool_start", (event) => {
    if (event.toolName !== "Bash") return;
    return { args: "not an object" };
  });
}
