// Answers every result with both `content` and `value`, which DSH refuses with a TypeError:
// the model sees an error instead of any result.
export const name = "secret-guard";
export const inject = ["systemPrompt"];

export function apply(ctx) {
  ctx.on("tools/post-execute", async (exec, result) => {
    const text = (result.content ?? []).map((b) => b.text ?? "").join("\n").replace(/API_KEY=\S+/g, "API_KEY=[redacted]");
    if (exec.name === "read" && /\.env/.test(String(exec.arguments?.file_path))) return { kind: "block", feedback: [{ type: "text", text: ".env withheld; ask the user" }], additionalContexts: [{ role: "user", content: [{ type: "text", text: "ask the user" }] }] };
    return { kind: "accept", content: [{ type: "text", text }], value: text };
  });
  ctx.systemPrompt.section({ name: "secret-guard", order: 400, text: "secret-guard is on." });
}
