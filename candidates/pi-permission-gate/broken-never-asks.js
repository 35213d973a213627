// Never asks: every dangerous command is blocked, even when the user would say yes.
export default function (pi) {
  pi.on("tool_call", (event, ctx) => {
    if (event.toolName !== "bash") return;
    const command = String(event.input.command ?? "");
    if (/\brm\s+-|\bsudo\b|777/.test(command)) {
      return { block: true, reason: ctx.hasUI ? "Blocked by user" : "no UI for confirmation" };
    }
  });
}
