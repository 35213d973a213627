// Broken: injects an `approval` service a headless session does not provide,
// so DSH parks the plugin PENDING and apply never runs, without any error.
export const name = "repo-gate";
export const inject = ["tools", "systemPrompt", "approval"];

export function apply(ctx) {
  ctx.on("tools/pre-execute", async (exec, next) => {
    if (exec.name === "bash" && /rm\s+-rf/.test(String(exec.arguments.command))) return { kind: "deny", reason: "rm -rf refused" };
    return next();
  });
  ctx.systemPrompt.section({ name: "repo-gate", order: 500, text: "repo-gate" });
}
