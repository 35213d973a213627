// Blocks .env reads with feedback and a note for the next step; redacts API keys elsewhere.
export const name = "secret-guard";
export const inject = ["systemPrompt"];

const ENV_FILE = /(^|\/)\.env(\.[\w-]+)?$/;
const KEY = /API_KEY=[^\s"']+/g;

const textOf = (result) => (result.content ?? []).filter((block) => block.type === "text").map((block) => block.text).join("\n");

export function apply(ctx) {
  ctx.on("tools/post-execute", async (exec, result, next) => {
    const path = String(exec.arguments?.file_path ?? "");
    if (exec.name === "read" && ENV_FILE.test(path)) {
      return {
        kind: "block",
        feedback: [{ type: "text", text: `secrets withheld: ${path} is an environment file` }],
        additionalContexts: [{ role: "user", content: [{ type: "text", text: `Do not read ${path}; ask the user for the value you need.` }] }],
      };
    }
    const text = textOf(result);
    if (KEY.test(text)) return { kind: "accept", content: [{ type: "text", text: text.replace(KEY, "API_KEY=[redacted]") }] };
    return next();
  });
  ctx.systemPrompt.section({ name: "secret-guard", order: 400, text: "secret-guard is on: .env files and API keys never reach you." });
}
