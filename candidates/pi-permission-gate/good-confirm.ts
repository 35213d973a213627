// Splits the command into its parts and asks with confirm, naming the rule that matched.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const RULES: { label: string; test: (words: string[]) => boolean }[] = [
  { label: "recursive rm", test: (w) => w[0] === "rm" && w.slice(1).some((a) => a === "--recursive" || /^-[a-zA-Z]*r/.test(a)) },
  { label: "sudo", test: (w) => w.includes("sudo") },
  { label: "world-writable chmod/chown", test: (w) => (w[0] === "chmod" || w[0] === "chown") && w.includes("777") },
];

function dangerIn(command: string): string | undefined {
  for (const part of command.split(/&&|\|\||;|\|/)) {
    const words = part.trim().split(/\s+/).filter(Boolean);
    const rule = RULES.find((r) => r.test(words));
    if (rule) return rule.label;
  }
  return undefined;
}

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash") return;
    const command = String(event.input.command ?? "");
    const danger = dangerIn(command);
    if (!danger) return;
    if (!ctx.hasUI) return { block: true, reason: `${danger} blocked: no UI for confirmation` };
    const yes = await ctx.ui.confirm(`Run a dangerous command (${danger})?`, command);
    if (!yes) return { block: true, reason: "Blocked by user" };
  });
}
