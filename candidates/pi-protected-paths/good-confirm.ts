// Asks before sudo when there is a UI; without one (this session) it blocks.
import { isToolCallEventType, type ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { normalize } from "node:path";

const GUARDED = [/(^|\/)\.env(\.[^/]*)?$/, /(^|\/)\.git\//, /(^|\/)secrets\//];

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (isToolCallEventType("write", event) || isToolCallEventType("edit", event)) {
      const path = normalize(String(event.input.path ?? ""));
      if (GUARDED.some((pattern) => pattern.test(path))) return { block: true, reason: `${event.input.path} is protected` };
    }
    if (isToolCallEventType("bash", event)) {
      const command = String(event.input.command ?? "");
      if (!/(^|&&|\|\||;|\|)\s*sudo\b/.test(command)) return;
      if (!ctx.hasUI) return { block: true, reason: "sudo needs a human to confirm" };
      if (!(await ctx.ui.confirm("Run with sudo?", command))) return { block: true, reason: "sudo declined" };
    }
  });
}
