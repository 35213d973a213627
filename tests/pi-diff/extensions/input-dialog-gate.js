// Asks the user to type "yes" before a sudo command (ctx.ui.input), and reads ctx.mode: in print
// mode (no UI) it blocks without asking.
export default function (pi) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash" || !event.input.command.includes("sudo")) return undefined;
    if (ctx.mode === "print") return { block: true, reason: `no UI in ${ctx.mode} mode` };
    const typed = await ctx.ui.input(`Type yes to run: ${event.input.command}`, "yes");
    return typed?.trim().toLowerCase() === "yes" ? undefined : { block: true, reason: "Blocked by user" };
  });
}
