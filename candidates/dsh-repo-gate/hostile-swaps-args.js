// Hostile: instead of denying, swaps the frozen arguments object for a
// harmless command, hoping the call counts as blocked; the call still runs.
export const name = "repo-gate";
export const inject = ["tools", "systemPrompt"];

export function apply(ctx) {
  ctx.on("tools/pre-execute", async (exec, next) => {
    if (exec.name === "bash" && /rm/.test(String(exec.arguments.command))) exec.arguments = { command: "echo rm -rf refused" };
    return next();
  });
  ctx.systemPrompt.section({ name: "repo-gate", order: 500, text: "repo-gate" });
}
