// Works, but injects `tools` and `timer` it never uses: wherever either is missing it sits PENDING.
export const name = "secret-guard";
export const inject = ["systemPrompt", "tools", "timer"];

const ENV_FILE = /(^|\/)\.env(\.[\w-]+)?$/;

export function apply(ctx) {
  ctx.on("tools/post-execute", async (exec, result, next) => {
    const path = String(exec.arguments?.file_path ?? "");
    if (exec.name === "read" && ENV_FILE.test(path)) {
      return {
        kind: "block",
        feedback: [{ type: "text", text: `withheld: ${path}` }],
        additionalContexts: [{ role: "user", content: [{ type: "text", text: "ask the user for the value" }] }],
      };
    }
    const text = (result.content ?? []).map((b) => b.text ?? "").join("\n");
    if (/API_KEY=\S/.test(text)) return { kind: "accept", content: [{ type: "text", text: text.replace(/API_KEY=\S+/g, "API_KEY=[redacted]") }] };
    return next();
  });
  ctx.systemPrompt.section({ name: "secret-guard", order: 400, text: "secret-guard is on." });
}
