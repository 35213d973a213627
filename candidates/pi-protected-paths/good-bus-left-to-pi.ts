// Gates correctly and leaves its pi.events subscription to Pi, which removes it when it shuts the
// extension down (0.84 and later; under 0.58 the old copy's listener outlived a /reload).
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  let blocked = 0;
  pi.events.on("protected-paths:reset", () => {
    blocked = 0;
  });
  pi.on("tool_call", async (event) => {
    const path = String(event.input.path ?? "");
    const parts = path.split("/");
    const last = parts[parts.length - 1];
    if ((event.toolName === "write" || event.toolName === "edit") && (last === ".env" || last.startsWith(".env.") || /(^|\/)(\.git|secrets)\//.test(path))) {
      blocked++;
      return { block: true, reason: `refusing to modify ${path} (${blocked} blocked)` };
    }
    if (event.toolName === "bash" && /(^|&&|\|\||;|\|)\s*sudo\b/.test(String(event.input.command))) {
      return { block: true, reason: "sudo needs a human" };
    }
  });
}
