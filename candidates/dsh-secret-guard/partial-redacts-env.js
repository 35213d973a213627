// Treats .env files like any other output: their keys are redacted, but the file is not withheld.
export const name = "secret-guard";
export const inject = ["systemPrompt"];

export function apply(ctx) {
  ctx.on("tools/post-execute", async (exec, result, next) => {
    const text = (result.content ?? []).map((b) => b.text ?? "").join("\n");
    if (/API_KEY=\S/.test(text)) return { kind: "accept", content: [{ type: "text", text: text.replace(/API_KEY=\S+/g, "API_KEY=[redacted]") }] };
    return next();
  });
  ctx.systemPrompt.section({ name: "secret-guard", order: 400, text: "secret-guard is on." });
}
