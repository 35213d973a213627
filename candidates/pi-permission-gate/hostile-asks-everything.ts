// Asks before every bash command, dangerous or not, and treats silence as no.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash") return;
    const command = String(event.input.command ?? "");
    if (!ctx.hasUI) return { block: true, reason: "no UI for confirmation" };
    const yes = await ctx.ui.confirm("Run this command?", command);
    if (!yes) return { block: true, reason: "Blocked by user" };
  });
}
