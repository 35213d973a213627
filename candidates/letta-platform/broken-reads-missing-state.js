// Reads its state file at activation with readFileSync and no existence check:
// on a clean machine the file is not there, so activate throws ENOENT.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

export function activate(letta) {
  const state = JSON.parse(readFileSync(join(homedir(), ".letta", "mods", "session-context.missing.json"), "utf8"));
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: `SESSION CONTEXT: ${state.turns ?? 0} turn(s).` }],
  }));
}
