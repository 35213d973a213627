// Asks even when nobody is there: the headless answer (undefined) reads as a refusal, so the
// reason never says that there was no UI.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

const DANGEROUS = [/\brm\s+(-[a-zA-Z]*r|--recursive)/, /\bsudo\b/, /\b(chmod|chown)\b.*777/];

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash") return;
    const command = String(event.input.command ?? "");
    if (!DANGEROUS.some((p) => p.test(command))) return;
    const choice = await ctx.ui.select(`Allow ${command}?`, ["Yes", "No"]);
    if (choice !== "Yes") return { block: true, reason: "Blocked by user" };
  });
}
