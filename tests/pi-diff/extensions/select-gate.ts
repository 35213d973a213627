// Asks with a Yes/No select, naming the command in the title; headless it blocks.
export default function (pi) {
  pi.on("tool_call", async (event, ctx) => {
    if (event.toolName !== "bash" || !event.input.command.includes("sudo")) return;
    if (!ctx.hasUI) return { block: true, reason: "no UI to ask about sudo" };
    const choice = await ctx.ui.select(`Allow ${event.input.command}?`, ["Yes", "No"]);
    if (choice !== "Yes") return { block: true, reason: "Blocked by user" };
  });
}
