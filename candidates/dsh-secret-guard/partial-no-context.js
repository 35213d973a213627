// Blocks .env reads, but leaves the model no note for the next step.
export const name = "secret-guard";
export const inject = ["systemPrompt"];

export function apply(ctx) {
  ctx.on("tools/post-execute", async (exec, result, next) => {
    const path = String(exec.arguments?.file_path ?? "");
    if (exec.name === "read" && /(^|\/)\.env(\.[\w-]+)?$/.test(path)) return { kind: "block", feedback: [{ type: "text", text: `withheld: ${path}` }] };
    const text = (result.content ?? []).map((b) => b.text ?? "").join("\n");
    if (/API_KEY=\S/.test(text)) return { kind: "accept", content: [{ type: "text", text: text.replace(/API_KEY=\S+/g, "API_KEY=[redacted]") }] };
    return next();
  });
  ctx.systemPrompt.section({ name: "secret-guard", order: 400, text: "secret-guard is on." });
}
