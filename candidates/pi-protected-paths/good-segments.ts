// Protected paths by segment; sudo as a command word at a segment start.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

function protectedPath(path: string): boolean {
  const parts = path.split("/").filter((part) => part !== "" && part !== ".");
  const last = parts[parts.length - 1] ?? "";
  if (last === ".env" || last.startsWith(".env.")) return true;
  return parts.slice(0, -1).some((part) => part === ".git" || part === "secrets");
}

const SUDO = /(^|&&|\|\||;|\|)\s*sudo\b/;

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event) => {
    if ((event.toolName === "write" || event.toolName === "edit") && typeof event.input.path === "string") {
      if (protectedPath(event.input.path)) return { block: true, reason: `refusing to modify ${event.input.path}: it is protected` };
    }
    if (event.toolName === "bash" && typeof event.input.command === "string" && SUDO.test(event.input.command)) {
      return { block: true, reason: "sudo needs a human, and this session has none" };
    }
    return undefined;
  });
}
