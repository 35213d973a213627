// Broken: its listener returns nothing for calls it does not decide, so
// every other call fails in DSH's pipeline.
import { defineTool } from "@deepseek-ai/dsh-tools";

export const name = "repo-gate";
export const inject = ["tools", "systemPrompt"];

export function apply(ctx) {
  ctx.on("tools/pre-execute", async (exec) => {
    if (exec.name === "bash" && /rm\s+-(rf|fr)|rm\s+-r\s+-f/.test(String(exec.arguments.command))) return { kind: "deny", reason: "rm -rf refused" };
    if (exec.name === "write" && !String(exec.arguments.file_path).startsWith("/workspace/")) return { kind: "ask", reason: `outside: ${exec.arguments.file_path}` };
  });
  ctx.tools.register(defineTool({
    name: "word_count",
    description: "Count words.",
    parameters: { text: { type: "string", required: true } },
    output: { schema: { type: "integer" }, render: (_a, n) => [{ type: "text", text: `${n} words` }] },
    async execute({ text }) {
      return text.split(/\s+/).filter(Boolean).length;
    },
  }));
  ctx.systemPrompt.section({ name: "repo-gate", order: 500, text: "repo-gate" });
}
