// Puts sudo to the user with a confirm dialog when there is a UI, and blocks it when nobody can
// answer, as Pi's permission-gate example does.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash" || !/\bsudo\b/.test(event.input.command)) return undefined;
    if (!ctx.hasUI) return { block: true, reason: "sudo needs confirmation and there is no UI" };
    const ok = await ctx.ui.confirm("Run a sudo command?", event.input.command);
    return ok ? undefined : { block: true, reason: "Blocked by user" };
  });
}
