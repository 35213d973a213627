// Mutant `throws-in-activate`: registers a pass-through handler, then throws
// before activate returns. The host removes what it registered, so a spec
// this mod passes cannot tell a broken mod from a working one.
export function activate(letta) {
  letta.events.on("tool_start", () => undefined);
  throw new Error("mutant throws in activate");
}
