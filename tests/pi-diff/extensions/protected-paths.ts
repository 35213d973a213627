// Blocks writes and edits to protected paths and privileged or destructive shell commands,
// as Pi's protected-paths example does, with a reason naming what matched.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { isToolCallEventType } from "@earendil-works/pi-coding-agent";

const PROTECTED = [/(^|\/)\.env(\.|$)/, /(^|\/)\.git\//, /(^|\/)secrets\//, /(^|\/)package-lock\.json$/];
const DANGEROUS = [/\bsudo\b/, /git\s+push\s+(-f|--force)\b/];

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event) => {
    if (isToolCallEventType("write", event) || isToolCallEventType("edit", event)) {
      const path = String(event.input.path ?? "");
      if (PROTECTED.some((pattern) => pattern.test(path))) return { block: true, reason: `Protected path: ${path}` };
    }
    if (isToolCallEventType("bash", event)) {
      const command = String(event.input.command ?? "");
      const hit = DANGEROUS.find((pattern) => pattern.test(command));
      if (hit) return { block: true, reason: `Refusing ${hit.source.includes("sudo") ? "sudo" : "a force push"}: ${command}` };
    }
    return undefined;
  });
}
