// Pi's own shape for a gate: one list of patterns, a Yes/No select when someone is there.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const DANGEROUS = [/\brm\s+(-[a-zA-Z]*r[a-zA-Z]*|--recursive)\b/, /\bsudo\b/, /\b(chmod|chown)\b.*\b777\b/];

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash") return undefined;
    const command = String(event.input.command ?? "");
    if (!DANGEROUS.some((pattern) => pattern.test(command))) return undefined;
    if (!ctx.hasUI) return { block: true, reason: "Dangerous command blocked (no UI for confirmation)" };
    const choice = await ctx.ui.select(`Dangerous command:\n\n  ${command}\n\nAllow?`, ["Yes", "No"]);
    return choice === "Yes" ? undefined : { block: true, reason: "Blocked by user" };
  });
}
