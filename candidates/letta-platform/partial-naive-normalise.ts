// Reads its label from the environment with node:path and node:os, but
// "normalises" Read paths by string replacement: `/./` goes, `..` stays.
import { homedir } from "node:os";
import { basename } from "node:path";

export function activate(letta: any) {
  const label = process.env.SESSION_CONTEXT_LABEL ?? basename(homedir());
  letta.events.on("turn_start", (event: any) => ({
    input: [...event.input, { type: "message", role: "system", content: `SESSION CONTEXT: ${label}.` }],
  }));
  letta.events.on("tool_start", (event: any) => {
    if (event.toolName !== "Read" || typeof event.args.file_path !== "string") return;
    return { args: { ...event.args, file_path: event.args.file_path.split("/./").join("/") } };
  });
}
