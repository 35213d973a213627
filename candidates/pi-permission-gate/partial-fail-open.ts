// Blocks only an explicit No: a dismissed dialog lets the command run.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

const DANGEROUS = [/\brm\s+(-[a-zA-Z]*r|--recursive)/, /\bsudo\b/, /\b(chmod|chown)\b.*777/];

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash") return;
    const command = String(event.input.command ?? "");
    if (!DANGEROUS.some((p) => p.test(command))) return;
    if (!ctx.hasUI) return { block: true, reason: "blocked: no UI for confirmation" };
    const choice = await ctx.ui.select(`Allow ${command}?`, ["Yes", "No"]);
    if (choice === "No") return { block: true, reason: "Blocked by user" };
  });
}
