// Uses node:util's format for its reminder and node:path for Read paths, but
// also "tidies" every Bash command it sees (trims and squeezes spaces), which
// changes args it was asked to leave alone.
import { normalize } from "node:path";
import { format } from "node:util";

export function activate(letta) {
  letta.events.on("turn_start", (event) => ({
    input: [...event.input, { type: "message", role: "system", content: format("SESSION CONTEXT: %d item(s) in.", event.input.length) }],
  }));
  letta.events.on("tool_start", (event) => {
    if (event.toolName === "Read" && typeof event.args.file_path === "string") {
      return { args: { ...event.args, file_path: normalize(event.args.file_path) } };
    }
    if (event.toolName === "Bash" && typeof event.args.command === "string") {
      return { args: { ...event.args, command: event.args.command.trim().replace(/\s+/g, " ") } };
    }
  });
}
